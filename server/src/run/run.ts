import { defaultCacheDir, prepareEnvironment, SetupCancelled, SetupError, type Environment } from './environment';
import { clampLimits, DEFAULT_OUTPUT_CAP_BYTES } from './limits';
import { findPython, PythonNotFoundError, type PythonInfo } from './python';
import { startSupervisor, type SupervisorHandle, type SupervisorReport } from './supervisor';
import type { RunError, RunHandle, RunOptions, RunResult } from './types';

/**
 * Runs a smart tool locally the way the service does: finds Python, sets up (or reuses) the
 * environment with the tool's requirements, then runs `execute(variables)` in the runner under the
 * limits. Never throws: every outcome, including a setup failure or a stop, is a `RunResult`.
 *
 * Everything that decides where code runs (interpreter, limits, pip arguments, cache) comes from the
 * caller's options; the tool file contributes only its code, requirements and variables.
 */
export function startRun(options: RunOptions): RunHandle {
  const controller = new AbortController();
  const outer = options.signal;
  let supervisor: SupervisorHandle | undefined;
  const stop = (): void => {
    controller.abort();
    supervisor?.stop();
  };
  if (outer?.aborted) stop();
  else outer?.addEventListener('abort', stop, { once: true });

  const result = (async (): Promise<RunResult> => {
    const started = Date.now();
    const limits = clampLimits({ timeoutMs: options.timeoutMs, memoryMb: options.memoryMb });
    const effective = { timeoutMs: limits.timeoutMs, memoryMb: limits.memoryMb };
    const notices = [...limits.notices];
    const fail = (error: RunError, extra: Partial<RunResult> = {}): RunResult => ({
      ok: false,
      error,
      elapsedMs: 0,
      peakMemoryMb: 0,
      notices,
      limits: effective,
      setupMs: Date.now() - started,
      ...extra,
    });
    const cancelled = (): RunResult => fail({ kind: 'cancelled', message: 'The run was stopped during setup.' });

    options.onProgress?.({ stage: 'python', message: options.python ? `Checking ${options.python}…` : 'Looking for Python…' });
    let python: PythonInfo;
    try {
      python = await findPython({ explicit: options.python, env: options.env, signal: controller.signal });
    } catch (e) {
      if (controller.signal.aborted) return cancelled();
      return fail({ kind: 'python', message: e instanceof PythonNotFoundError ? e.message : `Cannot check Python: ${String(e)}` });
    }
    if (controller.signal.aborted) return cancelled();

    let env: Environment;
    try {
      env = await prepareEnvironment({
        python,
        requirements: options.requirements,
        pipArgs: options.pipArgs,
        cacheDir: options.cacheDir ?? defaultCacheDir(options.env),
        env: options.env,
        signal: controller.signal,
        onProgress: (message) => options.onProgress?.({ stage: 'setup', message }),
        onLog: options.onLog,
      });
    } catch (e) {
      if (e instanceof SetupCancelled || controller.signal.aborted) return cancelled();
      if (e instanceof SetupError) return fail({ kind: 'setup', message: e.message, output: e.output || undefined });
      return fail({ kind: 'setup', message: `The environment could not be set up: ${e instanceof Error ? e.message : String(e)}` });
    }
    if (controller.signal.aborted) return cancelled();
    const setupMs = Date.now() - started;

    options.onProgress?.({ stage: 'run', message: 'Running execute(variables)…' });
    supervisor = startSupervisor({
      python: env.python,
      env: options.env,
      job: {
        code: options.code,
        variables: options.variables,
        timeoutSeconds: limits.timeoutMs / 1000,
        memoryBytes: Math.floor(limits.memoryMb * 1024 * 1024),
        outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
        mechanism: options.mechanism ?? 'auto',
        cwd: options.cwd,
      },
      onStdout: options.onStdout,
      onStderr: options.onStderr,
    });
    if (controller.signal.aborted) supervisor.stop();
    const report = await supervisor.report;
    return toResult(report, { notices, limits: effective, setupMs, environment: { dir: env.dir, cached: env.cached } });
  })();
  result.finally(() => outer?.removeEventListener('abort', stop)).catch(() => undefined);
  return { result, stop };
}

/** Runs to completion; see `startRun`. */
export function runTool(options: RunOptions): Promise<RunResult> {
  return startRun(options).result;
}

function toResult(r: SupervisorReport, extra: Pick<RunResult, 'notices' | 'limits' | 'setupMs' | 'environment'>): RunResult {
  const out: RunResult = {
    ok: r.ok === true && typeof r.result === 'string',
    ...(r.ok ? { result: r.result } : {}),
    ...(r.error ? { error: r.error } : r.ok ? {} : { error: { kind: 'runner', message: 'The tool runner reported a failure without a reason.' } }),
    ...(r.limit ? { limit: r.limit } : {}),
    elapsedMs: r.elapsedMs ?? 0,
    peakMemoryMb: Math.round(((r.peakMemoryBytes ?? 0) / (1024 * 1024)) * 10) / 10,
    ...(r.outputTruncated ? { outputTruncated: true } : {}),
    ...(r.outputBytes !== undefined ? { outputBytes: r.outputBytes } : {}),
    ...(r.leftovers?.length ? { leftovers: r.leftovers } : {}),
    ...(r.killed?.length ? { killed: r.killed } : {}),
    ...(r.mechanism ? { mechanism: r.mechanism } : {}),
    ...(r.mechanismNote ? { mechanismNote: r.mechanismNote } : {}),
    notices: [...extra.notices, ...(r.notices ?? [])],
    limits: extra.limits,
    setupMs: extra.setupMs,
    environment: extra.environment,
  };
  return out;
}
