import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { kindOfRoot, mayBeDefinition } from '../../server/src/service/kind';
import { parseJson } from '../../server/src/service/json/tree';
import { DocumentKindNotification } from '../../server/src/protocol';

export const LANGUAGE_ID = 'tooldef';
let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Tool Definitions', { log: true });
  context.subscriptions.push(log);
  context.subscriptions.push(...adoptDefinitionDocuments(log));
  context.subscriptions.push(
    vscode.commands.registerCommand('tooldef.restartServer', async () => {
      await client?.restart();
      log.info('Language server restarted.');
    }),
    vscode.commands.registerCommand('tooldef.showLog', () => log.show()),
  );
  client = createClient(context, log);
  try {
    await client.start();
    context.subscriptions.push(...sendForcedKinds(client));
  } catch (e) {
    log.error(`The tooldef language server failed to start: ${String(e)}`);
    const choice = await vscode.window.showErrorMessage('The Tool Definition language server failed to start.', 'Open Log');
    if (choice) log.show();
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

function createClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { language: LANGUAGE_ID, scheme: 'file' },
      { language: LANGUAGE_ID, scheme: 'untitled' },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.json') },
    outputChannel: log,
    traceOutputChannel: log,
  };
  return new LanguageClient('tooldef', 'Tool Definition Language Server', serverOptions, clientOptions);
}

/**
 * Definition files are ordinary `.json` files. Giving them a language of their own keeps VS Code's
 * JSON support from reporting their syntax errors a second time; every other JSON file stays `json`.
 */
function adoptDefinitionDocuments(log: vscode.LogOutputChannel): vscode.Disposable[] {
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
  if (associatedKind(doc)) return true;
  const text = doc.getText();
  return mayBeDefinition(text) && kindOfRoot(parseJson(text).root) !== undefined;
}

/** The kind `tooldef.files.associations` forces on a document, matched with VS Code's own globs. */
function associatedKind(doc: vscode.TextDocument): 'smart' | 'llm' | undefined {
  const associations = vscode.workspace.getConfiguration('tooldef', doc.uri).get<Record<string, string>>('files.associations') ?? {};
  const hit = Object.entries(associations).find(([pattern, kind]) => (kind === 'smart' || kind === 'llm') && vscode.languages.match({ pattern }, doc) > 0);
  return hit?.[1] as 'smart' | 'llm' | undefined;
}

/** Tells the server which open definitions have a forced kind, now and whenever that can change. */
function sendForcedKinds(lc: LanguageClient): vscode.Disposable[] {
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
