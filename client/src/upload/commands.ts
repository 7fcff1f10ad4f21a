import * as vscode from 'vscode';
import { uploadDefinition, type UploadResult } from '../../../server/src/engine/upload';
import type { DocumentQueries } from '../documentQueries';
import { prepareUpload, type PreparedUpload } from './manual';

export interface UploadContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly queries: DocumentQueries;
}

const TOKEN_SECRET = 'tooldef.upload.token';

/**
 * Upload Tool Definition: validates, sends the saved file's bytes to `tooldef.upload.url` and follows
 * the service's setup; without one, prepares the file for the workspace's own upload.
 */
export function uploadCommand(ctx: UploadContext) {
  return async (uri?: vscode.Uri, force = false): Promise<UploadResult | PreparedUpload | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showErrorMessage('Open a tool definition file to upload it.');
      return undefined;
    }
    // Endpoints come from user settings only: a workspace cannot send files (and the token) elsewhere.
    const url = vscode.workspace.getConfiguration('tooldef').inspect<string>('upload.url')?.globalValue?.trim();
    // No upload API is configured (the service documents none): the file is prepared for the workspace UI.
    if (!url) return prepareUpload(ctx.extension, ctx.queries, doc, force);
    if (doc.isDirty && !(await doc.save())) return undefined; // the service gets the file as saved
    let token = await ctx.extension.secrets.get(TOKEN_SECRET);
    if (!token && !(token = await askToken(ctx))) return undefined;
    const bytes = await vscode.workspace.fs.readFile(doc.uri);
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Uploading tool definition', cancellable: true },
      (progress, cancel) => {
        const abort = new AbortController();
        cancel.onCancellationRequested(() => abort.abort());
        return uploadDefinition(
          {
            url,
            token: token!,
            bytes,
            filePath: doc.uri.toString(),
            force,
            // Validated by the server, as the editor's diagnostics are: the same settings, kind and workspace.
            validate: (b) => ctx.queries.validateForUpload(doc, b),
            signal: abort.signal,
          },
          { onProgress: (p) => progress.report({ message: p.message }), onLog: (line) => ctx.log.info(line) },
        );
      },
    );
    if (result.ok) {
      void vscode.window.showInformationMessage(result.message);
      return result;
    }
    const actions =
      result.kind === 'auth'
        ? ['Set Upload Token']
        : result.kind === 'validation'
          ? ['Upload Anyway', 'Show Problems']
          : [];
    const choice = await vscode.window.showErrorMessage(result.message, ...actions);
    if (choice === 'Set Upload Token' && (await askToken(ctx))) return uploadCommand(ctx)(doc.uri, force);
    if (choice === 'Upload Anyway') return uploadCommand(ctx)(doc.uri, true);
    if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
    return result;
  };
}

export function setUploadTokenCommand(ctx: UploadContext) {
  return async (): Promise<void> => {
    if (await askToken(ctx)) void vscode.window.showInformationMessage('Upload token saved in secret storage.');
  };
}

async function askToken(ctx: UploadContext): Promise<string | undefined> {
  const token = await vscode.window.showInputBox({
    title: 'Upload token',
    prompt: "Sent as a Bearer token with uploads; kept in VS Code's secret storage, never in settings or logs.",
    password: true,
    ignoreFocusOut: true,
  });
  if (!token) return undefined;
  await ctx.extension.secrets.store(TOKEN_SECRET, token);
  return token;
}
