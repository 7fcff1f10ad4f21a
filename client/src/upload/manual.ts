import * as vscode from 'vscode';
import { checkWorkspaceUrl } from '../../../server/src/engine/upload';
import type { DocumentQueries } from '../documentQueries';

/** What Upload prepared for a hand upload: the exact file, where it was written. */
export interface PreparedUpload {
  readonly path: string;
  readonly fileName: string;
}

/**
 * Upload without an upload endpoint (the service documents no upload API; its workspace UI takes the
 * file): the same validation gate, then the exact saved bytes written as `<tool_name>.json`, its path
 * copied (and the file shown in the OS file manager where that is this machine), and the workspace's
 * page opened, with the two steps left.
 */
export async function prepareUpload(
  ext: vscode.ExtensionContext,
  queries: DocumentQueries,
  doc: vscode.TextDocument,
  force: boolean,
): Promise<PreparedUpload | undefined> {
  if (doc.isDirty && !(await doc.save())) return undefined; // the file as saved, as an upload sends it
  const bytes = await vscode.workspace.fs.readFile(doc.uri);
  const validation = await queries.validateForUpload(doc, bytes);
  if (validation.errors && !force) {
    const errors = `${validation.errors} error${validation.errors === 1 ? '' : 's'}`;
    const choice = await vscode.window.showErrorMessage(
      `Not prepared for upload: the definition has ${errors}. Fix ${validation.errors === 1 ? 'it' : 'them'} first, or prepare it anyway.`,
      'Prepare Anyway',
      'Show Problems',
    );
    if (choice === 'Prepare Anyway') return prepareUpload(ext, queries, doc, true);
    if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
    return undefined;
  }
  const dir = vscode.Uri.joinPath(ext.globalStorageUri, 'upload');
  const file = vscode.Uri.joinPath(dir, validation.fileName);
  await vscode.workspace.fs.createDirectory(dir);
  await vscode.workspace.fs.writeFile(file, bytes);
  await vscode.env.clipboard.writeText(file.fsPath);
  // Only a local window's file manager can show the file; in a remote one the copied path is the way.
  if (!vscode.env.remoteName) void vscode.commands.executeCommand('revealFileInOS', file);
  const page = await workspacePage();
  if (page) void vscode.env.openExternal(vscode.Uri.parse(page));
  void vscode.window
    .showInformationMessage(
      `${validation.fileName} is ready to upload (its path is copied: ${file.fsPath}). ${page ? 'In the workspace page just opened' : 'In your workspace'}: 1. open the custom tools and choose to upload one; 2. pick this file.`,
      'Copy Path',
      ...(page ? ['Open Workspace'] : []),
    )
    .then((choice) => {
      if (choice === 'Copy Path') void vscode.env.clipboard.writeText(file.fsPath);
      if (choice === 'Open Workspace' && page) void vscode.env.openExternal(vscode.Uri.parse(page));
    });
  return { path: file.fsPath, fileName: validation.fileName };
}

/** The workspace's page: `tooldef.workspaceUrl` from the user's settings, asked for once and kept there. */
async function workspacePage(): Promise<string | undefined> {
  const cfg = vscode.workspace.getConfiguration('tooldef');
  const set = cfg.inspect<string>('workspaceUrl')?.globalValue?.trim();
  if (set && checkWorkspaceUrl(set).ok) return set;
  const typed = await vscode.window.showInputBox({
    title: "Your workspace's address",
    prompt:
      'Upload opens this page so that you can finish there (kept in your user settings as tooldef.workspaceUrl). Escape: open none.',
    placeHolder: 'https://workspace.example.com',
    value: set,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const check = checkWorkspaceUrl(v);
      return check.ok ? undefined : check.message;
    },
  });
  if (!typed) return undefined;
  await cfg.update('workspaceUrl', typed.trim(), vscode.ConfigurationTarget.Global);
  return typed.trim();
}
