/**
 * The one network policy of the engine, used by the upload and the LLM client: which URLs may carry a
 * secret, redirects refused, Retry-After and backoff, bounded reply bodies, the service's own message,
 * network failures in words, and secrets redacted from everything shown.
 */
export { checkUrl, displayUrl, isLoopbackHost, type UrlCheck, type UrlRole } from './url';
export { backoffDelay, parseRetryAfter, sleep } from './retry';
export { isRedirect, jsonObject, networkReason, oneLine, readLimited, redirectTarget, serviceMessage } from './reply';
export { ReferenceRedactor, secretRedactor } from './redact';
