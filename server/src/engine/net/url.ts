/**
 * Which URLs a secret (the upload token, an API key) and the user's content may be sent to: HTTPS
 * anywhere, plain HTTP only to loopback addresses, never with credentials in the URL. Decided from the
 * URL text alone, before any DNS lookup or connection; the upload and the LLM client both ask here.
 */

export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly kind: 'invalid-url' | 'insecure-url'; readonly message: string };

/**
 * A loopback host: `localhost`, an IPv4 address in 127.0.0.0/8, `::1` or an IPv4-mapped `::ffff:127.x.y.z`.
 * `hostname` is a WHATWG `URL.hostname` (lower case, IPv4 forms like `127.1` or `0x7f.1` already
 * normalised to dotted quads, IPv6 in brackets and compressed). Names ending in `.localhost` and
 * `localhost.` are not accepted: whether they reach loopback depends on the resolver.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost') return true;
  if (h.startsWith('[') && h.endsWith(']')) {
    const v6 = h.slice(1, -1);
    if (v6 === '::1') return true;
    const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(v6); // ::ffff:127.0.0.1 serialises as ::ffff:7f00:1
    return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return v4 !== null && Number(v4[1]) === 127;
}

/** The URL as shown to users: no credentials, no query (it may hold keys), no fragment. */
export function displayUrl(url: URL | string): string {
  try {
    const u = typeof url === 'string' ? new URL(url) : url;
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/** The start of an unparsable URL text for a message, without its query or fragment (they may hold keys). */
function shownText(text: string): string {
  const cut = text.trim().replace(/[?#].*$/s, '');
  return JSON.stringify(cut.length > 120 ? `${cut.slice(0, 120)}…` : cut);
}

/** Where a URL is used, for messages: what it is called and what would be sent over it. */
export interface UrlRole {
  /** "upload URL", "service's statusUrl", "LLM endpoint base URL". */
  readonly what: string;
  /** "the upload token", "the prompt and API key". */
  readonly sends: string;
  /** What to do instead of putting credentials in the URL. */
  readonly credentialsIn: string;
}

/** Checks a URL before anything is sent to it; a relative `text` is resolved against `base`. */
export function checkUrl(text: string, role: UrlRole, base?: URL): UrlCheck {
  const { what } = role;
  let url: URL;
  try {
    url = base ? new URL(text.trim(), base) : new URL(text.trim());
  } catch {
    return { ok: false, kind: 'invalid-url', message: `The ${what} is not a valid absolute URL: ${shownText(text)}.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, kind: 'invalid-url', message: `The ${what} must start with https:// (not ${url.protocol}//).` };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      kind: 'invalid-url',
      message: `The ${what} must not contain a user name or password: ${role.credentialsIn}.`,
    };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      kind: 'insecure-url',
      message: `Refusing to send ${role.sends} over plain HTTP to ${url.hostname}: use an https:// URL (http:// is allowed only for loopback hosts: localhost, 127.0.0.0/8, ::1).`,
    };
  }
  url.hash = '';
  return { ok: true, url };
}
