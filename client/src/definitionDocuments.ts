import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { DocumentKindNotification } from '../../server/src/protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { mayBeDefinition, type Kind } from '../../server/src/service/kind';
import { ToolModel } from '../../server/src/service/model';

export const LANGUAGE_ID = 'tooldef';

/**
 * Definition files are ordinary `.json` files. Giving them a language of their own keeps VS Code's
 * JSON support from reporting their syntax errors a second time; every other JSON file stays `json`.
 */
export function adoptDefinitionDocuments(log: vscode.LogOutputChannel): vscode.Disposable[] {
  const adopt = (doc: vscode.TextDocument): void => {
    if (doc.languageId !== 'json' || !isDefinition(doc)) return;
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
    timers.set(key, setTimeout(() => (timers.delete(key), adopt(e.document)), 400));
  });
  vscode.workspace.textDocuments.forEach(adopt);
  return [vscode.workspace.onDidOpenTextDocument(adopt), onChange, { dispose: () => timers.forEach(clearTimeout) }];
}

function isDefinition(doc: vscode.TextDocument): boolean {
  return associatedKind(doc) !== undefined || (mayBeDefinition(doc.getText()) && kindOf(doc) !== undefined);
}

/** Parsed documents by version: the code lens, status bar, menus and commands all ask after each edit. */
const parsed = new WeakMap<vscode.TextDocument, ToolModel>();

/**
 * The parsed definition (the service's model, without its features), with the kind forced by
 * `tooldef.files.associations` if any: the server parses the same text with the same forced kind.
 */
export function modelOf(doc: vscode.TextDocument): ToolModel {
  const forced = associatedKind(doc);
  const known = parsed.get(doc);
  if (known?.version === doc.version && known.forcedKind === forced) return known;
  const model = new ToolModel(TextDocument.create(doc.uri.toString(), LANGUAGE_ID, doc.version, doc.getText()), forced);
  parsed.set(doc, model);
  return model;
}

/** The kind of a definition document: forced by `tooldef.files.associations`, else detected. */
export function kindOf(doc: vscode.TextDocument): Kind | undefined {
  return modelOf(doc).kind;
}

/** The kind `tooldef.files.associations` forces on a document, matched with VS Code's own globs. */
export function associatedKind(doc: vscode.TextDocument): Kind | undefined {
  const associations = vscode.workspace.getConfiguration('tooldef', doc.uri).get<Record<string, string>>('files.associations') ?? {};
  const hit = Object.entries(associations).find(([pattern, kind]) => (kind === 'smart' || kind === 'llm') && vscode.languages.match({ pattern }, doc) > 0);
  return hit?.[1] as Kind | undefined;
}

/** Tells the server which open definitions have a forced kind, now and whenever that can change. */
export function sendForcedKinds(lc: LanguageClient): vscode.Disposable[] {
  const send = (doc: vscode.TextDocument): void => {
    if (doc.languageId !== LANGUAGE_ID) return;
    void lc.sendNotification(DocumentKindNotification.type, { uri: doc.uri.toString(), kind: associatedKind(doc) ?? null });
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
export function trackActiveKind(): vscode.Disposable[] {
  const update = (): void => {
    const doc = vscode.window.activeTextEditor?.document;
    const kind = doc?.languageId === LANGUAGE_ID ? (kindOf(doc) ?? '') : '';
    void vscode.commands.executeCommand('setContext', 'tooldef.activeKind', kind);
  };
  update();
  let timer: NodeJS.Timeout | undefined;
  return [
    vscode.window.onDidChangeActiveTextEditor(update),
    // A language switch (a definition adopted as `tooldef`) reopens the document in the same editor.
    vscode.workspace.onDidOpenTextDocument((doc) => doc === vscode.window.activeTextEditor?.document && update()),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document !== vscode.window.activeTextEditor?.document) return;
      clearTimeout(timer);
      timer = setTimeout(update, 300);
    }),
    { dispose: () => clearTimeout(timer) },
  ];
}
