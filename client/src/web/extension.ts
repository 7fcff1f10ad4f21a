// The extension in a browser (vscode.dev, github.dev, a web worker extension host): every language
// feature, from the language server running as a web worker (dist/web/server.js). What needs this
// machine (running a smart tool's Python, the LLM and upload requests, Edit as Python's files on disk)
// is absent, and its commands say why.
import * as vscode from 'vscode';
import { LanguageClient, type LanguageClientOptions } from 'vscode-languageclient/browser';
import { newToolCommand, setAvatarCommand } from '../authoring/commands';
import {
  adoptDefinitionDocuments,
  LANGUAGE_ID,
  sendForcedKinds,
  sendTrust,
  trackActiveKind,
} from '../definitionDocuments';
import { DocumentQueries } from '../documentQueries';
import { registerStatusBar } from '../statusBar';

/**
 * The web worker global the browser extension host provides (the client compiles without the DOM lib,
 * so the client library's `Worker` parameter is untyped here: the code-server test of the web
 * extension checks the call).
 */
declare const Worker: new (url: string) => { postMessage(message: unknown): void; terminate(): void };

let client: LanguageClient | undefined;

/** Commands of the desktop extension that cannot work here, and why. */
const UNAVAILABLE: Record<string, string> = {
  'tooldef.runSmartTool': "runs the tool's Python on this machine",
  'tooldef.runSmartToolWithDefaults': "runs the tool's Python on this machine",
  'tooldef.stopRun': "runs the tool's Python on this machine",
  'tooldef.manageSecrets': "keeps the secrets a tool's Python is run with on this machine",
  'tooldef.runTests': "runs the tool's cases on this machine",
  'tooldef.approveOutput': "runs the tool's cases on this machine",
  'tooldef.previewPrompt': 'sends the prompt to an LLM endpoint from this machine',
  'tooldef.runLlmTool': 'sends the prompt to an LLM endpoint from this machine',
  'tooldef.setLlmApiKey': 'sends the prompt to an LLM endpoint from this machine',
  'tooldef.upload': 'uploads from this machine',
  'tooldef.setUploadToken': 'uploads from this machine',
  'tooldef.editToolCode': 'opens the embedded code as a file on disk',
  'tooldef.editModelPrompt': 'opens the embedded prompt as a file on disk',
};

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Tool Definition', { log: true });
  const serverMain = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  const clientOptions: LanguageClientOptions = {
    initializationOptions: { trusted: vscode.workspace.isTrusted },
    documentSelector: [{ language: LANGUAGE_ID }],
    outputChannel: log,
    traceOutputChannel: log,
  };
  // vscode-languageclient 10+: the server (its worker) before the client's options.
  client = new LanguageClient(
    'tooldef',
    'Tool Definition Language Server',
    new Worker(serverMain.toString(true)),
    clientOptions,
  );
  const started = client.start().then(
    () => client,
    (e: unknown) => {
      log.error(`The tooldef language server failed to start: ${String(e)}`);
      return undefined;
    },
  );
  const queries = new DocumentQueries(started);
  context.subscriptions.push(
    log,
    ...adoptDefinitionDocuments(queries, log),
    ...trackActiveKind(queries),
    ...registerStatusBar(queries),
    vscode.commands.registerCommand('tooldef.showLog', () => log.show()),
    vscode.commands.registerCommand('tooldef.restartServer', async () => {
      await client?.stop();
      await client?.start();
      log.info('Language server restarted.');
    }),
    vscode.commands.registerCommand('tooldef.newSmartTool', newToolCommand(queries, 'smart')),
    vscode.commands.registerCommand('tooldef.newLlmTool', newToolCommand(queries, 'llm')),
    vscode.commands.registerCommand('tooldef.setAvatar', setAvatarCommand(queries)),
    ...Object.entries(UNAVAILABLE).map(([id, why]) =>
      vscode.commands.registerCommand(id, () =>
        vscode.window.showInformationMessage(
          `This command is not available in VS Code for the Web: it ${why}. Open the folder in VS Code on your computer to use it.`,
        ),
      ),
    ),
  );
  const running = await started;
  if (running) context.subscriptions.push(...sendForcedKinds(running), sendTrust(running));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
