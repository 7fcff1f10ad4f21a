import * as vscode from 'vscode';
import {
  DEFAULT_JOBS,
  runTests,
  type CaseResult,
  type LlmEndpoint,
  type LlmModel,
  type TestRunOptions,
} from '../../../server/src/engine/tests';
import { llmApiKey, readEndpoint } from '../llm/commands';
import { askVsCodeModel, hasVsCodeModels, pickVsCodeModel } from '../llm/vscodeModels';
import { chooseInterpreter } from '../run/interpreter';
import type { RunContext } from '../run/runSmartTool';
import { secretValues } from '../run/secrets';
import { readRunSettings } from '../run/settings';
import { failureMessages, outputOf } from './messages';
import { isInvalid, type EditorCase, type EditorSuite, type TestTree } from './testTree';

/**
 * Runs what a request includes (every case by default), from the files as saved: each suite is re-read
 * first, so the explorer shows what ran. Cancelling aborts the runs; their cases show as skipped.
 */
export async function runRequest(
  ctx: RunContext,
  tree: TestTree,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
): Promise<void> {
  const run = tree.controller.createTestRun(request);
  try {
    const items = new Map<string, vscode.TestItem>();
    const runnable: EditorSuite[] = [];
    for (const { item, suite, chosen } of await selectedSuites(tree, request)) {
      for (const [c, child] of chosen) {
        items.set(keyOf(suite, c), child);
        if (isInvalid(suite)) run.errored(child, new vscode.TestMessage(invalidMessage(item)));
        else run.enqueued(child);
      }
      if (!isInvalid(suite) && chosen.size) runnable.push({ ...suite, cases: [...chosen.keys()] });
    }
    if (!runnable.length) return;
    if (!vscode.workspace.isTrusted) {
      const why = 'Running a tool executes its code, which Restricted Mode does not allow: trust this workspace first.';
      for (const child of items.values()) run.errored(child, new vscode.TestMessage(why));
      return;
    }
    const options = await runOptions(ctx, runnable);
    if (!options) {
      for (const child of items.values()) run.skipped(child);
      return;
    }
    // The request's token (the profile's stop) or the run's (the explorer's stop on a run started here).
    const abort = new AbortController();
    const cancels = [token, run.token].map((t) => t.onCancellationRequested(() => abort.abort()));
    try {
      await runTests(runnable, {
        ...options,
        jobs: DEFAULT_JOBS,
        signal: abort.signal,
        onStart: (suite, c) => run.started(items.get(keyOf(suite, c))!),
        onResult: (result) => report(run, items.get(keyOf(result.suite, result.case))!, result, abort.signal),
      });
    } finally {
      for (const c of cancels) c.dispose();
    }
  } catch (e) {
    ctx.log.error(`The test run failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    void vscode.window.showErrorMessage(`The test run failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    run.end();
  }
}

/** What runTests needs beyond the suites: the interpreter, limits, secrets and the LLM endpoint. */
async function runOptions(
  ctx: RunContext,
  suites: readonly EditorSuite[],
): Promise<Pick<TestRunOptions<EditorSuite>, 'run' | 'llm' | 'llmMissing'> | undefined> {
  const names = new Set<string>();
  for (const s of suites) if (s.tool?.kind === 'smart') for (const n of s.tool.tool.secrets) names.add(n);
  const secrets = await secretValues(ctx.extension, [...names].sort());
  if (!secrets) return undefined;
  const settings = readRunSettings();
  const python = await chooseInterpreter(vscode.Uri.file(suites[0].definitionPath), settings.pythonPath, ctx.log);
  const endpoint = readEndpoint();
  const llm: LlmEndpoint | LlmModel | undefined = endpoint.baseUrl
    ? { baseUrl: endpoint.baseUrl, apiKey: await llmApiKey(ctx.extension), modelMap: endpoint.modelMap }
    : (await hasVsCodeModels())
      ? vscodeModels(ctx.extension)
      : undefined;
  return {
    run: {
      python,
      timeoutMs: settings.timeoutMs,
      memoryMb: settings.memoryMb,
      secrets,
      cacheDir: vscode.Uri.joinPath(ctx.extension.globalStorageUri, 'envs').fsPath,
    },
    llm,
    llmMissing:
      'LLM tool cases need a model: set tooldef.llm.baseUrl (an OpenAI-compatible endpoint) in your user settings, or install an extension that offers language models to VS Code.',
  };
}

/** VS Code's own models for LLM cases: each tool's model chosen once per run (asked at most once). */
function vscodeModels(ext: vscode.ExtensionContext): LlmModel {
  const chosen = new Map<string, Promise<vscode.LanguageModelChat | undefined>>();
  return {
    ask: async (tool, prompt, signal) => {
      const key = tool.modelIds.join('\n');
      if (!chosen.has(key)) chosen.set(key, pickVsCodeModel(ext, tool.modelIds));
      const model = await chosen.get(key);
      if (!model) throw new Error('No language model was picked to run this tool with.');
      return askVsCodeModel(model, prompt, signal);
    },
  };
}

function report(
  run: vscode.TestRun,
  item: vscode.TestItem,
  result: CaseResult<EditorSuite>,
  cancelled: AbortSignal,
): void {
  const output = outputOf(result);
  if (output) run.appendOutput(output, undefined, item);
  const duration = result.outcome.elapsedMs;
  if (cancelled.aborted && !result.passed) run.skipped(item);
  else if (result.passed) run.passed(item, duration);
  else if (result.outcome.broken) run.errored(item, failureMessages(result), duration);
  else run.failed(item, failureMessages(result), duration);
}

/** The definitions' items the request names (all by default), each read afresh, with the cases chosen. */
async function selectedSuites(
  tree: TestTree,
  request: vscode.TestRunRequest,
): Promise<{ item: vscode.TestItem; suite: EditorSuite; chosen: Map<EditorCase, vscode.TestItem> }[]> {
  const idOf = (item: vscode.TestItem): string => (item.parent ? `${item.parent.id}\u0000${item.id}` : item.id);
  const excluded = new Set((request.exclude ?? []).map(idOf));
  const wanted = new Map<string, Set<string> | 'all'>();
  const include: vscode.TestItem[] = [];
  if (request.include) include.push(...request.include);
  else tree.controller.items.forEach((item) => include.push(item));
  for (const item of include) {
    if (excluded.has(idOf(item))) continue;
    if (!item.parent) wanted.set(item.id, 'all');
    else {
      const ids = wanted.get(item.parent.id) ?? new Set<string>();
      if (ids !== 'all') wanted.set(item.parent.id, ids.add(item.id));
    }
  }
  const out: { item: vscode.TestItem; suite: EditorSuite; chosen: Map<EditorCase, vscode.TestItem> }[] = [];
  for (const [id, ids] of wanted) {
    const item = await tree.read(vscode.Uri.parse(id));
    if (!item) continue;
    const chosen = new Map<EditorCase, vscode.TestItem>();
    item.children.forEach((child) => {
      const ref = tree.caseOf(child);
      if (ref && (ids === 'all' || ids.has(child.id)) && !excluded.has(idOf(child))) chosen.set(ref.case, child);
    });
    out.push({ item, suite: tree.suiteOf(item)!, chosen });
  }
  return out;
}

function keyOf(suite: EditorSuite, c: EditorCase): string {
  return `${suite.testsUri.toString()}\u0000${c.index}`;
}

function invalidMessage(item: vscode.TestItem): string | vscode.MarkdownString {
  return item.error ?? 'The tests file or its definition has errors: see the Problems panel.';
}
