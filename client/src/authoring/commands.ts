import * as vscode from 'vscode';
import type { DocumentQueries } from '../documentQueries';
import { fileNameFor, parseVariableList } from './answers';

/** New Smart Tool / New LLM Tool: a short wizard, then a valid `<name>.json` in the workspace. */
export function newToolCommand(queries: DocumentQueries, kind: 'smart' | 'llm') {
  return async (): Promise<vscode.Uri | undefined> => {
    const what = kind === 'smart' ? 'smart tool' : 'LLM tool';
    const name = await vscode.window.showInputBox({
      title: `New ${what} (1/3): name`,
      prompt:
        kind === 'smart'
          ? 'tool_name: unique in the workspace; the file is named <tool_name>.json'
          : 'prompt_name: the name the workspace shows',
      placeHolder: kind === 'smart' ? 'weather_lookup' : 'Meeting summariser',
      validateInput: (v) => (v.trim() ? undefined : 'A tool needs a name.'),
      ignoreFocusOut: true,
    });
    if (name === undefined) return undefined;
    const description = await vscode.window.showInputBox({
      title: `New ${what} (2/3): description`,
      prompt: 'What the tool does, in a sentence.',
      ignoreFocusOut: true,
    });
    if (description === undefined) return undefined;
    const variables = await vscode.window.showInputBox({
      title: `New ${what} (3/3): variables`,
      prompt: 'Input names, separated by commas (names may contain spaces); leave empty for none.',
      placeHolder: kind === 'smart' ? 'city, units' : 'text, target language',
      ignoreFocusOut: true,
    });
    if (variables === undefined) return undefined;
    const folder = await targetFolder();
    if (!folder) {
      void vscode.window.showErrorMessage('Open a folder first: the new tool is created in it.');
      return undefined;
    }
    const uri = vscode.Uri.joinPath(folder, fileNameFor(name));
    if (await exists(uri)) {
      void vscode.window.showErrorMessage(`${uri.fsPath} already exists: choose another name.`);
      return undefined;
    }
    const answers = { name: name.trim(), description: description.trim(), variables: parseVariableList(variables) };
    const content = await queries.newDefinition(kind, answers);
    if (content === undefined) {
      void vscode.window.showErrorMessage(
        `Could not create the ${what}: the Tool Definition language server is not running (see the Tool Definitions log).`,
      );
      return undefined;
    }
    await vscode.workspace.fs.writeFile(uri, Buffer.from(content, 'utf8'));
    await vscode.window.showTextDocument(uri);
    return uri;
  };
}

async function targetFolder(): Promise<vscode.Uri | undefined> {
  const active = vscode.window.activeTextEditor?.document.uri;
  const folder = active && vscode.workspace.getWorkspaceFolder(active);
  if (folder) return vscode.Uri.joinPath(active!, '..');
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Folder for the new tool' }))?.uri;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Set Avatar from Image…: embeds a PNG, JPEG, GIF, WebP or SVG file as base64 in `avatar`. */
export function setAvatarCommand(queries: DocumentQueries) {
  return async (uri?: vscode.Uri, image?: vscode.Uri): Promise<boolean> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc) {
      void vscode.window.showErrorMessage('Open a tool definition file first.');
      return false;
    }
    const picked =
      image ??
      (
        await vscode.window.showOpenDialog({
          canSelectMany: false,
          filters: { Images: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'] },
          openLabel: 'Use as Avatar',
        })
      )?.[0];
    if (!picked) return false;
    const base64 = Buffer.from(await vscode.workspace.fs.readFile(picked)).toString('base64');
    const answer = await queries.avatarEdits(doc, base64);
    if (!answer?.image.ok) {
      void vscode.window.showErrorMessage(`${picked.fsPath} is not a PNG, JPEG, GIF, WebP or SVG image.`);
      return false;
    }
    const edits = answer!.edits;
    if (!edits) {
      void vscode.window.showErrorMessage('This file has no metadata object to hold an avatar.');
      return false;
    }
    const edit = new vscode.WorkspaceEdit();
    for (const e of edits)
      edit.replace(doc.uri, new vscode.Range(doc.positionAt(e.offset), doc.positionAt(e.offset + e.length)), e.newText);
    const applied = await vscode.workspace.applyEdit(edit);
    if (applied && answer!.advice) void vscode.window.showWarningMessage(answer!.advice);
    return applied;
  };
}
