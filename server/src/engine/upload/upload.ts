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

const WORKSPACE_URL: UrlRole = {
  what: 'workspace URL',
  sends: 'your sign-in to the workspace',
  credentialsIn: 'sign in on the page instead',
};

/** Whether a workspace page (where a file is uploaded by hand) may be opened: HTTPS, or loopback HTTP. */
export function checkWorkspaceUrl(text: string): UrlCheck {
  return checkUrl(text, WORKSPACE_URL);
}

/** Whether the upload token may be sent to this upload URL (the CLI asks before reading any file). */
export function checkUploadUrl(text: string): UrlCheck {
  return checkUrl(text, UPLOAD_URL);
}

/**
 * Validates and uploads one definition. Never throws for expected failures: every outcome is a
 * typed `UploadResult`; progress goes to `hooks`. The token appears in the Authorization header only.
 */
export async function uploadDefinition(options: UploadOptions, hooks: UploadHooks = {}): Promise<UploadResult> {
  const redact = secretRedactor(options.token, 'token');
  try {
    return await new UploadRun(options, hooks, redact).run();
  } catch (e) {
    // Not an expected failure (a bug): rethrown, but never with the token in it.
    const error = new Error(redact(e instanceof Error ? e.message : String(e)));
    if (e instanceof Error && e.stack) error.stack = redact(e.stack);
    throw error;
  }
}

/** One upload: its settings, what it has done so far (for the result), and its three steps. */
class UploadRun {
  private readonly started = performance.now();
  private readonly limits: { [K in keyof typeof UPLOAD_DEFAULTS]: number };
  private readonly size: number;
  private readonly authorization: string;
  private readonly userAgent: string;
  private attempts = 0;
  private polls = 0;
  private httpStatus: number | undefined;
  private fileName: string | undefined;
  private validation: ValidationSummary | undefined;
  private forced = false;

  constructor(
    private readonly options: UploadOptions,
    private readonly hooks: UploadHooks,
    private readonly redact: (text: string) => string,
  ) {
    const setting = (key: keyof typeof UPLOAD_DEFAULTS): number => {
      const v = options[key];
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : UPLOAD_DEFAULTS[key];
    };
    const pollIntervalMs = setting('pollIntervalMs');
    this.limits = {
      timeoutMs: Math.max(1, setting('timeoutMs')),
      setupTimeoutMs: setting('setupTimeoutMs'),
      maxRetries: Math.floor(setting('maxRetries')),
      retryBaseMs: setting('retryBaseMs'),
      maxRetryDelayMs: setting('maxRetryDelayMs'),
      pollIntervalMs,
      maxPollIntervalMs: Math.max(pollIntervalMs, setting('maxPollIntervalMs')),
    };
    this.size = options.bytes.byteLength;
    this.authorization = `Bearer ${(options.token ?? '').trim()}`;
    this.userAgent = options.userAgent ?? 'tooldef';
  }

  async run(): Promise<UploadResult> {
    // 1. Everything that needs no network: the URL, the token, the file.
    const target = checkUploadUrl(this.options.url);
    if (!target.ok) return this.fail(target.kind, target.message);
    const token = (this.options.token ?? '').trim();
    if (!token) return this.fail('auth', 'No upload token is set.');
    if (!/^[\x21-\x7e]+$/.test(token))
      return this.fail(
        'auth',
        'The upload token contains spaces or characters that cannot be sent in an HTTP header; set it again.',
      );
    if (this.options.signal?.aborted) return this.cancelled();
    const refused = await this.validate();
    if (refused) return refused;
    if (this.options.signal?.aborted) return this.cancelled();
    // 2. The upload, retried on 429 and 5xx. 3. Its reply, and the service's setup.
    const reply = await this.post(target.url);
    return 'ok' in reply ? reply : this.afterUpload(target.url, reply);
  }

  /** The definition through the injected validation: a failure when it has errors and is not forced. */
  private async validate(): Promise<UploadFailure | undefined> {
    const { options } = this;
    this.progress('validating', `Validating ${options.filePath ? displayName(options.filePath) : 'the definition'}…`);
    let v: UploadValidation;
    try {
      v = await options.validate(options.bytes);
    } catch (e) {
      return this.fail(
        'validation',
        `Not uploaded: the definition could not be validated (${e instanceof Error ? e.message : String(e)}).`,
      );
    }
    this.fileName = v.fileName;
    this.validation = {
      kind: v.kind,
      errors: v.errors,
      warnings: v.warnings,
      diagnostics: v.diagnostics.map((d) =>
        typeof d.message === 'string' ? { ...d, message: this.redact(d.message) } : d,
      ),
      problems: v.problems.map(this.redact),
    };
    this.forced = v.errors > 0;
    if (!v.errors) return undefined;
    const errors = `${v.errors} error${v.errors === 1 ? '' : 's'}`;
    if (!options.force)
      return this.fail(
        'validation',
        `Not uploaded: the definition has ${errors}. Fix ${v.errors === 1 ? 'it' : 'them'} first, or upload anyway (force).`,
      );
    this.log(`Validation found ${errors}; uploading anyway (forced).`);
    return undefined;
  }

  /** POSTs the file, retrying on 429 and 5xx as the service asks (Retry-After) or with backoff. */
  private async post(url: URL): Promise<Reply | UploadFailure> {
    const { maxRetries, maxRetryDelayMs, retryBaseMs, timeoutMs } = this.limits;
    const { fileName, size } = this;
    // One file part named "file" with the original bytes (a BOM, CRLF line ends, anything); fetch writes
    // the multipart body, its boundary and its length.
    const form = new FormData();
    form.append('file', new Blob([this.options.bytes], { type: 'application/json' }), fileName);
    const headers = { authorization: this.authorization, accept: 'application/json', 'user-agent': this.userAgent };
    const total = maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      this.attempts = attempt;
      this.progress(
        'uploading',
        attempt === 1
          ? `Uploading ${fileName} (${formatBytes(size)}) to ${displayUrl(url)}…`
          : `Uploading ${fileName}, attempt ${attempt} of ${total}…`,
        { attempt },
      );
      const sent = await this.send('POST', url, headers, form);
      if (!sent.ok) {
        if (sent.kind === 'cancelled') return this.cancelled();
        if (sent.kind === 'timeout')
          return this.fail('timeout', `The service did not answer the upload within ${formatDuration(timeoutMs)}.`);
        return this.fail('network', `Could not upload to ${url.host}: ${sent.message}.`);
      }
      const r = sent.reply;
      this.httpStatus = r.status;
      this.log(`POST ${displayUrl(url)} → HTTP ${r.status}`);
      if (r.status >= 200 && r.status < 300) return r;
      if (r.status === 401 || r.status === 403)
        return this.fail(
          'auth',
          `The service refused the upload token (HTTP ${r.status}${this.said(r)}). Set a valid upload token.`,
        );
      if (r.status === 413)
        return this.fail(
          'too-large',
          `The file is too large for the service (${formatBytes(size)}; HTTP 413${this.said(r)}).`,
        );
      if (isRedirect(r.status))
        return this.fail(
          'bad-reply',
          `The service redirected the upload (HTTP ${r.status}${redirectTarget(r, url)}); set the upload URL to the final address.`,
        );
      if (r.status !== 429 && r.status < 500)
        return this.fail('rejected', `The service rejected the upload (HTTP ${r.status}${this.said(r)}).`);
      const kind = r.status === 429 ? 'rate-limited' : 'server';
      const busy =
        r.status === 429
          ? `The service is limiting uploads (HTTP 429${this.said(r)})`
          : `The service failed (HTTP ${r.status}${this.said(r)})`;
      const retryAfterMs = parseRetryAfter(r.headers);
      if (retryAfterMs !== undefined && retryAfterMs > maxRetryDelayMs)
        return this.fail(kind, `${busy} and asks to retry in ${formatDuration(retryAfterMs)}; try again later.`, {
          retryAfterMs,
        });
      if (attempt > maxRetries)
        return this.fail(
          kind,
          `${busy}; gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}.`,
          retryAfterMs === undefined ? {} : { retryAfterMs },
        );
      const wait = retryAfterMs ?? backoffDelay(attempt - 1, retryBaseMs, maxRetryDelayMs);
      this.progress('uploading', `${busy}; retrying in ${formatDuration(wait)} (attempt ${attempt + 1} of ${total})…`, {
        attempt,
      });
      if (!(await sleep(wait, this.options.signal))) return this.cancelled();
    }
  }

  /** The upload's reply: done, or a statusUrl to follow through the service's setup. */
  private async afterUpload(url: URL, reply: Reply): Promise<UploadResult> {
    const { fileName } = this;
    const json = jsonObject(reply.text);
    if (!json && reply.text.trim())
      this.log('The upload reply is not a JSON object; taking the upload as accepted, without setup tracking.');
    const replyStatus = typeof json?.status === 'string' ? json.status : undefined;
    if (replyStatus === 'failed')
      return this.fail('setup-failed', `The service's setup of ${fileName} failed${this.said(reply)}.`);
    if (replyStatus === 'ready') return this.succeed('ready', `Uploaded ${fileName}; the service reports it ready.`);
    const statusUrlValue = json?.statusUrl;
    if (statusUrlValue === undefined || statusUrlValue === null || statusUrlValue === '')
      return this.succeed('uploaded', `Uploaded ${fileName} (HTTP ${reply.status}).`);
    if (typeof statusUrlValue !== 'string')
      return this.fail(
        'bad-reply',
        `Uploaded ${fileName}, but the reply's statusUrl is not a string; the setup cannot be followed.`,
      );
    const statusCheck = checkUrl(statusUrlValue, STATUS_URL, url);
    if (!statusCheck.ok)
      return this.fail('bad-reply', `Uploaded ${fileName}, but the setup cannot be followed: ${statusCheck.message}`);
    const statusUrl = statusCheck.url;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (statusUrl.origin === url.origin) headers.authorization = this.authorization;
    else this.log(`The statusUrl is on another origin (${statusUrl.origin}); it is polled without the upload token.`);
    return this.followSetup(statusUrl, headers, parseRetryAfter(reply.headers) ?? 0);
  }

  /** Polls the statusUrl until the setup is ready or failed, the setup timeout passes, or polls keep failing. */
  private async followSetup(statusUrl: URL, headers: Record<string, string>, firstWait: number): Promise<UploadResult> {
    const { fileName } = this;
    const { maxRetries, retryBaseMs, maxRetryDelayMs, maxPollIntervalMs, setupTimeoutMs } = this.limits;
    const signal = this.options.signal;
    const deadline = performance.now() + setupTimeoutMs;
    let wait = firstWait;
    let interval = this.limits.pollIntervalMs;
    let failures = 0;
    let lastStatus: string | undefined;
    this.progress('setup', `Uploaded ${fileName}; waiting for the service's setup…`);
    for (;;) {
      if (wait > 0 && !(await sleep(Math.min(wait, Math.max(0, deadline - performance.now())), signal)))
        return this.cancelled();
      if (signal?.aborted) return this.cancelled();
      this.polls++;
      const sent = await this.send('GET', statusUrl, headers);
      let retryAfterMs: number | undefined;
      if (!sent.ok) {
        if (sent.kind === 'cancelled') return this.cancelled();
        failures++;
        this.log(`GET ${displayUrl(statusUrl)} failed: ${sent.message}`);
        if (failures > maxRetries)
          return this.fail(
            sent.kind,
            `Uploaded ${fileName}, but asking the service for its setup status failed ${failures} times in a row (${sent.message}).`,
          );
      } else {
        const r = sent.reply;
        this.httpStatus = r.status;
        this.log(`GET ${displayUrl(statusUrl)} → HTTP ${r.status}`);
        retryAfterMs = parseRetryAfter(r.headers);
        if (r.status === 401 || r.status === 403)
          return this.fail(
            'auth',
            `The service refused the upload token when asked for the setup status (HTTP ${r.status}${this.said(r)}). Set a valid upload token.`,
          );
        if (r.status === 429 || r.status >= 500) {
          failures++;
          if (failures > maxRetries)
            return this.fail(
              r.status === 429 ? 'rate-limited' : 'server',
              `Uploaded ${fileName}, but the service's status URL kept failing (HTTP ${r.status}${this.said(r)}).`,
            );
        } else if (r.status < 200 || r.status >= 300) {
          return this.fail(
            'bad-reply',
            `Uploaded ${fileName}, but the service's status URL answered HTTP ${r.status}${this.said(r)}.`,
          );
        } else {
          const st = jsonObject(r.text);
          const status = st?.status;
          if (typeof status !== 'string' || !status)
            return this.fail(
              'bad-reply',
              `Uploaded ${fileName}, but the service's status reply is not JSON with a "status".`,
            );
          failures = 0;
          lastStatus = oneLine(status, 60);
          if (status === 'ready')
            return this.succeed(
              'ready',
              `Uploaded ${fileName}; the service's setup finished: ready${this.said(r)}.`,
              statusUrl,
            );
          if (status === 'failed')
            return this.fail('setup-failed', `The service's setup of ${fileName} failed${this.said(r)}.`);
          const pct =
            typeof st.progress === 'number' && Number.isFinite(st.progress)
              ? Math.max(0, Math.min(100, Math.round(st.progress)))
              : undefined;
          this.progress(
            'setup',
            `The service is setting up ${fileName}: ${lastStatus}${pct === undefined ? '' : ` (${pct}%)`}${this.said(r)} — ${formatDuration(this.elapsed())}`,
            { setupStatus: lastStatus, ...(pct === undefined ? {} : { percent: pct }) },
          );
        }
      }
      if (performance.now() >= deadline)
        return this.fail(
          'timeout',
          `The service's setup of ${fileName} did not finish within ${formatDuration(setupTimeoutMs)}${lastStatus ? ` (last status: ${lastStatus})` : ''}; it may still finish later.`,
        );
      if (failures > 0) {
        wait = retryAfterMs ?? backoffDelay(failures - 1, retryBaseMs, maxRetryDelayMs);
        this.log(`Asking again in ${formatDuration(wait)}.`);
      } else {
        wait = retryAfterMs ?? interval;
        interval = Math.min(maxPollIntervalMs, interval * 1.5);
      }
    }
  }

  /** One request under the per-request timeout; the reply read up to MAX_REPLY_BYTES. */
  private async send(method: 'GET' | 'POST', to: URL, headers: Record<string, string>, body?: FormData): Promise<Sent> {
    const userSignal = this.options.signal;
    const { timeoutMs } = this.limits;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = userSignal ? AbortSignal.any([userSignal, timeout]) : timeout;
    try {
      const res = await (this.options.fetch ?? fetch)(to, { method, headers, body, signal, redirect: 'manual' });
      const text = await readLimited(res, MAX_REPLY_BYTES);
      return { ok: true, reply: { status: res.status, headers: res.headers, text } };
    } catch (e) {
      if (userSignal?.aborted) return { ok: false, kind: 'cancelled', message: 'cancelled' };
      if (timeout.aborted)
        return { ok: false, kind: 'timeout', message: `no complete reply within ${formatDuration(timeoutMs)}` };
      return { ok: false, kind: 'network', message: networkReason(e) };
    }
  }

  /** The service's own explanation in a reply, as `: <message>` for a sentence, or `''`. Redacted before it is
   * clipped: a token cut in half by the clipping would no longer be found. */
  private said(reply: Reply): string {
    const m = serviceMessage(this.redact(reply.text), reply.headers.get('content-type') ?? '');
    return m ? `: ${m}` : '';
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.started);
  }

  private log(line: string): void {
    try {
      this.hooks.onLog?.(this.redact(line));
    } catch {
      // a broken hook must not break the upload
    }
  }

  private progress(
    phase: UploadPhase,
    message: string,
    extra: Partial<Omit<UploadProgress, 'phase' | 'message' | 'elapsedMs'>> = {},
  ): void {
    const p: UploadProgress = { phase, message: this.redact(message), ...extra, elapsedMs: this.elapsed() };
    this.log(`[${phase}] ${message}`);
    try {
      this.hooks.onProgress?.(p);
    } catch {
      // as above
    }
  }

  private fail(kind: UploadFailureKind, message: string, extra: { retryAfterMs?: number } = {}): UploadFailure {
    this.progress('done', message);
    return {
      ok: false,
      kind,
      message: this.redact(message),
      httpStatus: this.httpStatus,
      attempts: this.attempts,
      polls: this.polls,
      elapsedMs: this.elapsed(),
      fileName: this.fileName,
      size: this.size,
      validation: this.validation,
      ...extra,
    };
  }

  private cancelled(): UploadFailure {
    return this.fail('cancelled', 'Upload cancelled.');
  }

  private succeed(status: 'ready' | 'uploaded', message: string, statusUrl?: URL): UploadSuccess {
    this.progress('done', message);
    return {
      ok: true,
      status,
      message: this.redact(message),
      httpStatus: this.httpStatus!,
      attempts: this.attempts,
      polls: this.polls,
      elapsedMs: this.elapsed(),
      fileName: this.fileName!,
      size: this.size,
      validation: this.validation,
      forced: this.forced,
      ...(statusUrl ? { statusUrl: this.redact(displayUrl(statusUrl)) } : {}),
    };
  }
}

function displayName(filePath: string): string {
  const parts = filePath.replace(/\\/g, '/').split('/');
  return parts[parts.length - 1] || filePath;
}
