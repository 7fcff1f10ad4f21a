import * as vscode from 'vscode';

const PICKED_KEY = 'tooldef.llm.vscodeModel';

/** The language models VS Code offers here (an extension such as GitHub Copilot provides them). */
async function offeredModels(): Promise<vscode.LanguageModelChat[]> {
  return typeof vscode.lm?.selectChatModels === 'function' ? vscode.lm.selectChatModels() : [];
}

/** Whether VS Code offers language models here. */
export async function hasVsCodeModels(): Promise<boolean> {
  return (await offeredModels()).length > 0;
}

/**
 * The model VS Code offers for a tool: the first of its `model_version` ids offered (by id or family),
 * else the one the user picks (remembered for the workspace); undefined when none is offered or picked.
 */
export async function pickVsCodeModel(
  ext: vscode.ExtensionContext,
  modelIds: readonly string[],
): Promise<vscode.LanguageModelChat | undefined> {
  const models = await offeredModels();
  if (!models.length) return undefined;
  for (const id of modelIds) {
    const named = models.find((m) => m.id === id || m.family === id);
    if (named) return named;
  }
  const remembered = models.find((m) => m.id === ext.workspaceState.get<string>(PICKED_KEY));
  if (remembered) return remembered;
  const picked = await vscode.window.showQuickPick(
    models.map((model) => ({ label: model.name, description: `${model.vendor} · ${model.family}`, model })),
    {
      title: 'Model for LLM tools',
      placeHolder: modelIds.length
        ? `VS Code offers none of ${modelIds.join(', ')}: pick the model to run this tool with`
        : 'Pick the model to run LLM tools with',
      ignoreFocusOut: true,
    },
  );
  if (picked) await ext.workspaceState.update(PICKED_KEY, picked.model.id);
  return picked?.model;
}

/** Sends the filled prompt to a VS Code model; the answer's text, each piece also given to `onText`. */
export async function askVsCodeModel(
  model: vscode.LanguageModelChat,
  prompt: string,
  signal?: AbortSignal,
  onText?: (piece: string) => void,
): Promise<string> {
  const cancel = new vscode.CancellationTokenSource();
  const abort = (): void => cancel.cancel();
  signal?.addEventListener('abort', abort);
  try {
    const response = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      { justification: 'Runs the LLM tool you asked to run, with its filled prompt.' },
      cancel.token,
    );
    let text = '';
    for await (const piece of response.text) {
      text += piece;
      onText?.(piece);
    }
    return text;
  } catch (e) {
    throw new Error(`${model.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  } finally {
    signal?.removeEventListener('abort', abort);
    cancel.dispose();
  }
}
