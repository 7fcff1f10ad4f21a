import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they came; the tail when longer than `keepBytes`. */
  readonly output: string;
  readonly cancelled: boolean;
  /** Killed because it ran past `timeoutMs`. */
  readonly timedOut?: boolean;
  /** The process could not be started at all (ENOENT …). */
  readonly spawnError?: string;
}

/**
 * Runs a helper process (venv, pip) to completion, streaming its output to `onOutput`. On abort the
 * whole process tree is killed (POSIX: its own process group; Windows: taskkill /T).
 */
export function runLogged(
  command: string,
  args: readonly string[],
  opts: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    onOutput?: (text: string) => void;
    keepBytes?: number;
    /** Written to stdin, which is then closed (default: no stdin). */
    input?: string;
    timeoutMs?: number;
  } = {},
): Promise<ProcessOutcome> {
  const keep = opts.keepBytes ?? 256 * 1024;
  return new Promise((resolve) => {
    if (opts.signal?.aborted) {
      resolve({ code: null, signal: null, output: '', cancelled: true });
      return;
    }
    let output = '';
    let cancelled = false;
    let child: ChildProcess;
    try {
      child = spawn(command, args, {
        cwd: opts.cwd,
        env: opts.env ?? process.env,
        stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (e) {
      resolve({
        code: null,
        signal: null,
        output: '',
        cancelled: false,
        spawnError: e instanceof Error ? e.message : String(e),
      });
      return;
    }
    const onData = (text: string): void => {
      output += text;
      if (output.length > keep * 2) output = output.slice(-keep);
      opts.onOutput?.(text);
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    const abort = (): void => {
      cancelled = true;
      killTree(child);
    };
    opts.signal?.addEventListener('abort', abort, { once: true });
    let timedOut = false;
    const timer =
      opts.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            killTree(child);
          }, opts.timeoutMs);
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(opts.input);
    }
    let spawnError: string | undefined;
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      opts.signal?.removeEventListener('abort', abort);
      clearTimeout(timer);
      resolve({
        code,
        signal,
        output: output.length > keep ? output.slice(-keep) : output,
        cancelled,
        timedOut,
        spawnError,
      });
    });
  });
}

/** Kills a process started by `runLogged` or the runner, with everything in its process group. */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () =>
      child.kill(),
    );
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
