/**
 * The limits of one request: an inactivity timeout (the longest wait for the response and between two
 * pieces of its body), an optional total timeout, and the caller's cancellation. Whichever comes first
 * aborts `signal` and is kept as `stopped`.
 */
export class RequestClock {
  private readonly controller = new AbortController();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly total: ReturnType<typeof setTimeout> | undefined;
  private readonly onCancel = (): void => this.stop('cancelled');
  /** Why the request was stopped, once it was. */
  stopped: 'timeout' | 'total-timeout' | 'cancelled' | undefined;

  constructor(
    private readonly idleMs: number,
    totalMs: number | undefined,
    private readonly caller: AbortSignal | undefined,
  ) {
    if (totalMs) this.total = setTimeout(() => this.stop('total-timeout'), totalMs);
    caller?.addEventListener('abort', this.onCancel, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Something arrived: the inactivity timeout starts again. */
  arm(): void {
    clearTimeout(this.idle);
    if (this.idleMs > 0) this.idle = setTimeout(() => this.stop('timeout'), this.idleMs);
  }

  /** Stops the timers and releases the connection if it is still open. */
  dispose(): void {
    clearTimeout(this.idle);
    clearTimeout(this.total);
    this.caller?.removeEventListener('abort', this.onCancel);
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private stop(why: NonNullable<RequestClock['stopped']>): void {
    this.stopped ??= why;
    this.controller.abort();
  }
}
