import { promises as fs } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../service/languageService';
import { resolveInputs, runnableTool } from '../engine/run/definition';
import { cacheDir, defaultCacheDir } from '../engine/run/environment';
import { runSummary } from '../engine/run/summary';
import { MIN_MEMORY_MB, MIN_TIMEOUT_MS, SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS } from '../engine/run/limits';
import { startRun } from '../engine/run/run';
import type { RunResult } from '../engine/run/types';
import { parseCommandArgs, untilInterrupted, UsageError, withUsage, type Io } from './io';
import { RUNNER_OPTIONS, runnerOptions, secretsFromEnv, type RunnerOptions } from './runnerOptions';

export const RUN_USAGE = `Usage: tooldef run [--input NAME=VALUE]... [--defaults] [--timeout SECONDS] [--memory MB]
                  [--python PATH] [--find-links DIR]... [--no-index] [--json] [--quiet] FILE

Runs a smart tool's execute(variables) locally, like the service: its requirements are installed
into a virtual environment cached per distinct requirements text, then execute runs with stdin
closed, under a wall-clock and a memory limit for its whole process tree.

  --input NAME=VALUE  the value of variable NAME (once per variable)
  --defaults          variables not given with --input take their declared default ("" if none);
                      without it every variable must be given, and missing ones are an error
  --timeout SECONDS   wall-clock limit of set-up and run, ${MIN_TIMEOUT_MS / 1000} to ${SERVICE_TIMEOUT_MS / 1000} (15 min, the default)
  --memory MB         memory limit summed over all processes of the tool, ${MIN_MEMORY_MB} to ${SERVICE_MEMORY_MB}
                      (10 GB, the default); a value outside the range is an error
  --python PATH       the interpreter (default python3, then python, on PATH); Python 3.8 or later
  --find-links DIR    also look for requirements in DIR (pip --find-links; repeatable)
  --no-index          do not use a package index (pip --no-index), e.g. with --find-links
  --json              print {ok, result, error, limit, elapsedMs, peakMemoryMb, ...} instead of the string
  --quiet             no progress or pip output (the tool's own output is still shown)

Output: stdout holds only the returned string (with a newline added if it has none) or the --json
object. The tool's own stdout and stderr (at most 10 MB of it), pip's output, progress and every
failure go to stderr. Environments are cached in $TOOLDEF_CACHE_DIR, else ${defaultCacheDir()}.

A string literal of tool_code holding <NAME> (A-Z, 0-9, _), e.g. "<API_KEY>", is a secret reference:
its value comes from the environment variable TOOLDEF_SECRET_<NAME>, is written only into the copy
that runs, and is shown as <NAME> in everything printed.

Exit status: 0 execute returned a string; 1 the tool failed (an exception, a value that is not a str,
sys.exit/os._exit, input(), requirements that cannot be installed); 2 bad usage (options, a file that
cannot run: not valid JSON, not a smart tool, no tool_code; missing or unknown inputs; a secret
without its TOOLDEF_SECRET_<NAME>; no usable Python); 3 a limit was hit and the tool was killed; 130 stopped with Ctrl-C.
`;

interface RunCliOptions extends RunnerOptions {
  file: string;
  inputs: Map<string, string>;
  defaults: boolean;
  json: boolean;
  quiet: boolean;
}

function readOptions(args: readonly string[], cwd: string): RunCliOptions {
  const { values, positionals } = parseCommandArgs(args, {
    ...RUNNER_OPTIONS,
    input: { type: 'string', multiple: true },
    defaults: { type: 'boolean' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  });
  if (positionals.length > 1) throw new UsageError('Name one tool file to run.');
  if (positionals.length === 0) throw new UsageError('Name the smart tool file to run.');
  const inputs = new Map<string, string>();
  for (const v of values.input ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UsageError(`--input takes NAME=VALUE, not "${v}".`);
    const name = v.slice(0, eq);
    if (inputs.has(name)) throw new UsageError(`--input ${name} is given twice.`);
    inputs.set(name, v.slice(eq + 1));
  }
  return {
    ...runnerOptions(values, cwd),
    file: positionals[0],
    inputs,
    defaults: values.defaults ?? false,
    json: values.json ?? false,
    quiet: values.quiet ?? false,
  };
}

/** `tooldef run …` */
export function runCommand(args: readonly string[], io: Io): Promise<number> {
  return withUsage(io, RUN_USAGE, args, () => run(readOptions(args, io.cwd), io));
}

async function run(opts: RunCliOptions, io: Io): Promise<number> {
  const say = (text: string): void => {
    io.stderr.write(`tooldef: ${text}\n`);
  };
  const path = isAbsolute(opts.file) ? opts.file : resolve(io.cwd, opts.file);
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch {
    say(`cannot read ${opts.file}: no such file or not readable.`);
    return 2;
  }
  const model = getLanguageService().parse(TextDocument.create(pathToFileURL(path).toString(), 'json', 1, text));
  const runnable = runnableTool(model);
  if ('problems' in runnable) {
    for (const p of runnable.problems) say(`${opts.file}: ${p}`);
    return 2;
  }
  const tool = runnable.tool;
  const inputs = resolveInputs(tool, opts.inputs, opts.defaults);
  const names = tool.inputs.map((i) => i.name);
  const list = (xs: readonly string[]): string => xs.map((x) => `"${x}"`).join(', ');
  if (inputs.unknown.length) {
    say(
      `${opts.file} has no variable ${list(inputs.unknown)}; its variables are ${names.length ? list(names) : '(none)'}.`,
    );
    return 2;
  }
  if (inputs.missing.length) {
    say(
      `no value for ${list(inputs.missing)}: give --input NAME=VALUE for each, or --defaults to use the declared defaults.`,
    );
    return 2;
  }
  if (inputs.badDefaults.length) {
    say(
      `the default of ${list(inputs.badDefaults)} is not a string (see tooldef check): give --input NAME=VALUE for it.`,
    );
    return 2;
  }

  const env = io.env ?? process.env;
  const secrets = secretsFromEnv(tool.secrets, env);
  if ('missing' in secrets) {
    say(secrets.missing);
    return 2;
  }
  const handle = startRun({
    secrets: secrets.values,
    code: tool.code,
    requirements: tool.requirements,
    variables: inputs.variables,
    python: opts.python,
    timeoutMs: opts.timeoutMs,
    memoryMb: opts.memoryMb,
    pipArgs: opts.pipArgs,
    cacheDir: cacheDir(env),
    env,
    onProgress: opts.quiet ? undefined : (p) => say(p.message),
    onLog: opts.quiet ? undefined : (t) => io.stderr.write(t),
    onStdout: (t) => io.stderr.write(t),
    onStderr: (t) => io.stderr.write(t),
  });
  const { value: result, interrupted } = await untilInterrupted(handle.result, () => handle.stop());

  for (const n of result.notices) say(`note: ${n}`);
  if (opts.json) {
    const { ok, error, limit, elapsedMs, peakMemoryMb, outputTruncated, leftovers, notices, isolation, memory } =
      result;
    const json = {
      ok,
      result: result.ok ? result.result : null,
      error: error ?? null,
      limit: limit ?? null,
      elapsedMs,
      peakMemoryMb,
      outputTruncated: outputTruncated ?? false,
      leftovers: leftovers ?? [],
      notices,
      isolation: isolation ?? null,
      memory: memory ?? null,
    };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else if (result.ok) {
    const s = result.result!;
    io.stdout.write(s.endsWith('\n') ? s : `${s}\n`);
  } else {
    const e = result.error!;
    if (e.traceback) io.stderr.write(e.traceback.endsWith('\n') ? e.traceback : `${e.traceback}\n`);
    if (e.output && opts.quiet) io.stderr.write(e.output.endsWith('\n') ? e.output : `${e.output}\n`);
    say(e.message);
  }
  const summary = runSummary('the tool', result);
  if (summary) say(summary);
  return exitCode(result, interrupted);
}

/**
 * 0 a string was returned; 3 a limit was hit; 2 no usable Python or bad limits; 130 interrupted; 1 any
 * other failure.
 */
export function exitCode(result: RunResult, interrupted = false): number {
  if (result.ok) return 0;
  if (result.error?.kind === 'cancelled' && interrupted) return 130;
  if (result.limit || result.error?.kind === 'limit') return 3;
  if (result.error?.kind === 'python' || result.error?.kind === 'limits') return 2;
  return 1;
}
