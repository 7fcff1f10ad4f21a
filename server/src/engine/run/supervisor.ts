import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { killTree } from './process';
import type { LimitMechanism, RunError, RunProcess } from './types';

export const RUNNER_FILE = 'tooldef_runner.py';
const PROTOCOL = 1;
/** After asking the runner to stop, how long it gets to kill the tree and report before it is killed itself. */
const STOP_GRACE_MS = 5000;

/**
 * The runner script, found relative to this bundle: `dist/*.js` → `dist/../runner/`, the test bundles
 * in `out/test/**` → the repository's `runner/`. Searching upwards covers every layout.
 */
export function runnerScriptPath(from: string = __dirname): string {
  for (let dir = from, i = 0; i < 6; i++) {
    for (const candidate of [join(dir, 'runner', RUNNER_FILE), join(dir, RUNNER_FILE)]) {
      if (existsSync(candidate)) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(
    `The tool runner (runner/${RUNNER_FILE}) is missing from this installation (searched upwards from ${from}).`,
  );
}

/** What the runner writes to the job's result file. */
export interface SupervisorReport {
  readonly ok: boolean;
  readonly result?: string;
  readonly error?: RunError;
  readonly limit?: 'time' | 'memory';
  readonly elapsedMs: number;
  readonly peakMemoryBytes: number;
  readonly mechanism?: LimitMechanism;
  readonly mechanismNote?: string;
  readonly outputBytes?: number;
  readonly outputTruncated?: boolean;
  readonly leftovers?: RunProcess[];
  readonly killed?: RunProcess[];
  readonly notices?: string[];
}

export interface SupervisorJob {
  readonly code: string;
  readonly variables: Readonly<Record<string, string>>;
  readonly timeoutSeconds: number;
  readonly memoryBytes: number;
  readonly outputCapBytes: number;
  readonly mechanism: 'auto' | 'poll' | 'process-group';
  readonly cwd?: string;
}

export interface SupervisorOptions {
  /** The environment's interpreter. */
  readonly python: string;
  readonly job: SupervisorJob;
  readonly env?: NodeJS.ProcessEnv;
  readonly runnerPath?: string;
  readonly onStdout?: (text: string) => void;
  readonly onStderr?: (text: string) => void;
}

export interface SupervisorHandle {
  readonly report: Promise<SupervisorReport>;
  stop(): void;
}

/** Starts the runner on a job; the report says how the tool's run ended (the runner never throws for the tool). */
export function startSupervisor(opts: SupervisorOptions): SupervisorHandle {
  let stopRequested = false;
  let stopNow: (() => void) | undefined;
  const report = (async (): Promise<SupervisorReport> => {
    const dir = await fs.mkdtemp(join(tmpdir(), 'tooldef-run-'));
    try {
      const work = opts.job.cwd ?? join(dir, 'work');
      if (!opts.job.cwd) await fs.mkdir(work);
      const jobPath = join(dir, 'job.json');
      const resultPath = join(dir, 'result.json');
      const job = {
        protocol: PROTOCOL,
        code: opts.job.code,
        variables: opts.job.variables,
        timeoutSeconds: opts.job.timeoutSeconds,
        memoryBytes: opts.job.memoryBytes,
        outputCapBytes: opts.job.outputCapBytes,
        mechanism: opts.job.mechanism,
        cwd: work,
        resultPath,
        childResultPath: join(dir, 'child-result.json'),
        stdinControl: true,
      };
      await fs.writeFile(jobPath, JSON.stringify(job), { mode: 0o600 });
      const exit = await new Promise<{
        code: number | null;
        signal: NodeJS.Signals | null;
        error?: string;
        stderrTail: string;
      }>((resolve) => {
        let stderrTail = '';
        let error: string | undefined;
        // -S: no `site`, so no .pth file of the environment runs in the supervisor (its child, the host, has them).
        const child = spawn(opts.python, ['-I', '-S', opts.runnerPath ?? runnerScriptPath(), jobPath], {
          cwd: work,
          env: opts.env ?? process.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          // Its own process group: a Ctrl-C in the terminal reaches the caller, which stops the run cleanly.
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
        child.on('error', (e) => {
          error = e.message;
        });
        child.stdin!.on('error', () => undefined); // the runner may be gone already
        child.stdout!.setEncoding('utf8').on('data', (t: string) => opts.onStdout?.(t));
        child.stderr!.setEncoding('utf8').on('data', (t: string) => {
          stderrTail = (stderrTail + t).slice(-8192);
          opts.onStderr?.(t);
        });
        let timer: NodeJS.Timeout | undefined;
        stopNow = () => {
          // The runner kills the tool's tree and reports; if it does not within the grace time, kill it.
          child.stdin!.end('stop\n');
          timer ??= setTimeout(() => killTree(child), STOP_GRACE_MS);
        };
        if (stopRequested) stopNow();
        child.on('close', (code, signal) => {
          if (timer) clearTimeout(timer);
          resolve({ code, signal, error, stderrTail });
        });
      });
      let text: string;
      try {
        text = await fs.readFile(resultPath, 'utf8');
      } catch {
        const why = exit.error
          ? `cannot start ${opts.python} (${exit.error})`
          : `it ended (${exit.code === null ? `signal ${exit.signal}` : `status ${exit.code}`}) without a result${exit.stderrTail.trim() ? `:\n${exit.stderrTail.trim().split('\n').slice(-10).join('\n')}` : ''}`;
        return failure(
          stopRequested ? 'cancelled' : 'runner',
          stopRequested ? 'The run was stopped.' : `The tool runner failed: ${why}`,
        );
      }
      return JSON.parse(text) as SupervisorReport;
    } finally {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  })().catch((e: unknown) =>
    failure('runner', `The tool runner failed: ${e instanceof Error ? e.message : String(e)}`),
  );
  return {
    report,
    stop() {
      stopRequested = true;
      stopNow?.();
    },
  };
}

function failure(kind: RunError['kind'], message: string): SupervisorReport {
  return { ok: false, error: { kind, message }, elapsedMs: 0, peakMemoryBytes: 0 };
}
