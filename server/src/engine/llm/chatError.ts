// The errors of an LLM request, by kind, and what a server reports it used.

export interface ChatUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
  readonly [key: string]: unknown;
}

export type ChatErrorKind =
  | 'invalid-url'
  | 'insecure-url'
  | 'no-model'
  | 'auth'
  | 'model-not-found'
  | 'rate-limit'
  | 'server'
  | 'http'
  | 'timeout'
  | 'cancelled'
  | 'network'
  | 'protocol';

export class ChatError extends Error {
  override readonly name = 'ChatError';
  readonly kind: ChatErrorKind;
  /** HTTP status, for errors the server answered with. */
  readonly status: number | undefined;
  /** The server's own error message (redacted). */
  readonly serverMessage: string | undefined;
  /** From `Retry-After` (or `retry-after-ms`) on a 429/503. */
  readonly retryAfterMs: number | undefined;
  /** Text streamed before the error. */
  readonly partialText: string;

  constructor(
    kind: ChatErrorKind,
    message: string,
    extra: { status?: number; serverMessage?: string; retryAfterMs?: number; partialText?: string } = {},
  ) {
    super(message);
    this.kind = kind;
    this.status = extra.status;
    this.serverMessage = extra.serverMessage;
    this.retryAfterMs = extra.retryAfterMs;
    this.partialText = extra.partialText ?? '';
  }
}
