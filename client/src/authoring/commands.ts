import * as vscode from 'vscode';
import type { DocumentQueries } from '../documentQueries';
import { fileNameFor, parseVariableList } from './answers';

/** Answers of a wizard left unfinished (cancelled, or it failed), offered again on the next one. */
const drafts = new Map<'smart' | 'llm', { name?: string; description?: string; variables?: string }>();

/**
 * New Smart Tool / New LLM Tool: a short wizard, then a valid `<name>.json` in the workspace. Each
 * answer is checked as it is typed; answers of an unfinished wizard are offered again.
 */
export function newToolCommand(queries: DocumentQueries, kind: 'smart' | 'llm') {
  return async (): Promise<vscode.Uri | undefined> => {
    const what = kind === 'smart' ? 'smart tool' : 'LLM tool';
    const folder = await targetFolder();
    if (!folder) {
      void vscode.window.showErrorMessage('Open a folder first: the new tool is created in it.');
      return undefined;
    }
    const draft = drafts.get(kind) ?? {};
    drafts.set(kind, draft);
    const name = await vscode.window.showInputBox({
      title: `New ${what} (1/3): name`,
      prompt:
        kind === 'smart'
          ? 'tool_name: unique in the workspace; the file is named <tool_name>.json'
          : 'prompt_name: unique in the workspace; the file is named <prompt_name>.json',
      placeHolder: kind === 'smart' ? 'weather_lookup' : 'Meeting summariser',
      value: draft.name,
      validateInput: (v) => nameProblem(v, folder),
      ignoreFocusOut: true,
    });
    if (name === undefined) return undefined;
    draft.name = name;
    const description = await vscode.window.showInputBox({
      title: `New ${what} (2/3): description`,
      prompt: 'What the tool does, in a sentence.',
      value: draft.description,
      ignoreFocusOut: true,
    });
    if (description === undefined) return undefined;
    draft.description = description;
    const variables = await vscode.window.showInputBox({
      title: `New ${what} (3/3): variables`,
      prompt: 'Input names, separated by commas (names may contain spaces); leave empty for none.',
      placeHolder: kind === 'smart' ? 'city, units' : 'text, target language',
      value: draft.variables,
      validateInput: variablesProblem,
      ignoreFocusOut: true,
    });
    if (variables === undefined) return undefined;
    draft.variables = variables;
    const uri = vscode.Uri.joinPath(folder, fileNameFor(name));
    const answers = { name: name.trim(), description: description.trim(), variables: parseVariableList(variables) };
    const content = await queries.newDefinition(kind, answers);
    if (content === undefined) {
      void vscode.window.showErrorMessage(
        `Could not create the ${what}: the Tool Definition language server is not running (see the Tool Definition log). Your answers are kept for the next try.`,
      );
      return undefined;
    }
    await vscode.workspace.fs.writeFile(uri, Buffer.from(content, 'utf8'));
    drafts.delete(kind);
    await vscode.window.showTextDocument(uri);
    return uri;
  };
}

/** Why a name cannot be a new tool's: empty, not usable as its file's name, or taken in the workspace. */
async function nameProblem(typed: string, folder: vscode.Uri): Promise<string | undefined> {
  const name = typed.trim();
  if (!name) return 'A tool needs a name.';
  const file = fileNameFor(name);
  if (file !== `${name}.json`) {
    const refused = [...name].find((c) => /[\p{Cc}<>:"/\\|?*]/u.test(c));
    return refused
      ? `"${refused}" cannot be in the name: the file is named <name>.json, and file systems refuse it.`
      : 'Not a name a file can have as it is (spaces in a row, a dot at an end, a name Windows reserves, or over 120 characters): the file is named <name>.json.';
  }
  if (await exists(vscode.Uri.joinPath(folder, file))) return `${file} exists in this folder: choose another name.`;
  const elsewhere = await vscode.workspace.findFiles(
    `**/${file.replace(/[[\]{}*?]/g, '[$&]')}`,
    '**/node_modules/**',
    1,
  );
  if (elsewhere.length)
    return `${vscode.workspace.asRelativePath(elsewhere[0])} has this name: a tool's name is unique in the workspace.`;
  return undefined;
}

/** Variable names cannot hold what ends a placeholder. */
function variablesProblem(typed: string): string | undefined {
  const bad = parseVariableList(typed).find((v) => /\{\{|\}\}/.test(v));
  return bad ? `"${bad}": a variable name cannot contain {{ or }}.` : undefined;
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
