import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { registerCodeLenses } from './codeLens';
import { registerCommands } from './commands';
import {
  adoptDefinitionDocuments,
  LANGUAGE_ID,
  sendForcedKinds,
  sendTrust,
  trackActiveKind,
} from './definitionDocuments';
import { RESULT_SCHEME, ResultDocuments } from './run/results';
import { registerStatusBar } from './statusBar';
import { registerEmbeddedEditing } from './embedded/features';
import { EmbeddedViews } from './embedded/views';
import { ProblemsOnce } from './embedded/problemsOnce';
import { DocumentQueries } from './documentQueries';
import { TestExplorer } from './tests/explorer';
import { CheckTaskProvider, TASK_TYPE } from './checkTask';
import { registerTracebackLinks } from './run/tracebackLinks';
import { SERVER_NODE_ARGS, serverEnvironment } from './serverEnvironment';

let client: LanguageClient | undefined;
/** Each problem shown once: the definition's or its open view's (see embedded/problemsOnce.ts). */
const problems = new ProblemsOnce();

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel('Tool Definition', { log: true });
  client = createClient(context, log);
  // Everything the client needs to know about a definition's content it asks the server, once started.
  const started = client.start().then(
    () => client,
    async (e: unknown) => {
      log.error(`The tooldef language server failed to start: ${String(e)}`);
      const choice = await vscode.window.showErrorMessage(
        'The Tool Definition language server failed to start.',
        'Open Log',
      );
      if (choice) log.show();
      return undefined;
    },
  );
  const queries = new DocumentQueries(started);
  const results = new ResultDocuments();
  const outputDiagnostics = vscode.languages.createDiagnosticCollection('tooldef-output');
  const embedded = new EmbeddedViews(queries, context.storageUri ?? context.globalStorageUri, context.workspaceState);
  problems.attach(embedded, () => client?.diagnostics);
  const tests = new TestExplorer({ extension: context, log, results, queries });
  context.subscriptions.push(
    log,
    results,
    tests,
    outputDiagnostics,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.tasks.registerTaskProvider(TASK_TYPE, new CheckTaskProvider(context)),
    ...adoptDefinitionDocuments(queries, log),
    ...trackActiveKind(queries),
    ...registerCodeLenses(queries),
    ...registerStatusBar(queries),
    ...registerEmbeddedEditing(embedded, problems),
    ...registerTracebackLinks(queries, results, embedded),
    ...registerCommands({
      extension: context,
      log,
      results,
      outputDiagnostics,
      embedded,
      queries,
      tests,
      client: () => client,
    }),
  );
  const running = await started;
  if (running) context.subscriptions.push(...sendForcedKinds(running), sendTrust(running));
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}

function createClient(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const env = serverEnvironment(context.globalStorageUri.fsPath);
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc, options: { env, execArgv: [...SERVER_NODE_ARGS] } },
    debug: {
      module,
      transport: TransportKind.ipc,
      options: { env, execArgv: [...SERVER_NODE_ARGS, '--nolazy', '--inspect=6009'] },
    },
  };
  const clientOptions: LanguageClientOptions = {
    // secretStorage: this client runs tooldef.storeSecret, so the server offers Move to secret.
    initializationOptions: { trusted: vscode.workspace.isTrusted, secretStorage: true },
    documentSelector: [
      { language: LANGUAGE_ID, scheme: 'file' },
      { language: LANGUAGE_ID, scheme: 'untitled' },
      // Tests files stay JSON (the JSON language completes and validates them by their schema); the
      // server checks their cases against the definition beside them.
      { language: 'json', scheme: 'file', pattern: '**/*.tests.json' },
    ],
    synchronize: {
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/*.json'),
        // Approved outputs: a tests file's orphan golden files come and go with them.
        vscode.workspace.createFileSystemWatcher('**/*.golden/*.txt'),
      ],
    },
    outputChannel: log,
    traceOutputChannel: log,
    middleware: { handleDiagnostics: problems.handleDiagnostics },
  };
  return new LanguageClient('tooldef', 'Tool Definition Language Server', serverOptions, clientOptions);
}
