/** Waiting between attempts: Retry-After, exponential backoff with jitter, abortable sleeps. */

const HTTP_DATE = /^[A-Za-z]{3,9},? .*\d{1,2}:\d{2}:\d{2}/; // IMF-fixdate, RFC 850 and asctime all look like this
const SECONDS = /^\d+(\.\d+)?$/;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * Milliseconds to wait as a reply asks: `retry-after-ms` (sent by OpenAI-compatible endpoints) or
 * `Retry-After` as delay-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`, 0 when
 * already past); at most a year. `undefined` when absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && SECONDS.test(ms)) return Math.min(Math.round(Number(ms)), YEAR_MS);
  const v = headers.get('retry-after')?.trim();
  if (!v) return undefined;
  if (SECONDS.test(v)) return Math.min(Math.round(Number(v) * 1000), YEAR_MS);
  if (HTTP_DATE.test(v)) {
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return Math.min(Math.max(0, t - now), YEAR_MS);
  }
  return undefined;
}

/**
 * The wait before retry number `retry` (0-based): `base·2^retry` capped at `max`, with "equal jitter"
 * (a random point in its upper half), so concurrent clients spread out but never retry at once.
 */
export function backoffDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(retry, 30));
  return Math.round(exp / 2 + (random() * exp) / 2);
}

/** Resolves after `ms`, or early with `false` when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (completed: boolean): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(completed);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(() => done(true), Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
