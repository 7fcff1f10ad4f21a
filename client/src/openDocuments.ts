import * as vscode from 'vscode';

/** The open document of `uri`, if there is one. */
export function findDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key && !d.isClosed);
}
