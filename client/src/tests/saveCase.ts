import * as vscode from 'vscode';
import { goldenDirFor, goldenFileName, testsPathFor } from '../../../server/src/engine/tests';
import type { DocumentQueries } from '../documentQueries';
import { findDocument } from '../openDocuments';

/**
 * After a run that returned: one click (Save as Test Case) adds its inputs to the definition's tests file
 * as a golden case and approves its output, so that the next change is checked against it.
 */
export async function offerToSave(
  queries: DocumentQueries,
  definition: vscode.Uri,
  summary: string,
  inputs: Readonly<Record<string, string | readonly string[]>>,
  output: string,
): Promise<void> {
  if (definition.scheme !== 'file') return;
  const choice = await vscode.window.showInformationMessage(summary, 'Save as Test Case');
  if (!choice) return;
  const name = await vscode.window.showInputBox({
    title: 'Save as Test Case',
    prompt: 'The case keeps these inputs, and this output as its approved (golden) output.',
    value: suggestedName(inputs),
    validateInput: (v) => (v.trim() ? undefined : 'Give the case a name.'),
  });
  if (!name) return;
  const testsUri = vscode.Uri.file(testsPathFor(definition.fsPath));
  const text = await currentText(testsUri);
  const added = await queries.addTestCase(testsUri, text ?? '', { name: name.trim(), inputs });
  if ('error' in added) {
    void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(testsUri)}: ${added.error}`);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  if (text === undefined) edit.createFile(testsUri, { ignoreIfExists: true });
  const doc = text === undefined ? undefined : await vscode.workspace.openTextDocument(testsUri);
  const at = (offset: number): vscode.Position => doc?.positionAt(offset) ?? new vscode.Position(0, 0);
  edit.replace(
    testsUri,
    new vscode.Range(at(added.edit.offset), at(added.edit.offset + added.edit.length)),
    added.edit.newText,
  );
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`Could not edit ${vscode.workspace.asRelativePath(testsUri)}.`);
    return;
  }
  await (await vscode.workspace.openTextDocument(testsUri)).save();
  const dir = vscode.Uri.file(goldenDirFor(definition.fsPath));
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(dir, goldenFileName(added.name)),
    new TextEncoder().encode(output),
  );
  const open = await vscode.window.showInformationMessage(
    `Saved "${added.name}" in ${vscode.workspace.asRelativePath(testsUri)}, with this output approved.`,
    'Open Tests File',
  );
  if (open) await vscode.window.showTextDocument(testsUri);
}

/** The tests file's text: its open document's, else on disk; undefined when there is none. */
async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = findDocument(uri);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** `City=Paris, Units=metric`, short enough for a file name. */
function suggestedName(inputs: Readonly<Record<string, string | readonly string[]>>): string {
  const text = Object.entries(inputs)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(', ')
    .replace(/\s+/g, ' ');
  return (text.length > 60 ? `${text.slice(0, 59)}…` : text) || 'defaults';
}
