// What the extension-host tests share: the extension, fixture files in the workspace folder, waiting.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'tooldef.tooldef';

/** The extension under test, activated. */
export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded`);
  await extension.activate();
  return extension;
}

/** Writes `content` (a JSON value is pretty-printed) to `name` in the workspace folder. */
export async function writeFixture(name: string, content: string | object): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder');
  const uri = vscode.Uri.joinPath(folder.uri, name);
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n';
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  return uri;
}

/** Opens a file in an editor and waits until it has the language `languageId`. */
export async function openAs(uri: vscode.Uri, languageId: string): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  await until(`${uri.path} to be ${languageId}`, () => editor.document.languageId === languageId);
  return editor;
}

/** Polls `fn` until it returns something truthy and returns that; fails with `what` on timeout. */
export async function until<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reverts every unsaved document and closes every editor, so each test starts from a clean window. */
export async function closeAll(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
