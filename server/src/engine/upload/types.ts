/** The upload API shared by the CLI (`tooldef upload`) and the VS Code client (Upload Tool Definition). */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Kind } from '../../service/kind';

export interface UploadOptions {
  /** Where to POST: https://…, or http://… only for a loopback host. */
  readonly url: string;
  /** Sent as `Authorization: Bearer <token>`; never logged, never part of a message or a result. */
  readonly token: string;
  /** The file's original bytes, uploaded verbatim (BOM and line ends included). */
  readonly bytes: Uint8Array;
  /** The file's path or URI: the fallback upload name (when it has no tool name) and the validation document's URI. */
  readonly filePath?: string;
  /** Send even when validation finds errors (the user insisted). Default false. */
  readonly force?: boolean;
  /**
   * The gate before anything is sent: the same validation the editor and `tooldef check` run, with
   * their settings and kind (`validateForUpload` for the CLI; the client asks the language server).
   */
  readonly validate: (bytes: Uint8Array) => UploadValidation | Promise<UploadValidation>;
  /** Limit for each HTTP request, reply body included. Default 30 000. */
  readonly timeoutMs?: number;
  /** Overall limit for the service's setup (polling `statusUrl`). Default 600 000 (10 min). */
  readonly setupTimeoutMs?: number;
  /** Retries after 429/5xx for the upload, and after consecutive failed polls. Default 4. */
  readonly maxRetries?: number;
  /** First backoff step; doubles per retry, with jitter. Default 1 000. */
  readonly retryBaseMs?: number;
  /** Longest wait before a retry. A `Retry-After` longer than this ends the upload instead. Default 60 000. */
  readonly maxRetryDelayMs?: number;
  /** First wait between status polls; grows ×1.5 per poll. Default 2 000. */
  readonly pollIntervalMs?: number;
  /** Longest wait between status polls (unless the service's `Retry-After` asks for more). Default 10 000. */
  readonly maxPollIntervalMs?: number;
  /** Aborts the upload (the user cancelled): the result is `{ ok: false, kind: 'cancelled' }`. */
  readonly signal?: AbortSignal;
  /** `User-Agent` header. Default `tooldef`. */
  readonly userAgent?: string;
  /** The fetch to use (tests, proxies). Default the global fetch. */
  readonly fetch?: typeof fetch;
}

export interface UploadValidation {
  /** The kind recognised (or forced); `null` when the file is not a tool definition. */
  readonly kind: Kind | null;
  /** `tool_name` / `prompt_name`, when the file has one. */
  readonly toolName: string | undefined;
  /** The name the file is uploaded under: `<tool name>.json`, sanitised. */
  readonly fileName: string;
  /** The language service's diagnostics (every severity). */
  readonly diagnostics: readonly Diagnostic[];
  /** Problems outside the rule catalogue that also block an upload (not UTF-8, not a definition). */
  readonly problems: readonly string[];
  /** Error diagnostics plus `problems`. */
  readonly errors: number;
  readonly warnings: number;
}

export type UploadPhase = 'validating' | 'uploading' | 'setup' | 'done';

export interface UploadProgress {
  readonly phase: UploadPhase;
  /** One line for a progress notification or stderr. Never contains the token. */
  readonly message: string;
  /** Upload attempt (1-based), in the uploading phase. */
  readonly attempt?: number;
  /** The service's `status` while polling. */
  readonly setupStatus?: string;
  /** The service's `progress` (0–100) while polling, when it reports one. */
  readonly percent?: number;
  readonly elapsedMs: number;
}

export interface UploadHooks {
  /** Phase changes and progress; each message is one user-facing line. */
  onProgress?(progress: UploadProgress): void;
  /** Details for a log / output channel (requests, replies' status codes, waits). Never contains the token. */
  onLog?(line: string): void;
}

/** What validation found; `diagnostics` are the language service's, for the Problems view or the CLI. */
export interface ValidationSummary {
  readonly kind: Kind | null;
  readonly errors: number;
  readonly warnings: number;
  readonly diagnostics: readonly Diagnostic[];
  /** Blocking problems outside the rule catalogue (not UTF-8, not a definition). */
  readonly problems: readonly string[];
}

interface Common {
  readonly message: string;
  /** HTTP status of the last reply (upload or poll), when there was one. */
  readonly httpStatus?: number;
  /** Upload (POST) attempts made. */
  readonly attempts: number;
  /** Status polls made. */
  readonly polls: number;
  readonly elapsedMs: number;
  /** The name the file was (or would have been) uploaded under. */
  readonly fileName?: string;
  /** The file's size in bytes. */
  readonly size: number;
  readonly validation?: ValidationSummary;
}

export interface UploadSuccess extends Common {
  readonly ok: true;
  /** `ready`: the service's setup finished; `uploaded`: accepted, and the reply gave no `statusUrl` to follow. */
  readonly status: 'ready' | 'uploaded';
  readonly httpStatus: number;
  readonly fileName: string;
  /** The (absolute) status URL that was polled, without its query. */
  readonly statusUrl?: string;
  /** Sent despite validation errors. */
  readonly forced: boolean;
}

export type UploadFailureKind =
  /** Validation found errors and `force` was not set; nothing was sent. */
  | 'validation'
  /** 401/403, or no usable token: ask the user for a token (Set Upload Token / TOOLDEF_TOKEN). */
  | 'auth'
  /** 413. */
  | 'too-large'
  /** 429 after every retry, or a Retry-After beyond `maxRetryDelayMs`. */
  | 'rate-limited'
  /** 5xx after every retry. */
  | 'server'
  /** Another 4xx: the service refused the file (its message is in `message`). */
  | 'rejected'
  /** A request got no complete reply within `timeoutMs`, or the setup exceeded `setupTimeoutMs`. */
  | 'timeout'
  /** No connection, reset, DNS failure… */
  | 'network'
  /** The URL is not a usable http(s) URL (or carries credentials); nothing was sent. */
  | 'invalid-url'
  /** Plain http:// to a non-loopback host; nothing was sent, no connection was made. */
  | 'insecure-url'
  /** The service reported `status: "failed"`. */
  | 'setup-failed'
  /** The signal aborted. */
  | 'cancelled'
  /**
   * A reply that breaks the contract: a redirect, a status reply that is not JSON with a `status`, an
   * unusable `statusUrl`.
   */
  | 'bad-reply';

export interface UploadFailure extends Common {
  readonly ok: false;
  readonly kind: UploadFailureKind;
  /** For `rate-limited`: how long the service asked to wait. */
  readonly retryAfterMs?: number;
}

export type UploadResult = UploadSuccess | UploadFailure;
