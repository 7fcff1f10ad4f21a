// Running the cases of tests files: smart tools with the same runner, limits and set-up as `tooldef run`,
// LLM tools against a chat endpoint; each outcome judged, approved outputs read and (when asked) written.
import { promises as fs } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { goldenFileName } from '../../service/tests/paths';
import type { Expectations, InputValue } from '../../service/tests/testsFile';
import { ChatError, defaultValues, fillPrompt, promptMessages, streamChat, valueText, type LlmTool } from '../llm';
import { resolveInputs, type RunnableTool } from '../run/definition';
import { normaliseRequirements } from '../run/environment';
import { MIN_MEMORY_MB, MIN_TIMEOUT_MS, SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS } from '../run/limits';
import { startRun } from '../run/run';
import type { RunOptions, RunResult } from '../run/types';
import { judgeCase, type CaseFailure, type CaseOutcome } from './expect';
import type { ExpectedOutput } from '../llm/prompt';
import type { OutputViolation } from '../llm/expectedOutput';
import type { Suite } from './suite';
import type { SuiteTool } from './tool';

/** A case as running it needs it: what the tests file says, not where (the CLI's TestCase is one). */
export interface RunnableCase {
  readonly name: string;
  readonly index: number;
  readonly inputs: ReadonlyMap<string, { readonly value: InputValue }>;
  readonly expect: Expectations;
}

/** A definition's cases as running them needs them (the CLI's Suite is one, the editor's another). */
export interface RunnableSuite<C extends RunnableCase = RunnableCase> {
  readonly definitionPath: string;
  readonly goldenDir: string;
  /** Absent when the definition cannot run. */
  readonly tool?: SuiteTool;
  readonly cases: readonly C[];
  /** The errors of a parsed output against the case's `json` schema (empty: it fits). */
  validateJson(c: C, value: unknown): readonly string[] | PromiseLike<readonly string[]>;
  /** How an LLM tool's answer departs from its `expected_output`. */
  checkOutput(
    text: string,
    expected: ExpectedOutput | undefined,
  ): readonly OutputViolation[] | PromiseLike<readonly OutputViolation[]>;
}

type CaseOf<S extends RunnableSuite> = S['cases'][number];

/** What running one case takes from the options. */
type CaseSettings = Pick<TestRunOptions<RunnableSuite>, 'run' | 'llm' | 'llmMissing' | 'signal'>;

/** Cases run at once unless asked otherwise (`tooldef test --jobs`, the Test Explorer). */
export const DEFAULT_JOBS = Math.max(1, Math.min(4, availableParallelism()));

/** Where LLM cases send their prompts. */
export interface LlmEndpoint {
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** The endpoint's model for every case; undefined: `modelMap`'s choice, else the file's first `model_version` id. */
  readonly model?: string;
  /** The file's `model_version` ids → the endpoint's models (the editor's `tooldef.llm.modelMap`). */
  readonly modelMap?: Readonly<Record<string, string>>;
}

/** A model the editor offers (VS Code's language models): asked with the filled prompt. */
export interface LlmModel {
  readonly ask: (tool: LlmTool, prompt: string, signal?: AbortSignal) => Promise<string>;
}

export interface TestRunOptions<S extends RunnableSuite = Suite> {
  /** Cases run at once, at least 1. */
  readonly jobs: number;
  /** Only cases whose "definition name › case name" matches. */
  readonly filter?: RegExp;
  /** Write every golden case's output as its approved output (instead of comparing). */
  readonly updateGolden?: boolean;
  readonly signal?: AbortSignal;
  /** What a smart tool's run takes beyond its code, requirements, variables and limits. */
  readonly run: Pick<RunOptions, 'python' | 'pipArgs' | 'cacheDir' | 'env' | 'timeoutMs' | 'memoryMb' | 'secrets'>;
  /** An endpoint, or the editor's own models; undefined: LLM cases fail, saying why (`llmMissing`). */
  readonly llm?: LlmEndpoint | LlmModel;
  readonly llmMissing?: string;
  /** A case starts running (after waiting for its requirements' set-up). */
  readonly onStart?: (suite: S, c: CaseOf<S>) => void;
  /** A case is judged: results as they come, not in order. */
  readonly onResult?: (result: CaseResult<S>) => void;
}

export interface CaseResult<S extends RunnableSuite = Suite> {
  readonly suite: S;
  readonly case: CaseOf<S>;
  readonly outcome: CaseOutcome;
  readonly failures: readonly CaseFailure[];
  readonly passed: boolean;
  /** `--update-golden` wrote the case's output as its approved output. */
  readonly goldenWritten?: boolean;
}

/** The title of a case in reports and filters: `weather › Paris in metric`. */
export function caseTitle(suite: RunnableSuite, c: RunnableCase): string {
  return `${toolName(suite)} › ${c.name}`;
}

/** The tool's name, else its file's. */
export function toolName(suite: RunnableSuite): string {
  return suite.tool?.tool.name ?? suite.definitionPath.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
}

/**
 * Runs the cases of valid suites, `jobs` at a time; smart tools with the same requirements wait for the
 * first of them, which sets their environment up once. Results come in case order per suite.
 */
export async function runTests<S extends RunnableSuite>(
  suites: readonly S[],
  options: TestRunOptions<S>,
): Promise<CaseResult<S>[]> {
  const work = suites.flatMap((suite) =>
    suite.cases.filter((c) => !options.filter || options.filter.test(caseTitle(suite, c))).map((c) => ({ suite, c })),
  );
  const firstOfSetup = new Map<string, Promise<void>>();
  const results: CaseResult<S>[] = new Array(work.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < work.length) {
      const i = next++;
      const { suite, c } = work[i];
      const tool = suite.tool;
      // Released when this case is done, if it is the first of its requirements: the others wait for it.
      const gate = { open: (): void => undefined };
      if (tool?.kind === 'smart') {
        const key = normaliseRequirements(tool.tool.requirements).lines.join('\n');
        const first = firstOfSetup.get(key);
        if (first) await first;
        else firstOfSetup.set(key, new Promise<void>((resolve) => (gate.open = resolve)));
      }
      try {
        // Stopped: the cases not started yet are not started (the one running was stopped by the signal).
        if (options.signal?.aborted) results[i] = notStarted(suite, c);
        else {
          options.onStart?.(suite, c);
          results[i] = await runCase(suite, c, options);
        }
        options.onResult?.(results[i]);
      } finally {
        gate.open();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, work.length)) }, worker));
  return results;
}

function notStarted<S extends RunnableSuite>(suite: S, c: CaseOf<S>): CaseResult<S> {
  const message = 'The run was stopped before this case started.';
  const outcome: CaseOutcome = { errorType: 'cancelled', errorMessage: message, elapsedMs: 0 };
  return { suite, case: c, outcome, failures: [{ check: 'run', message }], passed: false };
}

async function runCase<S extends RunnableSuite>(
  suite: S,
  c: CaseOf<S>,
  options: TestRunOptions<S>,
): Promise<CaseResult<S>> {
  const tool = suite.tool!;
  const outcome =
    tool.kind === 'smart' ? await runSmartCase(tool.tool, c, options) : await runLlmCase(tool.tool, c, options);
  const goldenPath = join(suite.goldenDir, goldenFileName(c.name));
  const approve = c.expect.golden && options.updateGolden && outcome.output !== undefined;
  if (approve) {
    await fs.mkdir(suite.goldenDir, { recursive: true });
    await fs.writeFile(goldenPath, outcome.output, 'utf8');
  }
  const golden = c.expect.golden ? await fs.readFile(goldenPath, 'utf8').catch(() => undefined) : undefined;
  const jsonErrors = c.expect.json === undefined ? undefined : await schemaCheck(suite, c, outcome.output);
  const failures = judgeCase(c.expect, outcome, {
    golden,
    outputViolations:
      tool.kind === 'llm' && outcome.output !== undefined
        ? await suite.checkOutput(outcome.output, tool.tool.expectedOutput)
        : undefined,
    validateJson: jsonErrors && (() => jsonErrors),
  });
  return {
    suite,
    case: c,
    outcome,
    failures,
    passed: failures.length === 0,
    ...(approve ? { goldenWritten: true } : {}),
  };
}

/** The output's errors against the case's `json` schema; undefined when there is no JSON to check. */
async function schemaCheck<S extends RunnableSuite>(
  suite: S,
  c: CaseOf<S>,
  output: string | undefined,
): Promise<readonly string[] | undefined> {
  if (output === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(output);
  } catch {
    return undefined; // judged "not JSON"
  }
  return suite.validateJson(c, value);
}

/** The case's limits: the run's, lowered to what `max_seconds` / `max_memory_mb` allow (so a slow case ends soon). */
function caseLimits(c: RunnableCase, options: CaseSettings): { timeoutMs: number; memoryMb: number } {
  const timeoutMs = options.run.timeoutMs ?? SERVICE_TIMEOUT_MS;
  const memoryMb = options.run.memoryMb ?? SERVICE_MEMORY_MB;
  const { max_seconds: seconds, max_memory_mb: mb } = c.expect;
  return {
    // A second over max_seconds, so that a case just over it is measured rather than killed.
    timeoutMs: seconds === undefined ? timeoutMs : Math.min(timeoutMs, Math.max(MIN_TIMEOUT_MS, seconds * 1000 + 1000)),
    memoryMb: mb === undefined ? memoryMb : Math.min(memoryMb, Math.max(MIN_MEMORY_MB, mb)),
  };
}

async function runSmartCase(tool: RunnableTool, c: RunnableCase, options: CaseSettings): Promise<CaseOutcome> {
  const given = new Map([...c.inputs].map(([k, v]) => [k, valueText(v.value)]));
  const inputs = resolveInputs(tool, given, true);
  if (inputs.badDefaults.length)
    return {
      errorType: 'inputs',
      errorMessage: `The default of ${inputs.badDefaults.join(', ')} is not a string: give the case a value for it.`,
      broken: true,
      elapsedMs: 0,
    };
  const handle = startRun({
    ...options.run,
    ...caseLimits(c, options),
    code: tool.code,
    requirements: tool.requirements,
    variables: inputs.variables,
    signal: options.signal,
  });
  return smartOutcome(await handle.result);
}

/** A run's result as a case outcome: the exception type, or the limit, names the failure. */
export function smartOutcome(r: RunResult): CaseOutcome {
  const base = { elapsedMs: r.elapsedMs, peakMemoryMb: r.peakMemoryMb };
  if (r.ok) return { ...base, output: r.result };
  const e = r.error;
  const errorType = r.limit === 'time' ? 'timeout' : r.limit === 'memory' ? 'memory' : (e?.type ?? e?.kind ?? 'runner');
  const broken = ['setup', 'python', 'runner', 'limits'].includes(e?.kind ?? 'runner');
  return {
    ...base,
    errorType,
    errorMessage: e?.message ?? 'The tool failed.',
    detail: e?.traceback ?? e?.output,
    ...(broken ? { broken } : {}),
  };
}

async function runLlmCase(tool: LlmTool, c: RunnableCase, options: CaseSettings): Promise<CaseOutcome> {
  if (!options.llm)
    return {
      errorType: 'no-endpoint',
      errorMessage: options.llmMissing ?? 'No LLM endpoint.',
      broken: true,
      elapsedMs: 0,
    };
  const values = defaultValues(tool);
  for (const [name, { value }] of c.inputs) values.set(name, typeof value === 'string' ? value : [...value]);
  const filled = fillPrompt(tool, values);
  const started = Date.now();
  if ('ask' in options.llm) {
    const llm = options.llm;
    return llm.ask(tool, filled.text, options.signal).then(
      (output): CaseOutcome => ({ output, elapsedMs: Date.now() - started }),
      (e: unknown): CaseOutcome => ({
        errorType: 'model',
        errorMessage: e instanceof Error ? e.message : String(e),
        broken: true,
        elapsedMs: Date.now() - started,
      }),
    );
  }
  const { modelMap } = options.llm;
  const model = options.llm.model ?? (modelMap ? { modelIds: tool.modelIds, map: modelMap } : tool.modelIds[0]);
  if (!model)
    return {
      errorType: 'no-model',
      errorMessage: 'The tool lists no model_version: give --model NAME.',
      broken: true,
      elapsedMs: 0,
    };
  try {
    const answer = await streamChat({
      baseUrl: options.llm.baseUrl,
      apiKey: options.llm.apiKey,
      model,
      messages: promptMessages(filled.text),
      parameters: tool.parameters,
      signal: options.signal,
    });
    return { output: answer.text, elapsedMs: Date.now() - started };
  } catch (e) {
    const kind = e instanceof ChatError ? e.kind : 'protocol';
    return {
      errorType: kind,
      errorMessage: e instanceof Error ? e.message : String(e),
      broken: kind !== 'timeout',
      elapsedMs: Date.now() - started,
    };
  }
}
