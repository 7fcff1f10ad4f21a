import { promises as fs } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { isTestsFileName, testsPathFor } from '../service/tests/paths';
import { cacheDir } from '../engine/run/environment';
import { MIN_MEMORY_MB, MIN_TIMEOUT_MS, SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS } from '../engine/run/limits';
import { jsonReport, junitReport, shownPath, textReport, totals } from '../engine/tests/report';
import { DEFAULT_JOBS, runTests, type LlmEndpoint } from '../engine/tests/runTests';
import { isInvalid, loadSuite, type Suite } from '../engine/tests/suite';
import { discover } from './discover';
import { oneOf, parseCommandArgs, positiveNumber, untilInterrupted, UsageError, withUsage, type Io } from './io';
import { RUNNER_OPTIONS, runnerOptions, secretsFromEnv, type RunnerOptions } from './runnerOptions';

export const TEST_USAGE = `Usage: tooldef test [--format text|json|junit] [--update-golden] [--filter REGEX] [--jobs N]
                   [--timeout SECONDS] [--memory MB] [--python PATH] [--find-links DIR]... [--no-index]
                   [--endpoint URL] [--model NAME] [PATH...]

Runs the saved cases of tool definitions: each <name>.tests.json beside a <name>.json under the PATHs
(default: the current directory). Smart tools run with the same runner, limits and set-up as
tooldef run (one set-up per distinct requirements); LLM tools send their filled prompt to an
OpenAI-compatible endpoint.

  --format FORMAT     text (default: each case, failures with a diff), json, or junit (JUnit XML)
  --update-golden     write each golden case's output as its approved output (<name>.golden/<case>.txt)
  --filter REGEX      run only the cases whose "tool name › case name" matches
  --jobs N            cases run at once (default ${DEFAULT_JOBS})
  --timeout SECONDS   each case's wall-clock limit, ${MIN_TIMEOUT_MS / 1000} to ${SERVICE_TIMEOUT_MS / 1000} (the default); max_seconds lowers it
  --memory MB         each case's memory limit, ${MIN_MEMORY_MB} to ${SERVICE_MEMORY_MB} (the default); max_memory_mb lowers it
  --python PATH       the interpreter for smart tools (default python3, then python, on PATH)
  --find-links DIR    also look for requirements in DIR (repeatable); --no-index: only there
  --endpoint URL      the chat-completions base URL for LLM tools (or $TOOLDEF_LLM_BASE_URL); the API key
                      comes from $TOOLDEF_LLM_API_KEY only
  --model NAME        the endpoint's model for every LLM case (default: the file's first model_version id)

Exit status: 0 every case passed; 1 a case failed or could not run; 2 bad usage, an invalid tests
file, a path or folder that cannot be read, or no tests file found.
`;

interface TestCliOptions extends RunnerOptions {
  readonly paths: string[];
  readonly format: 'text' | 'json' | 'junit';
  readonly updateGolden: boolean;
  readonly filter?: RegExp;
  readonly jobs: number;
  readonly endpoint?: string;
  readonly model?: string;
}

function readOptions(args: readonly string[], io: Io): TestCliOptions {
  const { values, positionals } = parseCommandArgs(args, {
    format: { type: 'string' },
    'update-golden': { type: 'boolean' },
    filter: { type: 'string' },
    jobs: { type: 'string' },
    ...RUNNER_OPTIONS,
    endpoint: { type: 'string' },
    model: { type: 'string' },
  });
  let filter: RegExp | undefined;
  if (values.filter !== undefined)
    try {
      filter = new RegExp(values.filter, 'u');
    } catch (e) {
      throw new UsageError(`--filter is not a regular expression: ${(e as Error).message}.`);
    }
  const jobs = values.jobs === undefined ? DEFAULT_JOBS : positiveNumber('--jobs', values.jobs, 'cases');
  if (!Number.isInteger(jobs)) throw new UsageError(`--jobs must be a whole number, not "${values.jobs}".`);
  return {
    ...runnerOptions(values, io.cwd),
    paths: positionals.length ? positionals : ['.'],
    format: values.format === undefined ? 'text' : oneOf('--format', values.format, ['text', 'json', 'junit']),
    updateGolden: values['update-golden'] ?? false,
    filter,
    jobs,
    endpoint: values.endpoint ?? ((io.env ?? process.env).TOOLDEF_LLM_BASE_URL || undefined),
    model: values.model,
  };
}

/** `tooldef test …` */
export function testCommand(args: readonly string[], io: Io): Promise<number> {
  return withUsage(io, TEST_USAGE, args, () => test(readOptions(args, io), io));
}

/**
 * The tests files under the paths, searched as `tooldef check` searches them: a directory for every
 * tests file in it, a definition named on the command line for its own; and what could not be read.
 */
async function testsFiles(paths: readonly string[], cwd: string): Promise<{ files: string[]; unreadable: string[] }> {
  const { targets, unreadable } = await discover(paths.map((p) => (isAbsolute(p) ? p : resolve(cwd, p))));
  const found = new Set<string>();
  for (const { path, explicit } of targets) {
    if (isTestsFileName(basename(path))) found.add(path);
    else if (explicit) {
      const tests = testsPathFor(path);
      if (!(await fs.stat(tests).catch(() => undefined)))
        throw new UsageError(`${shownPath(cwd, path)} has no tests file: create ${basename(tests)} beside it.`);
      found.add(tests);
    }
  }
  return { files: [...found].sort(), unreadable };
}

async function test(opts: TestCliOptions, io: Io): Promise<number> {
  const say = (text: string): void => {
    io.stderr.write(`tooldef: ${text}\n`);
  };
  const { files, unreadable } = await testsFiles(opts.paths, io.cwd);
  // A folder left out would leave its cases out of the verdict.
  for (const u of unreadable) say(`cannot read ${shownPath(io.cwd, u)}: no such file or not readable.`);
  if (unreadable.length) return 2;
  if (!files.length) {
    say(`no tests file (<name>.tests.json beside <name>.json) under ${opts.paths.join(', ')}.`);
    return 2;
  }
  const suites = await Promise.all(files.map(loadSuite));
  for (const s of suites)
    for (const p of [...s.problems].sort(
      (a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column,
    ))
      io.stderr.write(`${shownPath(io.cwd, p.file)}:${p.line}:${p.column}: ${p.severity} ${p.code}: ${p.message}\n`);
  const invalid = suites.filter(isInvalid);
  if (invalid.length) {
    say(`${invalid.length} tests file${invalid.length === 1 ? ' is' : 's are'} invalid: fix the errors above.`);
    return 2;
  }
  const env = io.env ?? process.env;
  const secrets = secretsFromEnv(
    [...new Set(suites.flatMap((s) => (s.tool?.kind === 'smart' ? s.tool.tool.secrets : [])))],
    env,
  );
  if ('missing' in secrets) {
    say(secrets.missing);
    return 2;
  }
  const llm = llmEndpoint(opts, env, suites);
  const controller = new AbortController();
  const { value: results, interrupted } = await untilInterrupted(
    runTests(suites, {
      jobs: opts.jobs,
      filter: opts.filter,
      updateGolden: opts.updateGolden,
      signal: controller.signal,
      run: {
        python: opts.python,
        pipArgs: opts.pipArgs,
        cacheDir: cacheDir(env),
        env,
        timeoutMs: opts.timeoutMs,
        memoryMb: opts.memoryMb,
        secrets: secrets.values,
      },
      llm,
      llmMissing: 'LLM tool cases need an endpoint: give --endpoint URL or set TOOLDEF_LLM_BASE_URL.',
    }),
    () => controller.abort(),
  );
  if (!results.length) {
    say(opts.filter ? `no case matches --filter ${opts.filter.source}.` : 'the tests files hold no case.');
    return 2;
  }
  const report = { text: textReport, json: jsonReport, junit: junitReport }[opts.format];
  io.stdout.write(report(results, io.cwd));
  if (interrupted) return 130;
  const t = totals(results);
  return t.failed || t.broken ? 1 : 0;
}

function llmEndpoint(opts: TestCliOptions, env: NodeJS.ProcessEnv, suites: readonly Suite[]): LlmEndpoint | undefined {
  if (!opts.endpoint || !suites.some((s) => s.tool?.kind === 'llm')) return undefined;
  return {
    baseUrl: opts.endpoint,
    apiKey: env.TOOLDEF_LLM_API_KEY || undefined,
    model: opts.model,
  };
}
