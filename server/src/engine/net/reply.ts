/** Reading what a service answered: a bounded body, its own explanation, a refused redirect, a network failure. */
import { displayUrl } from './url';

/** Control characters, line separators and runs of white space become one space; long text is cut with `…`. */
export function oneLine(text: string, max = 300): string {
  const flat = text
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The body as UTF-8 text, at most `limit` bytes of it (the rest is not read, so a huge or endless
 * reply cannot fill memory). `onChunk` runs after every read (an inactivity timer re-arms there).
 */
export async function readLimited(response: Response, limit: number, onChunk?: () => void): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      onChunk?.();
      if (done) break;
      const room = limit - bytes;
      bytes += value.byteLength;
      text += decoder.decode(value.byteLength > room ? value.subarray(0, room) : value, { stream: true });
      if (bytes >= limit) break;
    }
    return text + decoder.decode();
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

/** A body parsed as a JSON object, or `undefined` (empty, not JSON, or not an object). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The service's own explanation in a reply, on one line: from JSON, `error` (a string or its
 * `message`), `message`, `detail` or `title`; otherwise a short plain-text or HTML body without its
 * tags. `undefined` when the reply explains nothing.
 */
export function serviceMessage(text: string, contentType = ''): string | undefined {
  const json = jsonObject(text);
  if (json) {
    const pick = (o: unknown): string | undefined => {
      if (typeof o === 'string') return o.trim() ? o : undefined;
      if (!o || typeof o !== 'object') return undefined;
      const r = o as Record<string, unknown>;
      for (const v of [r.error, r.message, r.detail, r.title]) {
        const m = Array.isArray(v) ? JSON.stringify(v) : pick(v);
        if (m) return m;
      }
      return undefined;
    };
    const m = pick(json);
    return m === undefined ? undefined : oneLine(m);
  }
  if (!text.trim() || /^\s*[[{]/.test(text) || !/^(text\/|$)/i.test(contentType.trim())) return undefined;
  const plain = /html/i.test(contentType) || /^\s*</.test(text) ? text.replace(/<[^>]*>/g, ' ') : text;
  return oneLine(plain) || undefined;
}

/** True for a 3xx reply. Requests are made with `redirect: 'manual'`: a secret goes only where the user said. */
export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400;
}

/** ` to <where>` for a redirect's `Location` (shown without credentials or query), or `''`. */
export function redirectTarget(response: { readonly headers: Headers }, base: URL): string {
  const location = response.headers.get('location');
  if (!location) return '';
  try {
    return ` to ${displayUrl(new URL(location, base))}`;
  } catch {
    return ''; // an unusable Location: say nothing about it
  }
}

/** Why a request never got a reply, as the system said it (`ECONNREFUSED (connect ECONNREFUSED …)`). */
export function networkReason(e: unknown): string {
  const err = e as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined;
  const code = typeof err?.cause?.code === 'string' ? err.cause.code : undefined;
  const causeMessage = typeof err?.cause?.message === 'string' ? err.cause.message : undefined;
  const message = typeof err?.message === 'string' ? err.message : String(e);
  const said =
    code && !causeMessage?.includes(code) ? `${code}${causeMessage ? ` (${causeMessage})` : ''}` : causeMessage;
  return oneLine(said || message || 'unknown error', 200);
}
