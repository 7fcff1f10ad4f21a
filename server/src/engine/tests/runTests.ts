// Running the cases of tests files: smart tools with the same runner, limits and set-up as `tooldef run`,
// LLM tools against a chat endpoint; each outcome judged, approved outputs read and (when asked) written.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { TestCase } from '../../service/tests/testsFile';
import { goldenFileName } from '../../service/tests/testsFile';
import { ChatError, defaultValues, fillPrompt, promptMessages, streamChat, valueText, type LlmTool } from '../llm';
import { resolveInputs, type RunnableTool } from '../run/definition';
import { normaliseRequirements } from '../run/environment';
import { MIN_MEMORY_MB, MIN_TIMEOUT_MS, SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS } from '../run/limits';
import { startRun } from '../run/run';
import type { RunOptions, RunResult } from '../run/types';
import { judgeCase, type CaseFailure, type CaseOutcome } from './expect';
import { schemaErrors, type Suite } from './suite';

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

export interface TestRunOptions {
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
  readonly onStart?: (suite: Suite, c: TestCase) => void;
  /** A case is judged: results as they come, not in order. */
  readonly onResult?: (result: CaseResult) => void;
}

export interface CaseResult {
  readonly suite: Suite;
  readonly case: TestCase;
  readonly outcome: CaseOutcome;
  readonly failures: readonly CaseFailure[];
  readonly passed: boolean;
  /** `--update-golden` wrote the case's output as its approved output. */
  readonly goldenWritten?: boolean;
}

/** The title of a case in reports and filters: `weather › Paris in metric`. */
export function caseTitle(suite: Suite, c: TestCase): string {
  return `${toolName(suite)} › ${c.name}`;
}

/** The tool's name, else its file's. */
export function toolName(suite: Suite): string {
  return suite.tool?.tool.name ?? suite.definitionPath.replace(/^.*[\\/]/, '').replace(/\.json$/i, '');
}

/**
 * Runs the cases of valid suites, `jobs` at a time; smart tools with the same requirements wait for the
 * first of them, which sets their environment up once. Results come in case order per suite.
 */
export async function runTests(suites: readonly Suite[], options: TestRunOptions): Promise<CaseResult[]> {
  const work = suites.flatMap((suite) =>
    suite.cases.filter((c) => !options.filter || options.filter.test(caseTitle(suite, c))).map((c) => ({ suite, c })),
  );
  const firstOfSetup = new Map<string, Promise<void>>();
  const results: CaseResult[] = new Array(work.length);
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
        options.onStart?.(suite, c);
        results[i] = await runCase(suite, c, options);
        options.onResult?.(results[i]);
      } finally {
        gate.open();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, work.length)) }, worker));
  return results;
}

async function runCase(suite: Suite, c: TestCase, options: TestRunOptions): Promise<CaseResult> {
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
  const validate = suite.schemas.get(c.index);
  const failures = judgeCase(c.expect, outcome, {
    golden,
    expectedOutput: tool.kind === 'llm' ? tool.tool.expectedOutput : undefined,
    validateJson: validate && ((value) => schemaErrors(validate, value)),
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

/** The case's limits: the run's, lowered to what `max_seconds` / `max_memory_mb` allow (so a slow case ends soon). */
function caseLimits(c: TestCase, options: TestRunOptions): { timeoutMs: number; memoryMb: number } {
  const timeoutMs = options.run.timeoutMs ?? SERVICE_TIMEOUT_MS;
  const memoryMb = options.run.memoryMb ?? SERVICE_MEMORY_MB;
  const { max_seconds: seconds, max_memory_mb: mb } = c.expect;
  return {
    // A second over max_seconds, so that a case just over it is measured rather than killed.
    timeoutMs: seconds === undefined ? timeoutMs : Math.min(timeoutMs, Math.max(MIN_TIMEOUT_MS, seconds * 1000 + 1000)),
    memoryMb: mb === undefined ? memoryMb : Math.min(memoryMb, Math.max(MIN_MEMORY_MB, mb)),
  };
}

async function runSmartCase(tool: RunnableTool, c: TestCase, options: TestRunOptions): Promise<CaseOutcome> {
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

async function runLlmCase(tool: LlmTool, c: TestCase, options: TestRunOptions): Promise<CaseOutcome> {
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
