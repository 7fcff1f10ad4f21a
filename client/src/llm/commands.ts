import * as vscode from 'vscode';
import type { DocumentQueries } from '../documentQueries';
import {
  ChatError,
  defaultValues,
  fillPrompt,
  promptMessages,
  streamChat,
  validateInputs,
  type LlmInput,
  type LlmTool,
} from '../../../server/src/engine/llm';
import type { ResultDocuments } from '../run/results';
import { offerToSave } from '../tests/saveCase';
import { askVsCodeModel, hasVsCodeModels, pickVsCodeModel } from './vscodeModels';
import { openSettings } from '../run/settings';

export interface LlmContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly results: ResultDocuments;
  readonly outputDiagnostics: vscode.DiagnosticCollection;
  readonly queries: DocumentQueries;
}

const API_KEY_SECRET = 'tooldef.llm.apiKey';

/** Preview LLM Prompt: asks for each variable and shows the filled prompt. */
export function previewPromptCommand(ctx: LlmContext) {
  return async (uri?: vscode.Uri): Promise<string | undefined> => {
    const prepared = await prepare(ctx.queries, uri);
    if (!prepared) return undefined;
    await ctx.results.show(
      `${prepared.tool.name ?? 'LLM tool'} prompt`,
      prepared.prompt,
      prepared.definition.toString(),
    );
    return prepared.prompt;
  };
}

/** Run LLM Tool: sends the filled prompt to the configured endpoint and streams the answer into a tab. */
export function runLlmToolCommand(ctx: LlmContext) {
  return async (uri?: vscode.Uri): Promise<string | undefined> => {
    const endpoint = readEndpoint();
    if (!endpoint.baseUrl && !(await hasVsCodeModels())) {
      void noModel();
      return undefined;
    }
    const prepared = await prepare(ctx.queries, uri);
    if (!prepared) return undefined;
    const { tool, prompt, values, definition } = prepared;
    const name = tool.name ?? 'LLM tool';
    // Without an endpoint, one of VS Code's own models: the one model_version names, else the user's pick.
    const vscodeModel = endpoint.baseUrl ? undefined : await pickVsCodeModel(ctx.extension, tool.modelIds);
    if (!endpoint.baseUrl && !vscodeModel) return undefined;
    const apiKey = await llmApiKey(ctx.extension);
    const editor = await ctx.results.show(`${name} answer`, '', definition.toString());
    const answerUri = editor.document.uri;
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const flush = (): void => ctx.results.update(answerUri, text);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${name}`, cancellable: true },
        (_p, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          const onText = (delta: string): void => {
            text += delta;
            timer ??= setTimeout(() => ((timer = undefined), flush()), 50);
          };
          if (vscodeModel) return askVsCodeModel(vscodeModel, prompt, abort.signal, onText);
          return streamChat(
            {
              baseUrl: endpoint.baseUrl!,
              apiKey,
              model: { modelIds: tool.modelIds, map: endpoint.modelMap },
              messages: promptMessages(prompt),
              parameters: tool.parameters,
              signal: abort.signal,
              log: (line) => ctx.log.info(line),
            },
            onText,
          ).then((answer) => answer.text);
        },
      );
      clearTimeout(timer);
      text = result;
      flush();
      await showViolations(ctx, answerUri, tool, text);
      void offerToSave(ctx.queries, definition, `${name} answered.`, values, text);
      return text;
    } catch (e) {
      clearTimeout(timer);
      flush();
      const message = e instanceof ChatError || vscodeModel ? (e as Error).message : `The request failed: ${String(e)}`;
      const actions = e instanceof ChatError && e.kind === 'auth' ? ['Set API Key'] : [];
      const choice = await vscode.window.showErrorMessage(message, ...actions);
      if (choice) await vscode.commands.executeCommand('tooldef.setLlmApiKey');
      return undefined;
    }
  };
}

/** Neither an endpoint nor a VS Code model: says how to get either. */
async function noModel(): Promise<void> {
  const choice = await vscode.window.showErrorMessage(
    'Running an LLM tool needs a model: set tooldef.llm.baseUrl (an OpenAI-compatible endpoint, e.g. https://api.openai.com/v1) in your user settings, or install an extension that offers language models to VS Code (such as GitHub Copilot).',
    'Open Settings',
  );
  if (choice) void openSettings('tooldef.llm');
}

/** The endpoint's API key, from secret storage. */
export function llmApiKey(ext: vscode.ExtensionContext): Thenable<string | undefined> {
  return ext.secrets.get(API_KEY_SECRET);
}

export function setApiKeyCommand(ctx: LlmContext) {
  return async (): Promise<void> => {
    const key = await vscode.window.showInputBox({
      title: 'API key for Run LLM Tool',
      prompt: "Kept in VS Code's secret storage, never in settings. Leave empty to remove it.",
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key) await ctx.extension.secrets.store(API_KEY_SECRET, key);
    else await ctx.extension.secrets.delete(API_KEY_SECRET);
    void vscode.window.showInformationMessage(key ? 'API key saved.' : 'API key removed.');
  };
}

/** Endpoint settings are read from user settings only: a workspace cannot redirect prompts or keys. */
export function readEndpoint(): { baseUrl?: string; modelMap: Record<string, string> } {
  const cfg = vscode.workspace.getConfiguration('tooldef');
  return {
    baseUrl: cfg.inspect<string>('llm.baseUrl')?.globalValue?.trim() || undefined,
    modelMap: cfg.inspect<Record<string, string>>('llm.modelMap')?.globalValue ?? {},
  };
}

async function prepare(
  queries: DocumentQueries,
  uri: vscode.Uri | undefined,
): Promise<
  { tool: LlmTool; prompt: string; values: Record<string, string | string[]>; definition: vscode.Uri } | undefined
> {
  const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
  if (!doc) {
    void vscode.window.showErrorMessage('Open an LLM tool definition file first.');
    return undefined;
  }
  const parsed = await queries.llmTool(doc);
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(parsed.error);
    return undefined;
  }
  const tool = parsed.tool;
  const values: Record<string, string | string[]> = {};
  const defaults = defaultValues(tool);
  for (const [i, input] of tool.inputs.entries()) {
    const value = await ask(
      input,
      defaults.get(input.name),
      `${tool.name ?? 'LLM tool'} (${i + 1}/${tool.inputs.length}): ${input.name}`,
    );
    if (value === undefined) return undefined;
    values[input.name] = value;
  }
  for (const p of validateInputs(tool, values)) void vscode.window.showWarningMessage(p.message);
  const filled = fillPrompt(tool, values);
  // Said as the editor's diagnostics say it: spaces around a name are part of it (placeholder-whitespace).
  for (const name of filled.spaced)
    void vscode.window.showWarningMessage(
      `The spaces are part of the name, so "{{${name}}}" does not match variable "${name.trim()}" and is left as written: write "{{${name.trim()}}}".`,
    );
  const unknown = filled.unknown.filter((n) => !filled.spaced.includes(n));
  if (unknown.length)
    void vscode.window.showWarningMessage(
      `The prompt names variables that are not declared, left as they are: ${unknown.map((n) => `"${n}"`).join(', ')}.`,
    );
  return { tool, prompt: filled.text, values, definition: doc.uri };
}

/** A text box, a single pick or a multi pick from `allowed_values`, pre-filled with the default. */
async function ask(
  input: LlmInput,
  def: string | string[] | undefined,
  title: string,
): Promise<string | string[] | undefined> {
  if (input.type === 'text' || !input.allowedValues?.length) {
    return vscode.window.showInputBox({
      title,
      prompt: input.description,
      value: typeof def === 'string' ? def : '',
      ignoreFocusOut: true,
    });
  }
  const chosen = new Set(Array.isArray(def) ? def : def !== undefined ? [def] : []);
  const items = input.allowedValues.map((v) => ({
    label: v,
    picked: chosen.has(v),
    description: chosen.has(v) ? 'default' : undefined,
  }));
  if (input.type === 'multi-select') {
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: input.description,
      canPickMany: true,
      ignoreFocusOut: true,
    });
    return picked?.map((p) => p.label);
  }
  items.sort((a, b) => Number(b.picked) - Number(a.picked)); // the default first, so Enter takes it
  return (await vscode.window.showQuickPick(items, { title, placeHolder: input.description, ignoreFocusOut: true }))
    ?.label;
}

async function showViolations(ctx: LlmContext, uri: vscode.Uri, tool: LlmTool, text: string): Promise<void> {
  const violations = await ctx.queries.checkOutput(text, tool.expectedOutput);
  const severity = {
    error: vscode.DiagnosticSeverity.Error,
    warning: vscode.DiagnosticSeverity.Warning,
    hint: vscode.DiagnosticSeverity.Hint,
  };
  ctx.outputDiagnostics.set(
    uri,
    violations.map((v) => {
      const line = Math.max(0, (v.line ?? 1) - 1);
      const col = Math.max(0, (v.column ?? 1) - 1);
      const d = new vscode.Diagnostic(
        new vscode.Range(line, col, line, v.line ? col + 1 : 0),
        v.message,
        severity[v.severity],
      );
      d.source = 'tooldef';
      d.code = v.code;
      return d;
    }),
  );
  const errors = violations.filter((v) => v.severity !== 'hint');
  if (errors.length)
    void vscode.window.showWarningMessage(
      `The answer does not match expected_output: ${errors.map((v) => v.message).join(' ')}`,
    );
}
