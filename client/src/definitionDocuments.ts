import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { DocumentKindNotification, mayBeDefinition, WorkspaceTrustNotification } from '../../server/src/protocol';
import { associatedKind, type DocumentQueries } from './documentQueries';

export const LANGUAGE_ID = 'tooldef';

/**
 * Definition files are ordinary `.json` files. Giving them a language of their own keeps VS Code's
 * JSON support from reporting their syntax errors a second time; every other JSON file stays `json`.
 */
export function adoptDefinitionDocuments(queries: DocumentQueries, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const adopt = async (doc: vscode.TextDocument): Promise<void> => {
    if (doc.languageId !== 'json' || !(await isDefinition(queries, doc))) return;
    if (doc.isClosed || doc.languageId !== 'json') return; // closed or switched while the server answered
    vscode.languages.setTextDocumentLanguage(doc, LANGUAGE_ID).then(
      () => log.debug(`Treating ${doc.uri.toString()} as a tool definition.`),
      (e: unknown) => log.warn(`Could not switch ${doc.uri.toString()} to tool definition mode: ${String(e)}`),
    );
  };
  const timers = new Map<string, NodeJS.Timeout>();
  const onChange = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.document.languageId !== 'json' || e.contentChanges.length === 0) return;
    const key = e.document.uri.toString();
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => (timers.delete(key), void adopt(e.document)), 400),
    );
  });
  vscode.workspace.textDocuments.forEach((d) => void adopt(d));
  return [
    vscode.workspace.onDidOpenTextDocument((d) => void adopt(d)),
    onChange,
    { dispose: () => timers.forEach(clearTimeout) },
  ];
}

async function isDefinition(queries: DocumentQueries, doc: vscode.TextDocument): Promise<boolean> {
  return (
    associatedKind(doc) !== undefined || (mayBeDefinition(doc.getText()) && (await queries.kindOf(doc)) !== undefined)
  );
}

/** Tells the server which open definitions have a forced kind, now and whenever that can change. */
export function sendForcedKinds(lc: LanguageClient): vscode.Disposable[] {
  const send = (doc: vscode.TextDocument): void => {
    if (doc.languageId !== LANGUAGE_ID) return;
    void lc.sendNotification(DocumentKindNotification, { uri: doc.uri.toString(), kind: associatedKind(doc) ?? null });
  };
  vscode.workspace.textDocuments.forEach(send);
  return [
    vscode.workspace.onDidOpenTextDocument(send),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tooldef.files.associations')) vscode.workspace.textDocuments.forEach(send);
    }),
  ];
}

/** Keeps the `tooldef.activeKind` context key (smart, llm or empty) for menus and keybindings. */
export function trackActiveKind(queries: DocumentQueries): vscode.Disposable[] {
  const update = async (): Promise<void> => {
    const doc = vscode.window.activeTextEditor?.document;
    const kind = doc?.languageId === LANGUAGE_ID ? ((await queries.kindOf(doc)) ?? '') : '';
    // Another editor may have become active while the server answered; its own update follows.
    if (doc !== vscode.window.activeTextEditor?.document) return;
    await vscode.commands.executeCommand('setContext', 'tooldef.activeKind', kind);
  };
  void update();
  let timer: NodeJS.Timeout | undefined;
  return [
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    // A language switch (a definition adopted as `tooldef`) reopens the document in the same editor.
    vscode.workspace.onDidOpenTextDocument((doc) => doc === vscode.window.activeTextEditor?.document && void update()),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== vscode.window.activeTextEditor?.document) return;
      clearTimeout(timer);
      timer = setTimeout(() => void update(), 300);
    }),
    { dispose: () => clearTimeout(timer) },
  ];
}

/** Tells the server when the user trusts the workspace (it started with `initializationOptions.trusted`). */
export function sendTrust(lc: LanguageClient): vscode.Disposable {
  return vscode.workspace.onDidGrantWorkspaceTrust(() =>
    lc.sendNotification(WorkspaceTrustNotification, { trusted: true }).catch(() => undefined),
  );
}
