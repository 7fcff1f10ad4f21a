/**
 * Upload of a tool definition per the upload contract (shared/spec/decisions.md): validate, POST the
 * file's original bytes as multipart/form-data, follow the service's setup through `statusUrl`.
 * Pure Node (global fetch): the CLI and the VS Code client both call `uploadDefinition`.
 */
import {
  backoffDelay,
  checkUrl,
  displayUrl,
  isRedirect,
  jsonObject,
  networkReason,
  oneLine,
  parseRetryAfter,
  readLimited,
  redirectTarget,
  secretRedactor,
  serviceMessage,
  sleep,
  type UrlCheck,
  type UrlRole,
} from '../net';
import { formatBytes, formatDuration } from '../../service/format';
import type {
  UploadFailure,
  UploadFailureKind,
  UploadHooks,
  UploadOptions,
  UploadPhase,
  UploadProgress,
  UploadResult,
  UploadSuccess,
  UploadValidation,
  ValidationSummary,
} from './types';

export const UPLOAD_DEFAULTS = {
  timeoutMs: 30_000,
  setupTimeoutMs: 600_000,
  maxRetries: 4,
  retryBaseMs: 1_000,
  maxRetryDelayMs: 60_000,
  pollIntervalMs: 2_000,
  maxPollIntervalMs: 10_000,
} as const;

/** Replies are read up to this size; anything beyond is dropped (a status reply is a few hundred bytes). */
const MAX_REPLY_BYTES = 1 << 20;

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Sent =
  | { readonly ok: true; readonly reply: Reply }
  | { readonly ok: false; readonly kind: 'timeout' | 'cancelled' | 'network'; readonly message: string };

const UPLOAD_URL: UrlRole = {
  what: 'upload URL',
  sends: 'the upload token',
  credentialsIn: 'the token is sent in the Authorization header',
};
const STATUS_URL: UrlRole = { ...UPLOAD_URL, what: "service's statusUrl" };

/** Whether the upload token may be sent to this upload URL (the CLI asks before reading any file). */
export function checkUploadUrl(text: string): UrlCheck {
  return checkUrl(text, UPLOAD_URL);
}

/** The service's own explanation in a reply, as `: <message>` for a sentence, or `''`. */
function said(reply: Reply): string {
  const m = serviceMessage(reply.text, reply.headers.get('content-type') ?? '');
  return m ? `: ${m}` : '';
}

/**
 * Validates and uploads one definition. Never throws for expected failures: every outcome is a
 * typed `UploadResult`; progress goes to `hooks`. The token appears in the Authorization header only.
 */
export async function uploadDefinition(options: UploadOptions, hooks: UploadHooks = {}): Promise<UploadResult> {
  const redact = secretRedactor(options.token, 'token');
  try {
    return await upload(options, hooks, redact);
  } catch (e) {
    // Not an expected failure (a bug): rethrown, but never with the token in it.
    const error = new Error(redact(e instanceof Error ? e.message : String(e)));
    if (e instanceof Error && e.stack) error.stack = redact(e.stack);
    throw error;
  }
}

async function upload(
  options: UploadOptions,
  hooks: UploadHooks,
  redact: (s: string) => string,
): Promise<UploadResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const setting = <K extends keyof typeof UPLOAD_DEFAULTS>(key: K): number => {
    const v = options[key];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : UPLOAD_DEFAULTS[key];
  };
  const timeoutMs = Math.max(1, setting('timeoutMs'));
  const setupTimeoutMs = setting('setupTimeoutMs');
  const maxRetries = Math.floor(setting('maxRetries'));
  const retryBaseMs = setting('retryBaseMs');
  const maxRetryDelayMs = setting('maxRetryDelayMs');
  const pollIntervalMs = setting('pollIntervalMs');
  const maxPollIntervalMs = Math.max(pollIntervalMs, setting('maxPollIntervalMs'));
  const fetchImpl = options.fetch ?? fetch;
  const userSignal = options.signal;
  const size = options.bytes.byteLength;
  const token = (options.token ?? '').trim();

  let attempts = 0;
  let polls = 0;
  let httpStatus: number | undefined;
  let fileName: string | undefined;
  let validation: ValidationSummary | undefined;

  const log = (line: string): void => {
    try {
      hooks.onLog?.(redact(line));
    } catch {
      // a broken hook must not break the upload
    }
  };
  const progress = (
    phase: UploadPhase,
    message: string,
    extra: Partial<Omit<UploadProgress, 'phase' | 'message' | 'elapsedMs'>> = {},
  ): void => {
    const p: UploadProgress = { phase, message: redact(message), ...extra, elapsedMs: elapsed() };
    log(`[${phase}] ${message}`);
    try {
      hooks.onProgress?.(p);
    } catch {
      // as above
    }
  };
  const fail = (kind: UploadFailureKind, message: string, extra: { retryAfterMs?: number } = {}): UploadFailure => {
    progress('done', message);
    return {
      ok: false,
      kind,
      message: redact(message),
      httpStatus,
      attempts,
      polls,
      elapsedMs: elapsed(),
      fileName,
      size,
      validation,
      ...extra,
    };
  };
  const cancelled = (): UploadFailure => fail('cancelled', 'Upload cancelled.');

  // 1. Everything that needs no network: the URL, the token, the file.
  const target = checkUploadUrl(options.url);
  if (!target.ok) return fail(target.kind, target.message);
  const url = target.url;
  if (!token) return fail('auth', 'No upload token is set.');
  if (!/^[\x21-\x7e]+$/.test(token))
    return fail(
      'auth',
      'The upload token contains spaces or characters that cannot be sent in an HTTP header; set it again.',
    );
  if (userSignal?.aborted) return cancelled();

  progress('validating', `Validating ${options.filePath ? displayName(options.filePath) : 'the definition'}…`);
  let v: UploadValidation;
  try {
    v = await options.validate(options.bytes);
  } catch (e) {
    return fail(
      'validation',
      `Not uploaded: the definition could not be validated (${e instanceof Error ? e.message : String(e)}).`,
    );
  }
  fileName = v.fileName;
  validation = {
    kind: v.kind,
    errors: v.errors,
    warnings: v.warnings,
    diagnostics: v.diagnostics.map((d) => (typeof d.message === 'string' ? { ...d, message: redact(d.message) } : d)),
    problems: v.problems.map(redact),
  };
  const forced = v.errors > 0;
  if (v.errors) {
    const errors = `${v.errors} error${v.errors === 1 ? '' : 's'}`;
    if (!options.force)
      return fail(
        'validation',
        `Not uploaded: the definition has ${errors}. Fix ${v.errors === 1 ? 'it' : 'them'} first, or upload anyway (force).`,
      );
    log(`Validation found ${errors}; uploading anyway (forced).`);
  }
  if (userSignal?.aborted) return cancelled();

  // 2. The upload, retried on 429 and 5xx.
  // One file part named "file" with the original bytes (a BOM, CRLF line ends, anything); fetch writes the
  // multipart body, its boundary and its length.
  const form = new FormData();
  form.append('file', new Blob([options.bytes], { type: 'application/json' }), fileName);
  const authorization = `Bearer ${token}`;
  const userAgent = options.userAgent ?? 'tooldef';

  const send = async (
    method: 'GET' | 'POST',
    to: URL,
    headers: Record<string, string>,
    payload?: FormData,
  ): Promise<Sent> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = userSignal ? AbortSignal.any([userSignal, timeout]) : timeout;
    try {
      const res = await fetchImpl(to, { method, headers, body: payload, signal, redirect: 'manual' });
      const text = await readLimited(res, MAX_REPLY_BYTES);
      return { ok: true, reply: { status: res.status, headers: res.headers, text } };
    } catch (e) {
      if (userSignal?.aborted) return { ok: false, kind: 'cancelled', message: 'cancelled' };
      if (timeout.aborted)
        return { ok: false, kind: 'timeout', message: `no complete reply within ${formatDuration(timeoutMs)}` };
      return { ok: false, kind: 'network', message: networkReason(e) };
    }
  };

  let reply: Reply;
  const total = maxRetries + 1;
  for (let attempt = 1; ; attempt++) {
    attempts = attempt;
    progress(
      'uploading',
      attempt === 1
        ? `Uploading ${fileName} (${formatBytes(size)}) to ${displayUrl(url)}…`
        : `Uploading ${fileName}, attempt ${attempt} of ${total}…`,
      { attempt },
    );
    const sent = await send('POST', url, { authorization, accept: 'application/json', 'user-agent': userAgent }, form);
    if (!sent.ok) {
      if (sent.kind === 'cancelled') return cancelled();
      if (sent.kind === 'timeout')
        return fail('timeout', `The service did not answer the upload within ${formatDuration(timeoutMs)}.`);
      return fail('network', `Could not upload to ${url.host}: ${sent.message}.`);
    }
    const r = sent.reply;
    httpStatus = r.status;
    log(`POST ${displayUrl(url)} → HTTP ${r.status}`);
    if (r.status >= 200 && r.status < 300) {
      reply = r;
      break;
    }
    if (r.status === 401 || r.status === 403)
      return fail(
        'auth',
        `The service refused the upload token (HTTP ${r.status}${said(r)}). Set a valid upload token.`,
      );
    if (r.status === 413)
      return fail('too-large', `The file is too large for the service (${formatBytes(size)}; HTTP 413${said(r)}).`);
    if (r.status === 429 || r.status >= 500) {
      const kind = r.status === 429 ? 'rate-limited' : 'server';
      const busy =
        r.status === 429
          ? `The service is limiting uploads (HTTP 429${said(r)})`
          : `The service failed (HTTP ${r.status}${said(r)})`;
      const retryAfterMs = parseRetryAfter(r.headers);
      if (retryAfterMs !== undefined && retryAfterMs > maxRetryDelayMs) {
        return fail(kind, `${busy} and asks to retry in ${formatDuration(retryAfterMs)}; try again later.`, {
          retryAfterMs,
        });
      }
      if (attempt > maxRetries)
        return fail(
          kind,
          `${busy}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}.`,
          retryAfterMs === undefined ? {} : { retryAfterMs },
        );
      const wait = retryAfterMs ?? backoffDelay(attempt - 1, retryBaseMs, maxRetryDelayMs);
      progress('uploading', `${busy}; retrying in ${formatDuration(wait)} (attempt ${attempt + 1} of ${total})…`, {
        attempt,
      });
      if (!(await sleep(wait, userSignal))) return cancelled();
      continue;
    }
    if (isRedirect(r.status))
      return fail(
        'bad-reply',
        `The service redirected the upload (HTTP ${r.status}${redirectTarget(r, url)}); set the upload URL to the final address.`,
      );
    return fail('rejected', `The service rejected the upload (HTTP ${r.status}${said(r)}).`);
  }

  // 3. The reply: done, or a statusUrl to follow through the service's setup.
  const json = jsonObject(reply.text);
  if (!json && reply.text.trim())
    log('The upload reply is not a JSON object; taking the upload as accepted, without setup tracking.');
  const replyStatus = typeof json?.status === 'string' ? json.status : undefined;
  const succeed = (status: 'ready' | 'uploaded', message: string, statusUrl?: URL): UploadSuccess => {
    progress('done', message);
    return {
      ok: true,
      status,
      message: redact(message),
      httpStatus: httpStatus!,
      attempts,
      polls,
      elapsedMs: elapsed(),
      fileName: fileName!,
      size,
      validation,
      forced,
      ...(statusUrl ? { statusUrl: redact(displayUrl(statusUrl)) } : {}),
    };
  };
  if (replyStatus === 'failed') return fail('setup-failed', `The service's setup of ${fileName} failed${said(reply)}.`);
  if (replyStatus === 'ready') return succeed('ready', `Uploaded ${fileName}; the service reports it ready.`);
  const statusUrlValue = json?.statusUrl;
  if (statusUrlValue === undefined || statusUrlValue === null || statusUrlValue === '') {
    return succeed('uploaded', `Uploaded ${fileName} (HTTP ${reply.status}).`);
  }
  if (typeof statusUrlValue !== 'string')
    return fail(
      'bad-reply',
      `Uploaded ${fileName}, but the reply's statusUrl is not a string; the setup cannot be followed.`,
    );
  const statusCheck = checkUrl(statusUrlValue, STATUS_URL, url);
  if (!statusCheck.ok)
    return fail('bad-reply', `Uploaded ${fileName}, but the setup cannot be followed: ${statusCheck.message}`);
  const statusUrl = statusCheck.url;
  const pollHeaders: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent };
  if (statusUrl.origin === url.origin) pollHeaders.authorization = authorization;
  else log(`The statusUrl is on another origin (${statusUrl.origin}); it is polled without the upload token.`);

  const deadline = performance.now() + setupTimeoutMs;
  const setupTimedOut = (last: string | undefined): UploadFailure =>
    fail(
      'timeout',
      `The service's setup of ${fileName} did not finish within ${formatDuration(setupTimeoutMs)}${last ? ` (last status: ${last})` : ''}; it may still finish later.`,
    );
  let wait = parseRetryAfter(reply.headers) ?? 0;
  let interval = pollIntervalMs;
  let failures = 0;
  let lastStatus: string | undefined;
  progress('setup', `Uploaded ${fileName}; waiting for the service's setup…`);
  for (;;) {
    if (wait > 0 && !(await sleep(Math.min(wait, Math.max(0, deadline - performance.now())), userSignal)))
      return cancelled();
    if (userSignal?.aborted) return cancelled();
    polls++;
    const sent = await send('GET', statusUrl, pollHeaders);
    let retryAfterMs: number | undefined;
    if (!sent.ok) {
      if (sent.kind === 'cancelled') return cancelled();
      failures++;
      log(`GET ${displayUrl(statusUrl)} failed: ${sent.message}`);
      if (failures > maxRetries) {
        return fail(
          sent.kind,
          `Uploaded ${fileName}, but asking the service for its setup status failed ${failures} times in a row (${sent.message}).`,
        );
      }
    } else {
      const r = sent.reply;
      httpStatus = r.status;
      log(`GET ${displayUrl(statusUrl)} → HTTP ${r.status}`);
      retryAfterMs = parseRetryAfter(r.headers);
      if (r.status === 401 || r.status === 403) {
        return fail(
          'auth',
          `The service refused the upload token when asked for the setup status (HTTP ${r.status}${said(r)}). Set a valid upload token.`,
        );
      }
      if (r.status === 429 || r.status >= 500) {
        failures++;
        if (failures > maxRetries) {
          return fail(
            r.status === 429 ? 'rate-limited' : 'server',
            `Uploaded ${fileName}, but the service's status URL kept failing (HTTP ${r.status}${said(r)}).`,
          );
        }
      } else if (r.status < 200 || r.status >= 300) {
        return fail(
          'bad-reply',
          `Uploaded ${fileName}, but the service's status URL answered HTTP ${r.status}${said(r)}.`,
        );
      } else {
        const st = jsonObject(r.text);
        const status = st?.status;
        if (typeof status !== 'string' || !status) {
          return fail('bad-reply', `Uploaded ${fileName}, but the service's status reply is not JSON with a "status".`);
        }
        failures = 0;
        lastStatus = oneLine(status, 60);
        if (status === 'ready')
          return succeed('ready', `Uploaded ${fileName}; the service's setup finished: ready${said(r)}.`, statusUrl);
        if (status === 'failed') return fail('setup-failed', `The service's setup of ${fileName} failed${said(r)}.`);
        const pct =
          typeof st.progress === 'number' && Number.isFinite(st.progress)
            ? Math.max(0, Math.min(100, Math.round(st.progress)))
            : undefined;
        progress(
          'setup',
          `The service is setting up ${fileName}: ${lastStatus}${pct === undefined ? '' : ` (${pct}%)`}${said(r)} — ${formatDuration(elapsed())}`,
          {
            setupStatus: lastStatus,
            ...(pct === undefined ? {} : { percent: pct }),
          },
        );
      }
    }
    if (performance.now() >= deadline) return setupTimedOut(lastStatus);
    if (failures > 0) {
      wait = retryAfterMs ?? backoffDelay(failures - 1, retryBaseMs, maxRetryDelayMs);
      log(`Asking again in ${formatDuration(wait)}.`);
    } else {
      wait = retryAfterMs ?? interval;
      interval = Math.min(maxPollIntervalMs, interval * 1.5);
    }
  }
}

function displayName(filePath: string): string {
  const parts = filePath.replace(/\\/g, '/').split('/');
  return parts[parts.length - 1] || filePath;
}
