import { promises as fs, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import type { Accounting } from './cgroup';
import { formatDuration, formatMemory } from '../../service/format';
import { chainDepth, signalOfStatus, spawnSandboxed, type Sandbox } from './sandbox';
import { constants } from 'node:os';
import type { SupervisorReport } from './supervisor';
import type { RunError, RunProcess } from './types';

/**
 * The judge of a sandboxed process: it runs outside the sandbox, where nothing of the run can reach it,
 * and decides the verdict from what only it and the kernel know: its own clock, the process's exit
 * status, the cgroup's OOM counter and peak. What the process writes (its output, the tool's outcome
 * line) is passed on as data and never read as a verdict.
 */
export interface JudgeOptions {
  readonly sandbox: Sandbox;
  /** A cgroup (its `procsFile` is joined before anything runs), or a sampler attached to the launcher. */
  readonly accounting: Accounting & { readonly procsFile?: string; attach?(launcher: number): void };
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly readOnly: readonly string[];
  readonly writable?: readonly string[];
  readonly timeoutMs: number;
  readonly memoryBytes: number;
  /** Written to stdin as one line; stdin then stays open until the outcome arrives (the host's protocol). */
  readonly job?: string;
  readonly outputCapBytes: number;
  readonly onStdout?: (text: string) => void;
  readonly onStderr?: (text: string) => void;
}

export interface Judged {
  readonly status: { readonly code: number | null; readonly signal: NodeJS.Signals | null };
  readonly limit?: 'time' | 'memory';
  readonly stopped: boolean;
  readonly elapsedMs: number;
  readonly peakBytes: number;
  /** The outcome line (fd 3), when one arrived whole. */
  readonly outcome?: string;
  readonly outcomeTooLarge: boolean;
  /** Processes other than the command itself still running when the outcome arrived. */
  readonly leftovers: RunProcess[];
  /** Processes killed by the judge (limit, stop). */
  readonly killed: RunProcess[];
  readonly outputBytes: number;
  readonly outputTruncated: boolean;
  /** What the launcher itself wrote (a sandbox that failed to start). */
  readonly launcherErrors: string;
  /** The launcher could not be started at all. */
  readonly spawnError?: string;
}

export const RESULT_CAP_BYTES = 64 * 1024 * 1024;
const NOTICE = '[tooldef] ';

export interface JudgeHandle {
  readonly judged: Promise<Judged>;
  stop(): void;
}

export function judge(opts: JudgeOptions): JudgeHandle {
  const child = spawnSandboxed(
    {
      argv: opts.argv,
      env: opts.env,
      cwd: opts.cwd,
      readOnly: opts.readOnly,
      writable: opts.writable,
      joinCgroup: opts.accounting.procsFile,
    },
    opts.sandbox,
  );
  const accounting = opts.accounting;
  if (child.pid !== undefined) accounting.attach?.(child.pid);
  const started = performance.now();
  let limit: 'time' | 'memory' | undefined;
  let stopped = false;
  let killed: RunProcess[] = [];
  let leftovers: RunProcess[] = [];
  let ending: Promise<void> | undefined;
  const endRun = (): Promise<void> => {
    ending ??= (async () => {
      killed = await describe((await accounting.pids()).filter((p) => p !== child.pid));
      await accounting.killAll();
    })();
    return ending;
  };

  let outputBytes = 0;
  let forwarded = 0;
  let truncated = false;
  const pump = (stream: Readable | null, sink: ((text: string) => void) | undefined): void => {
    const decoder = new StringDecoder('utf8');
    stream?.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      const room = opts.outputCapBytes - forwarded;
      if (room > 0) {
        const part = chunk.subarray(0, room);
        forwarded += part.length;
        sink?.(decoder.write(part));
      }
      if (chunk.length > room && !truncated) {
        truncated = true;
        opts.onStderr?.(
          `\n${NOTICE}The tool's output passed ${formatMemory(opts.outputCapBytes / 2 ** 20)}; the rest is not shown (the run goes on).\n`,
        );
      }
    });
  };
  pump(child.stdout, opts.onStdout);
  pump(child.stdio[4] as Readable, opts.onStderr);
  let launcherErrors = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (launcherErrors = (launcherErrors + t).slice(-8192)));

  let outcome: string | undefined;
  let outcomeTooLarge = false;
  const chunks: Buffer[] = [];
  let outcomeBytes = 0;
  (child.stdio[3] as Readable | null)?.on('data', (chunk: Buffer) => {
    if (outcome !== undefined || outcomeTooLarge) return;
    // Only the new chunk is searched, and the line joined once: a 64 MB result arrives in a thousand chunks.
    const nl = chunk.indexOf(10);
    chunks.push(nl >= 0 ? chunk.subarray(0, nl) : chunk);
    outcomeBytes += chunk.length;
    if (nl >= 0) {
      outcome = Buffer.concat(chunks).toString('utf8');
      void (async () => {
        try {
          // A sampler's last chance to see the tool's processes alive; a cgroup's peak is kept anyway.
          await accounting.peakBytes();
          const own = new Set(launchChain(child.pid, chainDepth(opts.sandbox.launcher)));
          leftovers = await describe((await accounting.pids()).filter((p) => !own.has(p)));
        } finally {
          child.stdin?.end(); // the host waits for this to end the run: it must come whatever failed above
        }
      })();
    } else if (outcomeBytes > RESULT_CAP_BYTES) {
      outcomeTooLarge = true;
      void endRun();
    }
  });
  child.stdin?.on('error', () => undefined);
  let spawnError: string | undefined;
  if (opts.job !== undefined) child.stdin?.write(`${opts.job}\n`);
  else child.stdin?.end();

  const timer = setTimeout(() => {
    limit ??= 'time';
    void endRun();
  }, opts.timeoutMs);
  // Measured: the OOM counter only grows, so checking it often decides how soon a breach ends the run, never
  // whether it is one. Sampled: this is the sampling.
  const memoryWatch = setInterval(() => {
    void accounting.overLimit().then((over) => {
      if (over && !limit) {
        limit = 'memory';
        void endRun();
      }
    });
  }, 100);

  const judged = new Promise<Judged>((resolve) => {
    child.on('error', (e) => {
      spawnError = e.message;
      // A launcher that never started has no exit to wait for.
      if (child.pid === undefined) child.emit('exit', null, null);
    });
    child.on('exit', (exitCode, exitSignal) => {
      const translated = signalOfStatus(opts.sandbox.launcher, exitCode);
      const signal = translated === undefined ? exitSignal : signalName(translated);
      const code = translated === undefined ? exitCode : null;
      const elapsedMs = Math.round(performance.now() - started);
      clearTimeout(timer);
      clearInterval(memoryWatch);
      void (async () => {
        // The peak first: a sampler reads it from processes that are still there.
        const peakBytes = (await accounting.peakBytes()) ?? 0;
        await (ending ?? accounting.killAll());
        if (!limit && !stopped && accounting.memory === 'measured' && (await accounting.overLimit())) limit = 'memory';
        await streamsClosed(child.stdio);
        await accounting.remove();
        resolve({
          status: { code, signal },
          limit,
          stopped,
          elapsedMs,
          peakBytes,
          outcome,
          outcomeTooLarge,
          leftovers,
          killed: limit || stopped ? killed : [],
          outputBytes,
          outputTruncated: truncated,
          launcherErrors,
          ...(spawnError ? { spawnError } : {}),
        });
      })();
    });
  });
  return {
    judged,
    stop() {
      if (limit || stopped) return;
      stopped = true;
      void endRun();
    },
  };
}

/** The launcher and the first-born process of each of the `depth` levels below it, down to the command. */
function launchChain(pid: number | undefined, depth: number): number[] {
  const chain: number[] = [];
  for (let at = pid, level = 0; at !== undefined && level <= depth; level++) {
    chain.push(at);
    try {
      const first = readFileSync(`/proc/${at}/task/${at}/children`, 'utf8').split(' ').find(Boolean);
      at = first === undefined ? undefined : Number(first);
    } catch {
      at = undefined;
    }
  }
  return chain;
}

function signalName(n: number): NodeJS.Signals | null {
  return (Object.entries(constants.signals).find(([, v]) => v === n)?.[0] as NodeJS.Signals | undefined) ?? null;
}

/** Processes as the tool sees them: the pid inside its namespace (the last of NSpid), and the command. */
async function describe(pids: readonly number[]): Promise<RunProcess[]> {
  return Promise.all(
    pids.map(async (pid) => {
      const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      const inner = Number(/^NSpid:.*?(\d+)\s*$/m.exec(status)?.[1] ?? pid);
      return { pid: inner, command: cmdline.split('\0').filter(Boolean).join(' ').slice(0, 200) || '?' };
    }),
  );
}

/** Waits (boundedly) for the pipes to drain: everything that wrote to them is dead by now. */
async function streamsClosed(stdio: readonly (unknown | null)[]): Promise<void> {
  const waits = stdio
    .filter((s): s is Readable => !!s && typeof (s as Readable).on === 'function' && (s as Readable).readable)
    .map((s) => new Promise<void>((r) => s.once('close', () => r()).once('end', () => r())));
  await Promise.race([Promise.all(waits), new Promise((r) => setTimeout(r, 2000))]);
}

/** The report of a tool run from the judged host (the sandbox's counterpart of the legacy runner's result file). */
export function verdict(j: Judged, limits: { timeoutMs: number; memoryBytes: number }): SupervisorReport {
  const base = {
    elapsedMs: j.elapsedMs,
    peakMemoryBytes: j.peakBytes,
    outputBytes: j.outputBytes,
    outputTruncated: j.outputTruncated,
    notices: [] as string[],
  };
  if (j.outputTruncated) {
    base.notices.push(
      `The tool wrote ${formatMemory(j.outputBytes / 2 ** 20)} of output; only the first part was shown.`,
    );
  }
  const fail = (error: RunError, extra: Partial<SupervisorReport> = {}): SupervisorReport => ({
    ...base,
    ok: false,
    error,
    ...extra,
  });
  const killed = j.killed.length ? { killed: j.killed } : {};
  if (j.limit === 'time') {
    return fail(
      {
        kind: 'limit',
        message: `The tool was stopped: it ran longer than the time limit of ${formatDuration(limits.timeoutMs)}.`,
      },
      { limit: 'time', ...killed },
    );
  }
  if (j.limit === 'memory') {
    const message = `The tool was stopped after ${formatDuration(j.elapsedMs)}: its processes used more than the memory limit of ${formatMemory(limits.memoryBytes / 2 ** 20)}.`;
    return fail({ kind: 'limit', message }, { limit: 'memory', ...killed });
  }
  if (j.stopped)
    return fail({ kind: 'cancelled', message: `The run was stopped after ${formatDuration(j.elapsedMs)}.` }, killed);
  if (j.outcomeTooLarge) {
    return fail({
      kind: 'result-too-large',
      message: `execute returned a string larger than ${formatMemory(RESULT_CAP_BYTES / 2 ** 20)}; the local runner does not pass it back.`,
    });
  }
  if (j.leftovers.length) {
    const n = j.leftovers.length;
    const list = j.leftovers
      .slice(0, 10)
      .map((p) => `pid ${p.pid} (${p.command.slice(0, 80)})`)
      .join(', ');
    base.notices.push(
      `${n} process${n === 1 ? '' : 'es'} the tool started ${n === 1 ? 'was' : 'were'} still running after execute ended and ${n === 1 ? 'was' : 'were'} killed: ${list}.`,
    );
  }
  const leftovers = j.leftovers.length ? { leftovers: j.leftovers } : {};
  if (j.spawnError) return fail({ kind: 'runner', message: `The sandbox could not be started: ${j.spawnError}` });
  // Only a host that reported and then ended by itself with status 0 finished the run; anything else is an exit.
  if (j.status.code !== 0) {
    if (j.launcherErrors.trim() && j.outcome === undefined && j.status.code === 1) {
      return fail({
        kind: 'runner',
        message: `The sandbox could not start the tool: ${j.launcherErrors.trim().split('\n').slice(-3).join(' ')}`,
      });
    }
    return fail(exitError(j.status), leftovers);
  }
  let outcome: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = j.outcome === undefined ? undefined : JSON.parse(j.outcome);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) outcome = parsed as Record<string, unknown>;
  } catch {
    // not the host's line: below
  }
  if (!outcome) {
    const error: RunError =
      j.outcome === undefined
        ? exitError(j.status)
        : { kind: 'runner', message: 'The outcome channel held something other than an outcome.' };
    return fail(error, leftovers);
  }
  if (outcome.ok === true && typeof outcome.result === 'string')
    return { ...base, ok: true, result: outcome.result, ...leftovers };
  const { ok: _ok, kind, ...rest } = outcome;
  void _ok;
  return fail(
    {
      ...(rest as Partial<RunError>),
      kind: (typeof kind === 'string' ? kind : 'runner') as RunError['kind'],
      message: typeof rest.message === 'string' ? rest.message : 'The tool failed.',
    },
    leftovers,
  );
}

function exitError(status: Judged['status']): RunError {
  if (status.signal)
    return {
      kind: 'exited',
      signal: status.signal,
      message: `The tool's process was killed by ${status.signal} before execute returned.`,
    };
  return {
    kind: 'exited',
    exitCode: status.code ?? undefined,
    message: `The tool exited with status ${status.code} before execute returned (os._exit or a crash?).`,
  };
}
