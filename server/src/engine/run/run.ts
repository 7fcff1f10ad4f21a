import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createMemoryCgroup, type Accounting } from './cgroup';
import {
  defaultCacheDir,
  prepareEnvironment,
  SetupCancelled,
  SetupError,
  type Environment,
  type StepRunner,
} from './environment';
import { judge, verdict } from './judge';
import { checkLimits, DEFAULT_OUTPUT_CAP_BYTES } from './limits';
import { formatDuration } from '../../service/format';
import { runLogged } from './process';
import { findPython, PythonNotFoundError, type PythonInfo } from './python';
import { sandboxSupport, type Sandbox } from './sandbox';
import { secretRun } from './secrets';
import { runnerScriptPath, startSupervisor, type SupervisorReport } from './supervisor';
import { toolEnvironment } from './toolEnvironment';
import { treeSampler } from './treeSampler';
import type { EffectiveLimits, RunError, RunHandle, RunOptions, RunResult } from './types';

/**
 * Runs a smart tool locally the way the service does: finds Python, checks the code compiles, sets up
 * (or reuses) the environment with the tool's requirements, then runs `execute(variables)` under the
 * limits. Never throws: every outcome, including a setup failure or a stop, is a `RunResult`.
 *
 * On Linux with user namespaces and a memory cgroup, set-up and run happen in a sandbox judged from
 * outside (judge.ts); elsewhere the legacy supervisor (runner/tooldef_runner.py) runs the tool, and the
 * result says that the run was not isolated and its memory sampled.
 *
 * Everything that decides where code runs (interpreter, limits, pip arguments, cache) comes from the
 * caller's options; the tool file contributes only its code, requirements and variables.
 */
export function startRun(options: RunOptions): RunHandle {
  const secret = secretRun(options);
  if ('error' in secret) return startPlainRun(options, { kind: 'secret', message: secret.error });
  const handle = startPlainRun(secret.options);
  return { result: handle.result.then(secret.finish), stop: handle.stop };
}

/** `refused`: why the run must not start (it is reported as every other run that never started). */
function startPlainRun(options: RunOptions, refused?: RunError): RunHandle {
  const controller = new AbortController();
  const outer = options.signal;
  let stopTool: (() => void) | undefined;
  const stop = (): void => {
    controller.abort();
    stopTool?.();
  };
  if (outer?.aborted) stop();
  else outer?.addEventListener('abort', stop, { once: true });

  const result = (async (): Promise<RunResult> => {
    const started = Date.now();
    const checked = checkLimits({ timeoutMs: options.timeoutMs, memoryMb: options.memoryMb });
    const limits: EffectiveLimits = 'error' in checked ? { timeoutMs: 0, memoryMb: 0 } : checked;
    const fail = (error: RunError): RunResult => ({
      ok: false,
      error,
      elapsedMs: 0,
      peakMemoryMb: 0,
      notices: [],
      limits,
      setupMs: Date.now() - started,
    });
    if (refused) return fail(refused);
    if ('error' in checked) return fail({ kind: 'limits', message: checked.error });
    const cancelled = (): RunResult => fail({ kind: 'cancelled', message: 'The run was stopped during setup.' });
    const setupFailed = (message: string, output?: string): RunResult =>
      fail({
        kind: 'setup',
        message: `${message} (set-up failed after ${formatDuration(Date.now() - started)})`,
        ...(output ? { output } : {}),
      });

    options.onProgress?.({
      stage: 'python',
      message: options.python ? `Checking ${options.python}…` : 'Looking for Python…',
    });
    let python: PythonInfo;
    try {
      python = await findPython({ explicit: options.python, env: options.env, signal: controller.signal });
    } catch (e) {
      if (controller.signal.aborted) return cancelled();
      return fail({
        kind: 'python',
        message: e instanceof PythonNotFoundError ? e.message : `Cannot check Python: ${String(e)}`,
      });
    }
    if (controller.signal.aborted) return cancelled();

    const scratch = await mkdtemp(join(tmpdir(), 'tooldef-run-'));
    try {
      const home = join(scratch, 'home');
      await mkdir(home);
      const env = toolEnvironment(options.env ?? process.env, home, options.toolEnv);
      const syntax = await syntaxError(python, options.code, env, controller.signal);
      if (syntax) return fail({ kind: 'load', type: 'SyntaxError', message: `tool_code does not compile: ${syntax}` });

      const mechanism = options.mechanism ?? 'auto';
      const sandbox =
        mechanism === 'auto'
          ? sandboxSupport()
          : mechanism === 'bwrap' || mechanism === 'unshare'
            ? sandboxSupport(mechanism)
            : undefined;
      const isolated = sandbox?.available ? sandbox : undefined;
      const memoryBytes = Math.floor(limits.memoryMb * 1024 * 1024);
      let venv: Environment;
      try {
        venv = await prepareEnvironment({
          python,
          requirements: options.requirements,
          pipArgs: options.pipArgs,
          cacheDir: options.cacheDir ?? defaultCacheDir(options.env),
          env,
          signal: controller.signal,
          onProgress: (message) => options.onProgress?.({ stage: 'setup', message }),
          onLog: options.onLog,
          runStep: isolated
            ? sandboxedStep(isolated, scratch, memoryBytes, started + limits.timeoutMs, options.accounting)
            : timedStep(started + limits.timeoutMs),
        });
      } catch (e) {
        if (e instanceof SetupCancelled || controller.signal.aborted) return cancelled();
        if (e instanceof SetupError) return setupFailed(e.message, e.output || undefined);
        return setupFailed(`The environment could not be set up: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (controller.signal.aborted) return cancelled();
      const setupMs = Date.now() - started;
      const accounting = isolated ? await accountingFor(memoryBytes, options.accounting) : undefined;

      options.onProgress?.({ stage: 'run', message: 'Running execute(variables)…' });
      const work = options.cwd ?? join(scratch, 'work');
      if (!options.cwd) await mkdir(work);
      const extra = { setupMs, environment: { dir: venv.dir, cached: venv.cached }, limits };
      if (isolated && accounting) {
        const handle = judge({
          sandbox: isolated,
          accounting: accounting.accounting,
          argv: [venv.python, '-I', '-u', join(dirname(runnerScriptPath()), 'tooldef_host.py')],
          env,
          cwd: work,
          // Every cached environment, not only this one: a .pth left in another would run in the next tool.
          readOnly: [dirname(venv.dir)],
          timeoutMs: limits.timeoutMs,
          memoryBytes,
          job: JSON.stringify({ code: options.code, variables: options.variables }),
          outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
          onStdout: options.onStdout,
          onStderr: options.onStderr,
        });
        stopTool = handle.stop;
        if (controller.signal.aborted) handle.stop();
        const report = verdict(await handle.judged, { timeoutMs: limits.timeoutMs, memoryBytes });
        const memory = accounting.accounting.memory;
        const note = `sandbox: ${isolated.launcher}, ${accounting.how}`;
        return toResult(report, {
          ...extra,
          isolation: 'sandbox',
          memory,
          mechanism: memory === 'measured' ? 'cgroup' : 'poll',
          mechanismNote: note,
        });
      }
      const why = !sandbox ? `the ${mechanism} mechanism was asked for` : !sandbox.available ? sandbox.why : '';
      const supervisor = startSupervisor({
        python: venv.python,
        env,
        job: {
          code: options.code,
          variables: options.variables,
          timeoutSeconds: limits.timeoutMs / 1000,
          memoryBytes,
          outputCapBytes: options.outputCapBytes ?? DEFAULT_OUTPUT_CAP_BYTES,
          mechanism: mechanism === 'poll' || mechanism === 'process-group' ? mechanism : 'auto',
          cwd: work,
        },
        onStdout: options.onStdout,
        onStderr: options.onStderr,
      });
      stopTool = supervisor.stop;
      if (controller.signal.aborted) supervisor.stop();
      const report = await supervisor.report;
      const measured = report.mechanism === 'cgroup' || report.mechanism === 'job-object';
      const note = [`not isolated: ${why}`, report.mechanismNote].filter(Boolean).join('; ');
      return toResult(report, {
        ...extra,
        isolation: 'none',
        memory: measured ? 'measured' : 'sampled',
        mechanismNote: note,
      });
    } finally {
      await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
    }
  })();
  result.finally(() => outer?.removeEventListener('abort', stop)).catch(() => undefined);
  return { result, stop };
}

/** Runs to completion; see `startRun`. */
export function runTool(options: RunOptions): Promise<RunResult> {
  return startRun(options).result;
}

/**
 * CPython's own verdict on the code, before anything is installed: `compile()` runs none of it. The
 * message (with its line) when it does not compile, else undefined.
 */
async function syntaxError(
  python: PythonInfo,
  code: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<string | undefined> {
  const script = [
    'import sys',
    'src = sys.stdin.buffer.read().decode("utf-8")',
    'try:',
    '    compile(src, "tool_code", "exec", dont_inherit=True)',
    'except (SyntaxError, ValueError) as e:',
    '    line = getattr(e, "lineno", None)',
    '    sys.stdout.write("%s: %s%s" % (type(e).__name__, getattr(e, "msg", None) or e, " (line %d)" % line if line else ""))',
  ].join('\n');
  const outcome = await runLogged(python.executable, ['-I', '-c', script], {
    env,
    signal,
    input: code,
    timeoutMs: 30_000,
  });
  return outcome.code === 0 && outcome.output.trim() ? outcome.output.trim() : undefined;
}

/** A memory cgroup where one can be made (measured), else the process tree sampled from outside. */
async function accountingFor(
  memoryBytes: number,
  wanted: RunOptions['accounting'],
): Promise<{ accounting: Accounting; how: string }> {
  const cgroup = wanted === 'sampled' ? { why: 'sampling was asked for' } : await createMemoryCgroup(memoryBytes);
  if (!('why' in cgroup)) return { accounting: cgroup, how: `cgroup v${cgroup.version}` };
  return { accounting: treeSampler(memoryBytes), how: `memory sampled (no memory cgroup: ${cgroup.why})` };
}

/** A set-up step without a sandbox: only the time limit can be enforced on it. */
function timedStep(deadline: number): StepRunner {
  return async (command, args, opts) => {
    const outcome = await runLogged(command, args, { ...opts, timeoutMs: Math.max(0, deadline - Date.now()) });
    return outcome.timedOut ? { ...outcome, limit: 'time' } : outcome;
  };
}

/** A set-up step in the run's sandbox, under the run's memory limit and what is left of its time. */
function sandboxedStep(
  sandbox: Sandbox,
  scratch: string,
  memoryBytes: number,
  deadline: number,
  wanted: RunOptions['accounting'],
): StepRunner {
  return async (command, args, opts) => {
    const { accounting } = await accountingFor(memoryBytes, wanted);
    let output = '';
    const onOutput = (text: string): void => {
      output = (output + text).slice(-256 * 1024);
      opts.onOutput?.(text);
    };
    const handle = judge({
      sandbox,
      accounting,
      argv: [command, ...args],
      env: opts.env,
      cwd: opts.cwd ?? scratch,
      readOnly: [dirname(opts.building)],
      writable: [opts.building],
      timeoutMs: Math.max(1, deadline - Date.now()),
      memoryBytes,
      outputCapBytes: Number.MAX_SAFE_INTEGER,
      onStdout: onOutput,
      onStderr: onOutput,
    });
    const abort = (): void => handle.stop();
    opts.signal?.addEventListener('abort', abort, { once: true });
    const j = await handle.judged;
    opts.signal?.removeEventListener('abort', abort);
    return {
      code: j.status.code,
      signal: j.status.signal,
      output: output + j.launcherErrors,
      cancelled: j.stopped,
      ...(j.limit ? { limit: j.limit } : {}),
    };
  };
}

interface Extra {
  readonly limits: EffectiveLimits;
  readonly setupMs: number;
  readonly environment: { readonly dir: string; readonly cached: boolean };
  readonly isolation: RunResult['isolation'];
  readonly memory: RunResult['memory'];
  readonly mechanism?: RunResult['mechanism'];
  readonly mechanismNote?: string;
}

function toResult(r: SupervisorReport, extra: Extra): RunResult {
  const mechanism = extra.mechanism ?? r.mechanism;
  return {
    ok: r.ok === true && typeof r.result === 'string',
    ...(r.ok ? { result: r.result } : {}),
    ...(r.error
      ? { error: r.error }
      : r.ok
        ? {}
        : { error: { kind: 'runner', message: 'The tool runner reported a failure without a reason.' } }),
    ...(r.limit ? { limit: r.limit } : {}),
    elapsedMs: r.elapsedMs ?? 0,
    peakMemoryMb: Math.round(((r.peakMemoryBytes ?? 0) / (1024 * 1024)) * 10) / 10,
    ...(r.outputTruncated ? { outputTruncated: true } : {}),
    ...(r.outputBytes !== undefined ? { outputBytes: r.outputBytes } : {}),
    ...(r.leftovers?.length ? { leftovers: r.leftovers } : {}),
    ...(r.killed?.length ? { killed: r.killed } : {}),
    ...(mechanism ? { mechanism } : {}),
    ...(extra.mechanismNote ? { mechanismNote: extra.mechanismNote } : {}),
    isolation: extra.isolation,
    memory: extra.memory,
    notices: r.notices ?? [],
    limits: extra.limits,
    setupMs: extra.setupMs,
    environment: extra.environment,
  };
}
