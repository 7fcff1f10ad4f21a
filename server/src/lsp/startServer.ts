import {
  DidChangeConfigurationNotification,
  ErrorCodes,
  FileChangeType,
  FileOperationPatternKind,
  ResponseError,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type InitializeResult,
  type Position,
  type SymbolInformation,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentKindNotification, WorkspaceTrustNotification, type ToolDiagnosticsParams } from '../protocol';
import { readConfig, type ServerConfig } from '../service/config';
import { fileKey, inFolder } from '../service/fileKey';
import type { Kind } from '../service/kind';
import { getLanguageService, ModelCache, type ToolModel, type ValidationStage } from '../service/languageService';
import { isRuleCode } from '../service/rules';
import { definitionPathFor, goldenDirFor, isTestsFileName, testsPathFor } from '../service/tests/paths';
import { SEMANTIC_LEGEND } from '../service/semanticTokens';
import { VERSION } from '../version';
import { isSearched } from '../workspace/searched';
import { analyseAhead } from './analyseAhead';
import { registerDocumentRequests } from './documentRequests';
import { registerTestSuiteRequests } from './testSuites';
import { immediate } from './immediate';
import { logFailure, runSafe, runSafeAsync } from './runSafe';
import type { ServerRuntime } from './runtime';
import { runInSlices } from './slices';
import { warmUpPython } from './warmUp';
import { DefinitionIndex } from './workspaceIndex';

/** The workspace scan names at most this many folders it cannot read in the log. */
const MAX_UNREADABLE_LOGGED = 20;

/** Go to Symbol in Workspace lists at most this many tools and variables. */
const MAX_WORKSPACE_SYMBOLS = 500;

/**
 * The language server on `connection`: the same in Node and in a browser's web worker, with what
 * differs between them given as `runtime` (see server.ts and browserServer.ts, the two entries).
 */
export function startServer(connection: Connection, runtime: ServerRuntime): void {
  console.log = connection.console.log.bind(connection.console);
  console.error = connection.console.error.bind(connection.console);
  runtime.onUnhandledRejection((e) => connection.console.error(`Unhandled rejection: ${String(e)}`));

  const documents = new TextDocuments(TextDocument);
  const index = new DefinitionIndex(runtime.disk);
  const service = getLanguageService({ workspace: index });
  const models = new ModelCache(service);
  let config: ServerConfig = readConfig(undefined);
  /** The workspace is trusted (the client says so); until then, nothing an author names is fetched. */
  let trusted = false;
  connection.onNotification(WorkspaceTrustNotification, (p) => {
    trusted = p?.trusted === true;
  });
  /** The client keeps secrets (STORE_SECRET_COMMAND): Move to secret is offered. */
  let storesSecrets = false;
  let pullConfiguration = false;
  let folderChanges = false;
  let workspaceFolders: string[] = [];
  /** Kinds the user forced per document, sent by the client. */
  const forcedKinds = new Map<string, Kind>();

  const modelOf = (uri: string) => {
    const doc = documents.get(uri);
    return doc ? models.get(doc, forcedKinds.get(uri)) : undefined;
  };

  const FOLDER_OPERATIONS = {
    filters: [{ scheme: 'file', pattern: { glob: '**/*', matches: FileOperationPatternKind.folder } }],
  };

  connection.onInitialize((params): InitializeResult => {
    pullConfiguration = !!params.capabilities.workspace?.configuration;
    folderChanges = !!params.capabilities.workspace?.workspaceFolders;
    const init = params.initializationOptions as
      { settings?: unknown; trusted?: unknown; secretStorage?: unknown } | undefined;
    config = readConfig(init?.settings);
    trusted = init?.trusted === true;
    storesSecrets = init?.secretStorage === true;
    service.configure(config.settings);
    workspaceFolders = (params.workspaceFolders ?? []).map((f) => f.uri);
    if (!workspaceFolders.length && params.rootUri) workspaceFolders = [params.rootUri];
    return {
      capabilities: {
        workspace: {
          workspaceFolders: { supported: true, changeNotifications: true },
          // Folders created, renamed or deleted in VS Code: the file watcher reports the folder alone,
          // never the definitions inside it (microsoft/vscode#109754).
          fileOperations: { didCreate: FOLDER_OPERATIONS, didRename: FOLDER_OPERATIONS, didDelete: FOLDER_OPERATIONS },
        },
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['"', '{', ':'] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix', 'refactor.rewrite'] },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        foldingRangeProvider: true,
        selectionRangeProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
      },
      serverInfo: { name: 'tooldef', version: VERSION },
    };
  });

  connection.onInitialized(() => {
    if (pullConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'tooldef' });
      void refreshConfig();
    }
    void index.scanFolders(workspaceFolders, logUnreadable).then(() => {
      revalidateAll();
      // Workspaces with smart tools analyse them, and compile the Python analysis, while idle: not
      // on the first open.
      if (index.hasSmartTools())
        setTimeout(() => void analyseAheadOf(index.smartToolsOnDisk(), 'of the workspace').then(warmUp), 50);
    }, logScanFailure);
    // Folders added to or removed from a multi-root workspace change which tool names are taken.
    if (folderChanges) {
      connection.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
        const gone = removed.map((f) => f.uri);
        const come = added.map((f) => f.uri);
        workspaceFolders = [...workspaceFolders.filter((f) => !gone.includes(f)), ...come];
        foldersChanged(gone, come);
      });
    }
  });

  /** Analyses ahead run one after another: the start-up's, then those of files changed on disk since. */
  let analysingAhead: Promise<void> = Promise.resolve();

  /**
   * Analyses the smart tools among `uris` (files on disk, newest first) ahead of opening, after any
   * analysis ahead still running; `what` names them in the log.
   */
  function analyseAheadOf(uris: readonly string[], what: string): Promise<void> {
    const run = async (): Promise<void> => {
      const started = performance.now();
      try {
        const isOpen = (uri: string) => openDocument(uri) !== undefined;
        const disk = runtime.disk;
        if (!disk) return;
        const { files, lines } = await analyseAhead(uris, service, models, isOpen, (uri) => disk.readFile(uri));
        if (!files) return; // all open, kept as they are, or no room left: nothing to tell
        const tools = `${files} smart tool${files === 1 ? '' : 's'} (${lines} lines of Python)`;
        connection.console.info(
          `Analysed ${tools} ${what} ahead of opening in ${Math.round(performance.now() - started)} ms`,
        );
      } catch (e) {
        logFailure(connection, 'analysis ahead of opening', e);
      }
    };
    return (analysingAhead = analysingAhead.then(run));
  }

  /** Smart tools on disk (newest first) whose file key passes `test`. */
  function smartToolsWhere(test: (key: string) => boolean): string[] {
    return index.smartToolsOnDisk().filter((uri) => test(fileKey(uri)));
  }

  function warmUp(): void {
    connection.console.info('Warming the Python analysis up (the workspace has smart tools)');
    const started = performance.now();
    runInSlices(warmUpPython(service), () => false, 'background').then(
      () => connection.console.info(`Python analysis warmed up in ${Math.round(performance.now() - started)} ms`),
      (e) => logFailure(connection, 'warm-up', e),
    );
  }

  async function refreshConfig(): Promise<void> {
    try {
      config = readConfig(await connection.workspace.getConfiguration('tooldef'));
    } catch (e) {
      connection.console.error(`Reading settings failed: ${String(e)}`);
    }
    service.configure(config.settings);
    revalidateAll();
  }

  connection.onDidChangeConfiguration((change) => {
    if (pullConfiguration) {
      void refreshConfig();
    } else {
      config = readConfig((change.settings as { tooldef?: unknown } | undefined)?.tooldef);
      service.configure(config.settings);
      revalidateAll();
    }
  });

  // Validation: coalesced per document (a burst of changes in one turn of the event loop is validated
  // once), and dropped when a newer version arrived meanwhile.
  const pending = new Map<string, object>();

  function scheduleValidation(uri: string): void {
    const ticket = {};
    pending.set(uri, ticket);
    immediate(() => {
      if (pending.get(uri) !== ticket) return; // a later change, or the close, took its place
      pending.delete(uri);
      validate(uri);
    });
  }

  /**
   * Parses, runs the embedded-Python analysis in slices (requests are answered in between; a newer
   * version or a close abandons it) and publishes the diagnostics of that version.
   */
  function validate(uri: string): void {
    const doc = documents.get(uri);
    if (!doc) return;
    if (isTestsFileName(uri)) return void validateTests(doc).catch((e) => logFailure(connection, `validate ${uri}`, e));
    const tests = openDocument(testsPathFor(uri));
    if (tests) scheduleValidation(tests.uri); // its cases are checked against this definition
    const version = doc.version;
    const stale = () => documents.get(uri) !== doc || doc.version !== version;
    const model = runSafe(connection, `parse ${uri}`, undefined, undefined, () => {
      const m = models.get(doc, forcedKinds.get(uri));
      if (index.setOpen(m)) revalidateOthers(uri);
      return m;
    });
    if (!model || model instanceof ResponseError) return;
    /** Publishes the set of `stage`; resolves once it is written to the client. */
    const publish = async (stage: ValidationStage = 'complete'): Promise<void> => {
      const diagnostics = runSafe(connection, `validate ${uri}`, [], undefined, () =>
        service.doValidation(model, stage),
      );
      if (stale() || !Array.isArray(diagnostics)) return;
      const params: ToolDiagnosticsParams = {
        uri,
        version,
        diagnostics,
        ...(stage === 'complete' ? {} : { partial: true }),
      };
      await connection.sendDiagnostics(params);
    };
    const opening = justOpened.delete(uri);
    const kept = runtime.analysisCache;
    // A file opened again (also in a new window) starts from its kept analysis: complete at once.
    if (opening && kept && model.adoptPython((source) => kept.get(source))) {
      // Behind it (once the diagnostics are written), the syntax tree that keeps edits incremental.
      void publish().finally(() => {
        const tree = model.treeSteps();
        if (tree)
          runInSlices(tree, stale, 'background').catch((e: unknown) =>
            logFailure(connection, `Python tree of ${uri}`, e),
          );
      });
      return;
    }
    const python = model.pythonSteps();
    if (!python) return void publish();
    const analyse = (): void =>
      void runInSlices(python, stale).then(
        (done) => {
          if (!done) return;
          const work = model.pythonAnalysisWork;
          if (work)
            connection.console.debug(
              `Python analysis of ${uri}: ${work.analysed} of ${work.chunks} top-level statements analysed, the rest reused`,
            );
          void publish();
          if (opening) keep(model);
        },
        (e) => {
          logFailure(connection, `Python analysis of ${uri}`, e);
          void publish();
        },
      );
    // A file just opened shows its other problems at once, without waiting for the Python analysis
    // (the parser loads and compiles on the first open): the analysis starts once that set is written,
    // since a first slice taken at once would hold the write back behind it (the writer waits for the
    // event loop). On an edit the last set stays until the new one.
    if (opening) void publish('before-python').finally(analyse);
    else analyse();
  }

  /** A tests file's cases against the definition beside it: open in the editor, else as on disk. */
  async function validateTests(doc: TextDocument): Promise<void> {
    const version = doc.version;
    const definition = await definitionBeside(doc);
    const golden = definition && (await runtime.disk?.fileNames(goldenDirFor(definition.document.uri)));
    if (documents.get(doc.uri) !== doc || doc.version !== version) return;
    const diagnostics = runSafe(connection, `validate ${doc.uri}`, [], undefined, () =>
      service.doTestsValidation(doc, definition, golden),
    );
    if (Array.isArray(diagnostics)) void connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
  }

  /** The definition beside a tests file: its open document's model, else its model as on disk. */
  async function definitionBeside(tests: TextDocument): Promise<ToolModel | undefined> {
    const doc = await fileDocument(definitionPathFor(tests.uri));
    if (!doc) return undefined;
    return documents.get(doc.uri) === doc ? models.get(doc, forcedKinds.get(doc.uri)) : service.parse(doc);
  }

  /** A definition's tests file: open in the editor, else as on disk. */
  function testsBeside(definitionUri: string): Promise<TextDocument | undefined> {
    return fileDocument(testsPathFor(definitionUri));
  }

  /** A file's document: open in the editor (its unsaved text), else as on disk; undefined when there is none. */
  async function fileDocument(uri: string): Promise<TextDocument | undefined> {
    const open = openDocument(uri);
    if (open) return open;
    const text = await runtime.disk?.readFile(uri).catch(() => undefined);
    return text === undefined ? undefined : TextDocument.create(uri, 'json', 0, text);
  }

  /** An open tests file and its definition, when `uri` is one and the definition is a tool. */
  async function testsAt(uri: string): Promise<{ doc: TextDocument; definition: ToolModel } | undefined> {
    const doc = isTestsFileName(uri) ? documents.get(uri) : undefined;
    const definition = doc && (await definitionBeside(doc));
    return doc && definition?.kind ? { doc, definition } : undefined;
  }

  /** The open document of a file, however its URI is spelled. */
  function openDocument(uri: string): TextDocument | undefined {
    const key = fileKey(uri);
    return documents.all().find((d) => fileKey(d.uri) === key);
  }

  function revalidateAll(): void {
    for (const doc of documents.all()) scheduleValidation(doc.uri);
  }

  /** A tool name changed: other open definitions may gain or lose a `duplicate-tool-name`. */
  function revalidateOthers(uri: string): void {
    for (const doc of documents.all()) if (doc.uri !== uri) scheduleValidation(doc.uri);
  }

  connection.onNotification(DocumentKindNotification, ({ uri, kind }) => {
    if (kind) forcedKinds.set(uri, kind);
    else forcedKinds.delete(uri);
    scheduleValidation(uri);
  });

  /** A finished analysis into the kept ones (written after the current work, off its path). */
  function keep(model: ToolModel): void {
    const python = model.finishedPython;
    const cache = runtime.analysisCache;
    if (python && cache) setTimeout(() => cache.put(python.embedded.text, python.facts), 0);
  }

  /** Documents opened and not validated yet. */
  const justOpened = new Set<string>();
  documents.onDidOpen((e) => {
    justOpened.add(e.document.uri);
    scheduleValidation(e.document.uri);
  });
  documents.onDidChangeContent((e) => scheduleValidation(e.document.uri));
  documents.onDidClose((e) => {
    const last = models.current(e.document.uri);
    if (last) keep(last);
    pending.delete(e.document.uri);
    justOpened.delete(e.document.uri);
    models.delete(e.document.uri);
    forcedKinds.delete(e.document.uri);
    index.closeDocument(e.document.uri);
    void index.updateFile(e.document.uri).then(() => revalidateOthers(e.document.uri));
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  /** Folders created, renamed or deleted in VS Code: their definitions enter or leave the index. */
  function foldersChanged(gone: readonly string[], added: readonly string[]): void {
    for (const uri of gone) index.forgetFolder(uri);
    void index.scanFolders(added, logUnreadable).then(() => {
      revalidateAll();
      const tools = smartToolsWhere((key) => added.some((folder) => inFolder(key, folder)));
      if (tools.length) void analyseAheadOf(tools, 'in the folders added');
    }, logScanFailure);
  }

  /** A folder the scan cannot read (or a dangling link): said in the log (the first few), as `check` says it. */
  let unreadable = 0;
  function logUnreadable(uri: string): void {
    if (++unreadable > MAX_UNREADABLE_LOGGED) return;
    connection.console.warn(
      unreadable === MAX_UNREADABLE_LOGGED
        ? `Cannot read ${uri}, nor more that are not listed: definitions under them are not known to the workspace's checks (duplicate-tool-name).`
        : `Cannot read ${uri}: definitions under it are not known to the workspace's checks (duplicate-tool-name).`,
    );
  }

  function logScanFailure(e: unknown): void {
    connection.console.error(`Workspace scan failed: ${String(e)}`);
  }

  /** Folders from file operations that a scan of the workspace would search. */
  function searchedFolders(uris: readonly string[]): string[] {
    return uris.filter((uri) => isSearched(uri, workspaceFolders, true));
  }

  connection.workspace.onDidCreateFiles(({ files }) => foldersChanged([], searchedFolders(files.map((f) => f.uri))));
  connection.workspace.onDidRenameFiles(({ files }) =>
    foldersChanged(
      files.map((f) => f.oldUri),
      searchedFolders(files.map((f) => f.newUri)),
    ),
  );
  connection.workspace.onDidDeleteFiles(({ files }) =>
    foldersChanged(
      files.map((f) => f.uri),
      [],
    ),
  );

  connection.onDidChangeWatchedFiles(async (params) => {
    const written = new Set<string>();
    for (const change of params.changes) {
      if (change.type === FileChangeType.Deleted) {
        index.deleteFile(change.uri);
        models.unprepare(change.uri);
      } else if (/\.json$/i.test(change.uri) && isSearched(change.uri, workspaceFolders)) {
        await index.updateFile(change.uri);
        written.add(fileKey(change.uri));
      }
    }
    // Also an approved output added or deleted: open tests files may gain or lose an orphan.
    revalidateAll();
    // Created or changed outside the editor (a pull, a checkout, a generator): ready before opening.
    const tools = smartToolsWhere((key) => written.has(key));
    if (tools.length) void analyseAheadOf(tools, 'changed on disk');
  });

  /**
   * The model of a document for a request whose answer needs the embedded-Python analysis (for a
   * position in tool_code only, with `at`): an analysis still running is finished in slices, beside the
   * validation's and on the same steps, so that other requests are answered meanwhile (VS Code asks for
   * the outline and the semantic tokens as soon as a file opens). Undefined when the document is not
   * open or the request was cancelled meanwhile.
   */
  async function readyModelOf(uri: string, token: CancellationToken, at?: Position): Promise<ToolModel | undefined> {
    const model = modelOf(uri);
    const steps = model?.pythonSteps();
    if (!model || !steps) return model;
    if (at && !model.inPython(model.offsetAt(at))) return model;
    return (await runInSlices(steps, () => token.isCancellationRequested)) ? model : undefined;
  }

  connection.onCompletion((p, token) =>
    isTestsFileName(p.textDocument.uri)
      ? runSafeAsync(connection, 'completion', null, token, async () => {
          const tests = await testsAt(p.textDocument.uri);
          // `{` opens an object: no list pops up for it.
          if (!tests || p.context?.triggerCharacter === '{') return null;
          return service.doTestsComplete(tests.doc, tests.definition, p.position);
        })
      : runSafe(connection, 'completion', null, token, () => {
          const model = modelOf(p.textDocument.uri);
          return model ? service.doComplete(model, p.position, p.context?.triggerCharacter) : null;
        }),
  );

  connection.onHover((p, token) =>
    runSafeAsync(connection, 'hover', null, token, async () => {
      const tests = await testsAt(p.textDocument.uri);
      if (tests) return service.doTestsHover(tests.doc, tests.definition, p.position);
      const model = await readyModelOf(p.textDocument.uri, token, p.position);
      return model ? service.doHover(model, p.position, trusted) : null;
    }),
  );

  connection.onCodeAction((p, token) =>
    runSafe(connection, 'code actions', [], token, () => {
      const ours = p.context.diagnostics.filter((d) => d.source === 'tooldef' && isRuleCode(d.code));
      if (isTestsFileName(p.textDocument.uri)) return service.doTestsCodeActions(ours);
      const model = modelOf(p.textDocument.uri);
      return model ? service.doCodeActions(model, p.range, ours, { storesSecrets }) : [];
    }),
  );

  connection.onDocumentSymbol((p, token) =>
    runSafeAsync(connection, 'document symbols', [], token, async () => {
      const model = await readyModelOf(p.textDocument.uri, token);
      return model ? service.findDocumentSymbols(model) : [];
    }),
  );

  // Go to Symbol in Workspace: tools by name, and their variables (the outline's kinds).
  connection.onWorkspaceSymbol((p, token) =>
    runSafe(connection, 'workspace symbols', [], token, () =>
      index.symbols(p.query, MAX_WORKSPACE_SYMBOLS).map((s): SymbolInformation => ({
        name: s.name,
        kind: s.what === 'tool' ? SymbolKind.Module : SymbolKind.Variable,
        ...(s.container === undefined ? {} : { containerName: s.container }),
        location: {
          uri: s.uri,
          range: {
            start: { line: s.line, character: s.character },
            end: { line: s.line, character: s.character + s.length },
          },
        },
      })),
    ),
  );

  connection.onDefinition((p, token) =>
    runSafeAsync(connection, 'definition', [], token, async () => {
      const tests = await testsAt(p.textDocument.uri);
      if (tests) return service.findTestsDefinition(tests.doc, tests.definition, p.position);
      const model = await readyModelOf(p.textDocument.uri, token);
      return model ? service.findDefinition(model, p.position) : [];
    }),
  );

  connection.onReferences((p, token) =>
    runSafeAsync(connection, 'references', [], token, async () => {
      const model = await readyModelOf(p.textDocument.uri, token);
      return model ? service.findReferences(model, p.position, p.context.includeDeclaration) : [];
    }),
  );

  connection.onDocumentHighlight((p, token) =>
    runSafeAsync(connection, 'document highlights', [], token, async () => {
      const model = await readyModelOf(p.textDocument.uri, token);
      return model ? service.findDocumentHighlights(model, p.position) : [];
    }),
  );

  connection.onPrepareRename((p, token) =>
    runSafeAsync(connection, 'prepare rename', null, token, async () => {
      const tests = await testsAt(p.textDocument.uri);
      if (tests) return service.prepareTestsRename(tests.doc, tests.definition, p.position);
      const model = await readyModelOf(p.textDocument.uri, token);
      return model ? service.prepareRename(model, p.position) : null;
    }),
  );

  connection.onRenameRequest(async (p, token) => {
    const result = await runSafeAsync(connection, 'rename', null, token, async () => {
      const tests = await testsAt(p.textDocument.uri);
      if (tests) return service.doTestsRename(tests.doc, tests.definition, p.position, p.newName);
      const model = await readyModelOf(p.textDocument.uri, token);
      if (!model) return null;
      const renamed = service.doRename(model, p.position, p.newName);
      // The inputs of the definition's tests file that name the variable are renamed with it.
      const oldName = service.prepareRename(model, p.position)?.placeholder;
      const testsDoc = 'edit' in renamed && oldName !== undefined ? await testsBeside(model.document.uri) : undefined;
      return testsDoc && 'edit' in renamed
        ? { edit: service.withTestsRename(renamed.edit, testsDoc, oldName!, p.newName) }
        : renamed;
    });
    if (result === null || result instanceof ResponseError) return result;
    // A refused rename is shown to the user as the request's error message.
    return 'edit' in result ? result.edit : new ResponseError(ErrorCodes.InvalidRequest, result.error);
  });

  connection.onDocumentFormatting((p, token) =>
    runSafe(connection, 'format', [], token, () => {
      const model = modelOf(p.textDocument.uri);
      return model ? service.format(model, undefined, p.options) : [];
    }),
  );

  connection.onDocumentRangeFormatting((p, token) =>
    runSafe(connection, 'range format', [], token, () => {
      const model = modelOf(p.textDocument.uri);
      return model ? service.format(model, p.range, p.options) : [];
    }),
  );

  connection.onFoldingRanges((p, token) =>
    runSafe(connection, 'folding ranges', [], token, () => {
      const model = modelOf(p.textDocument.uri);
      return model ? service.getFoldingRanges(model) : [];
    }),
  );

  connection.onSelectionRanges((p, token) =>
    runSafe(connection, 'selection ranges', [], token, () => {
      const model = modelOf(p.textDocument.uri);
      return model ? service.getSelectionRanges(model, p.positions) : [];
    }),
  );

  connection.languages.semanticTokens.on((p, token) =>
    runSafeAsync(connection, 'semantic tokens', { data: [] }, token, async () => {
      const model = await readyModelOf(p.textDocument.uri, token);
      return { data: model ? service.getSemanticTokens(model) : [] };
    }),
  );

  registerDocumentRequests(connection, {
    synced: (uri, text) => {
      const doc = documents.get(uri);
      return doc?.getText() === text ? models.get(doc, forcedKinds.get(uri)) : undefined;
    },
    settings: () => config.settings,
    workspace: index,
    diagnose: (uri, text, kind) =>
      service.doValidation(service.parse(TextDocument.create(uri, 'tooldef', 0, text), kind)),
    validateForUpload: runtime.validateForUpload,
  });
  registerTestSuiteRequests(connection, { tests: fileDocument, definitionBeside });

  documents.listen(connection);
  connection.listen();
}
