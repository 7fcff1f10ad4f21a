import * as vscode from 'vscode';
import {
  formatDuration,
  formatMemory,
  resolveInputs,
  runSummary,
  startRun,
  type RunHandle,
  type RunnableTool,
  type RunResult,
} from '../../../server/src/engine/run';
import type { DocumentQueries } from '../documentQueries';
import { chooseInterpreter, pickInterpreter } from './interpreter';
import type { ResultDocuments } from './results';
import { secretValues } from './secrets';
import { RunTerminal } from './runTerminal';
import { readRunSettings } from './settings';
import { offerToSave } from '../tests/saveCase';

export interface RunContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly results: ResultDocuments;
  readonly queries: DocumentQueries;
}

/** Runs in progress, by definition file. */
const active = new Map<string, RunHandle>();

/** Run Smart Tool (asking for each input) or Run with Defaults. */
export function runSmartToolCommand(ctx: RunContext, withDefaults: boolean) {
  return async (uri?: vscode.Uri): Promise<RunResult | undefined> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window
        .showWarningMessage(
          'Running a tool executes its Python code, which Restricted Mode does not allow. Trust this workspace to run tools; every language feature keeps working meanwhile.',
          'Manage Workspace Trust',
        )
        .then((c) => {
          if (c) void vscode.commands.executeCommand('workbench.trust.manage');
        });
      return undefined;
    }
    const doc = await documentFor(uri);
    if (!doc) {
      void vscode.window.showErrorMessage('Open a smart tool definition file to run it.');
      return undefined;
    }
    const key = doc.uri.toString();
    if (active.has(key)) {
      void vscode.window.showWarningMessage('This tool is already running. Stop it first (Tool Definition: Stop Run).');
      return undefined;
    }
    const parsed = await ctx.queries.smartTool(doc);
    if ('problems' in parsed) {
      void vscode.window.showErrorMessage(`Cannot run this file: ${parsed.problems.join(' ')}`);
      return undefined;
    }
    const tool = parsed.tool;
    const variables = withDefaults ? defaultsOf(tool) : await askInputs(ctx, key, tool);
    if (!variables) return undefined;
    const secrets = await secretValues(ctx.extension, tool.secrets);
    if (!secrets) return undefined;
    const settings = readRunSettings();
    let python = await chooseInterpreter(doc.uri, settings.pythonPath, ctx.log);
    for (;;) {
      const result = await runInTerminal(ctx, key, tool, variables, { ...settings, python, secrets });
      if (result.error?.kind !== 'python') return report(ctx, tool, result, { definition: doc.uri, variables });
      const choice = await vscode.window.showErrorMessage(result.error.message, 'Select Interpreter…');
      if (!choice || !(python = await pickInterpreter())) return result;
    }
  };
}

export function stopRunCommand() {
  return (uri?: vscode.Uri): void => {
    const key = uri?.toString() ?? vscode.window.activeTextEditor?.document.uri.toString();
    const handle = (key && active.get(key)) ?? [...active.values()].pop();
    if (handle) handle.stop();
    else void vscode.window.showInformationMessage('No tool is running.');
  };
}

async function documentFor(uri: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  if (uri) return vscode.workspace.openTextDocument(uri);
  return vscode.window.activeTextEditor?.document;
}

function defaultsOf(tool: RunnableTool): Record<string, string> | undefined {
  const resolved = resolveInputs(tool, new Map(), true);
  if (resolved.badDefaults.length) {
    void vscode.window.showErrorMessage(
      `The default of ${resolved.badDefaults.join(', ')} is not a string; fix it or use Run Smart Tool to enter values.`,
    );
    return undefined;
  }
  return resolved.variables;
}

/** One input box per variable, in array order, pre-filled with the last value used or the default. */
async function askInputs(
  ctx: RunContext,
  key: string,
  tool: RunnableTool,
): Promise<Record<string, string> | undefined> {
  const memoryKey = `tooldef.lastInputs:${key}`;
  const last = ctx.extension.workspaceState.get<Record<string, string>>(memoryKey) ?? {};
  const values: Record<string, string> = {};
  for (const [i, input] of tool.inputs.entries()) {
    const value = await vscode.window.showInputBox({
      title: `Run ${tool.name ?? 'smart tool'} (${i + 1}/${tool.inputs.length}): ${input.name}`,
      prompt: input.description,
      value: last[input.name] ?? input.default ?? '',
      ignoreFocusOut: true,
    });
    if (value === undefined) return undefined;
    values[input.name] = value;
  }
  await ctx.extension.workspaceState.update(memoryKey, values);
  return values;
}

/**
 * Runs in the tool's integrated terminal (live output, Ctrl+C stops; the same terminal for each of its
 * runs) with a cancellable progress notification.
 */
async function runInTerminal(
  ctx: RunContext,
  key: string,
  tool: RunnableTool,
  variables: Record<string, string>,
  opts: { python?: string; timeoutMs: number; memoryMb: number; secrets: Record<string, string> },
): Promise<RunResult> {
  const name = tool.name ?? 'smart tool';
  const terminal = RunTerminal.of(key, name);
  let handle: RunHandle | undefined;
  await terminal.start(() => handle?.stop());
  const out = (text: string): void => terminal.out(text);
  out(
    `\x1b[2mRunning ${name} with limits ${formatDuration(opts.timeoutMs)} / ${formatMemory(opts.memoryMb)}…\x1b[0m\n`,
  );
  handle = startRun({
    code: tool.code,
    requirements: tool.requirements,
    variables,
    python: opts.python,
    timeoutMs: opts.timeoutMs,
    memoryMb: opts.memoryMb,
    secrets: opts.secrets,
    cacheDir: vscode.Uri.joinPath(ctx.extension.globalStorageUri, 'envs').fsPath,
    onProgress: (p) => out(`\x1b[2m[${p.stage}] ${p.message}\x1b[0m\n`),
    // pip's output, live in the terminal (dimmed: it is set-up, not the tool) and in the log.
    onLog: (text) => {
      out(`\x1b[2m${text}\x1b[0m`);
      ctx.log.info(text.trimEnd());
    },
    onStdout: out,
    onStderr: (text) => out(`\x1b[31m${text}\x1b[0m`),
  });
  active.set(key, handle);
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Running ${name}`, cancellable: true },
    (_progress, token) => {
      token.onCancellationRequested(() => handle?.stop());
      return handle!.result;
    },
  );
  const result = await handle.result;
  active.delete(key);
  terminal.done();
  // The traceback too: its `File "tool_code", line N` frames are links to the code.
  if (result.error?.traceback) out(`\n\x1b[31m${result.error.traceback.trimEnd()}\x1b[0m\n`);
  out(`\n\x1b[1m${summary(name, result)}\x1b[0m\n`);
  return result;
}

function summary(name: string, r: RunResult): string {
  const account = runSummary(name, r);
  if (r.ok) return `${account} ${r.result!.length} characters.`;
  return account
    ? `${r.error?.message ?? 'The tool failed.'}\n${account}`
    : `${name} did not run: ${r.error?.message ?? 'unknown error'}`;
}

async function report(
  ctx: RunContext,
  tool: RunnableTool,
  r: RunResult,
  ran: { definition: vscode.Uri; variables: Record<string, string> },
): Promise<RunResult> {
  const name = tool.name ?? 'smart tool';
  const stats = `${formatDuration(r.elapsedMs)}, ${r.peakMemoryMb.toFixed(1)} MB`;
  for (const notice of r.notices) ctx.log.info(notice);
  if (r.ok) {
    await ctx.results.show(`${name} result (${stats})`, r.result!, ran.definition.toString());
    void offerToSave(ctx.queries, ran.definition, `${name} returned (${stats}).`, ran.variables, r.result!);
    return r;
  }
  const e = r.error!;
  if (e.kind === 'cancelled') {
    void vscode.window.showInformationMessage(`${name} was stopped.`);
    return r;
  }
  const detail = e.traceback ?? e.output;
  const choice = await vscode.window.showErrorMessage(
    r.limit ? `${name} was killed: ${e.message}` : e.message,
    ...(detail ? ['Show Details'] : []),
  );
  if (choice)
    await ctx.results.show(
      `${name} ${e.kind === 'setup' ? 'setup output' : 'traceback'}`,
      detail!,
      ran.definition.toString(),
    );
  return r;
}
