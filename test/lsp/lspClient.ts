// A small LSP client for tests: spawns the built server (`node dist/server.js --stdio`), speaks
// JSON-RPC over its stdio, mirrors the documents it opens and records what the server publishes.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  createMessageConnection,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type InitializeResult,
  type LogMessageParams,
  type MessageConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
  type WorkspaceFolder,
} from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ToolDiagnosticsParams } from '../../server/src/protocol';

/** The repository root: the nearest ancestor of this file (src or compiled) holding dist/ and package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'scripts', 'build.mjs'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(__dirname, '../../..');
    dir = up;
  }
}

export interface StartOptions {
  /** Workspace folders sent in `initialize`; none by default (no disk scan for duplicate names). */
  readonly workspaceFolders?: WorkspaceFolder[] | null;
  /** `initializationOptions` of `initialize`, e.g. `{ settings: { rules: {...} } }`. */
  readonly initializationOptions?: unknown;
  /** Path of the server bundle; $TOOLDEF_SERVER or dist/server.js of the repository by default. */
  readonly serverPath?: string;
  /** Environment of the server process (the tests' own by default). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface ServerLogEntry {
  readonly type: number;
  readonly message: string;
}

type DiagnosticsWaiter = {
  readonly uri: string;
  readonly accept: (p: PublishDiagnosticsParams) => boolean;
  readonly resolve: (p: PublishDiagnosticsParams) => void;
};

export const DEFAULT_TIMEOUT_MS = 10_000;

export class LspClient {
  readonly connection: MessageConnection;
  /** The `initialize` result, set by `start`. */
  initializeResult!: InitializeResult;
  /** Everything the server logged through `window/logMessage`. */
  readonly log: ServerLogEntry[] = [];
  /** The server's stderr, for failure messages. */
  stderr = '';
  /** The latest `publishDiagnostics` per document URI. */
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every `publishDiagnostics`, in the order received. */
  readonly published: ToolDiagnosticsParams[] = [];
  private readonly documents = new Map<string, TextDocument>();
  private waiters: DiagnosticsWaiter[] = [];
  private exited = false;
  private exitCode: number | null = null;
  private exitSignal: NodeJS.Signals | null = null;
  private readonly exitPromise: Promise<void>;

  private constructor(readonly process: ChildProcess) {
    this.exitPromise = new Promise((res) =>
      process.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code;
        this.exitSignal = signal;
        res();
      }),
    );
    process.stderr!.setEncoding('utf8');
    process.stderr!.on('data', (s: string) => {
      this.stderr += s;
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(process.stdout!),
      new StreamMessageWriter(process.stdin!),
    );
    // The server asks the client things (registrations, progress, configuration): answer with null.
    this.connection.onRequest(() => null);
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.set(p.uri, p);
      this.published.push(p);
      const ready = this.waiters.filter((w) => w.uri === p.uri && w.accept(p));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(p);
    });
    this.connection.onNotification(LogMessageNotification.type, (p: LogMessageParams) => {
      this.log.push({ type: p.type, message: p.message });
    });
    this.connection.onError(() => undefined);
    this.connection.onClose(() => undefined);
    this.connection.listen();
  }

  /** Spawns the server and performs the `initialize` / `initialized` handshake. */
  static async start(opts: StartOptions = {}): Promise<LspClient> {
    const root = repoRoot();
    const serverPath = opts.serverPath ?? process.env.TOOLDEF_SERVER ?? join(root, 'dist', 'server.js');
    if (!existsSync(serverPath)) throw new Error(`${serverPath} does not exist: run \`node scripts/build.mjs\` first.`);
    const child = spawn(process.execPath, [serverPath, '--stdio'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: opts.env ?? process.env,
    });
    const client = new LspClient(child);
    LIVE.add(client);
    const capabilities: ClientCapabilities = {
      workspace: {
        configuration: false,
        workspaceFolders: opts.workspaceFolders !== undefined && opts.workspaceFolders !== null,
        applyEdit: true,
      },
      textDocument: {
        synchronization: { dynamicRegistration: false, didSave: false },
        publishDiagnostics: {
          relatedInformation: true,
          versionSupport: true,
          codeDescriptionSupport: true,
          dataSupport: true,
        },
        completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        codeAction: {
          codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor.rewrite'] } },
          dataSupport: true,
        },
        documentSymbol: { hierarchicalDocumentSymbolSupport: true },
        rename: { prepareSupport: true },
        foldingRange: {},
        selectionRange: {},
      },
    };
    try {
      client.initializeResult = await client.withTimeout(
        client.connection.sendRequest(InitializeRequest.type, {
          processId: process.pid,
          rootUri: null,
          capabilities,
          workspaceFolders: opts.workspaceFolders ?? null,
          initializationOptions: opts.initializationOptions,
        }),
        DEFAULT_TIMEOUT_MS,
        'initialize',
      );
      await client.connection.sendNotification(InitializedNotification.type, {});
    } catch (e) {
      await client.dispose();
      throw e;
    }
    return client;
  }

  /** True while the server process runs. */
  get alive(): boolean {
    return !this.exited && this.process.exitCode === null && this.process.signalCode === null;
  }

  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } {
    return { code: this.exitCode, signal: this.exitSignal };
  }

  /** The client's copy of an open document (kept in step with every `change`). */
  document(uri: string): TextDocument {
    const doc = this.documents.get(uri);
    if (!doc) throw new Error(`${uri} is not open`);
    return doc;
  }

  async open(uri: string, text: string, languageId = 'tooldef', version = 1): Promise<TextDocument> {
    const doc = TextDocument.create(uri, languageId, version, text);
    this.documents.set(uri, doc);
    this.diagnostics.delete(uri);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
    return doc;
  }

  /**
   * Sends `didChange`: a string replaces the whole text; an array of events is sent as is
   * (incremental events apply in order). `version` defaults to the next one.
   */
  async change(
    uri: string,
    changes: string | TextDocumentContentChangeEvent[],
    version?: number,
  ): Promise<TextDocument> {
    const doc = this.document(uri);
    const events: TextDocumentContentChangeEvent[] = typeof changes === 'string' ? [{ text: changes }] : changes;
    const next = version ?? doc.version + 1;
    TextDocument.update(doc, events, next);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: next },
      contentChanges: events,
    });
    return doc;
  }

  async close(uri: string): Promise<void> {
    this.documents.delete(uri);
    await this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  /**
   * The diagnostics of `uri` once the server published a set for the client's current version of the
   * document that satisfies `predicate` (the latest set already received counts). Rejects after
   * `timeoutMs` with the last set seen.
   */
  waitForDiagnostics(
    uri: string,
    predicate: (d: Diagnostic[]) => boolean = () => true,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  ): Promise<Diagnostic[]> {
    const complete = (p: ToolDiagnosticsParams) => !p.partial && predicate(p.diagnostics);
    return this.waitForPublication(uri, complete, timeoutMs).then((p) => p.diagnostics);
  }

  /** The first set published for the current version, be it the partial one a smart tool gets on open. */
  waitForFirstDiagnostics(uri: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ToolDiagnosticsParams> {
    return this.waitForPublication(uri, () => true, timeoutMs);
  }

  private waitForPublication(
    uri: string,
    predicate: (p: PublishDiagnosticsParams) => boolean,
    timeoutMs: number,
  ): Promise<PublishDiagnosticsParams> {
    const accept = (p: PublishDiagnosticsParams): boolean => {
      const doc = this.documents.get(uri);
      if (doc && p.version !== undefined && p.version !== doc.version) return false;
      return predicate(p);
    };
    const latest = this.diagnostics.get(uri);
    if (latest && accept(latest)) return Promise.resolve(latest);
    return new Promise<PublishDiagnosticsParams>((res, rej) => {
      const waiter: DiagnosticsWaiter = {
        uri,
        accept,
        resolve: (d) => {
          clearTimeout(timer);
          res(d);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        const last = this.diagnostics.get(uri);
        const seen = last
          ? `last published (version ${String(last.version)}): ${JSON.stringify(
              last.diagnostics.map((d) => ({ code: d.code, range: d.range, message: d.message })),
              null,
              1,
            )}`
          : 'nothing published';
        rej(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for diagnostics of ${uri}; ${seen}${this.alive ? '' : `\nserver exited ${JSON.stringify(this.exitStatus)}; stderr:\n${this.stderr}`}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a request; rejects after `timeoutMs` (the server must answer every request). */
  request<R = unknown>(method: string, params: unknown, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<R> {
    return this.withTimeout(this.connection.sendRequest<R>(method, params), timeoutMs, method);
  }

  async notify(method: string, params: unknown): Promise<void> {
    await this.connection.sendNotification(method, params);
  }

  /** `shutdown` then `exit`; kills the process if it has not ended within `timeoutMs`. */
  async shutdown(timeoutMs = 3000): Promise<void> {
    if (this.alive) {
      try {
        await this.withTimeout(this.connection.sendRequest(ShutdownRequest.type), timeoutMs, 'shutdown');
        await this.connection.sendNotification(ExitNotification.type);
      } catch {
        // fall through to the kill below
      }
    }
    await Promise.race([this.exitPromise, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    this.kill();
  }

  /** Kills the server (SIGKILL) if it still runs and releases the connection. */
  kill(): void {
    if (this.alive) this.process.kill('SIGKILL');
    this.connection.dispose();
    LIVE.delete(this);
  }

  /** Teardown for `after` hooks: a clean shutdown when possible, a kill otherwise. */
  async dispose(): Promise<void> {
    try {
      await this.shutdown();
    } finally {
      this.kill();
    }
  }

  private withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    return new Promise<T>((res, rej) => {
      const timer = setTimeout(
        () =>
          rej(
            new Error(
              `No answer to ${what} within ${ms} ms${this.alive ? '' : ` (server exited ${JSON.stringify(this.exitStatus)}; stderr:\n${this.stderr})`}`,
            ),
          ),
        ms,
      );
      p.then(
        (v) => {
          clearTimeout(timer);
          res(v);
        },
        (e: unknown) => {
          clearTimeout(timer);
          rej(e);
        },
      );
    });
  }
}

/** Servers still running: killed when the test process exits, whatever happened. */
const LIVE = new Set<LspClient>();
process.once('exit', () => {
  for (const c of LIVE) if (c.alive) c.process.kill('SIGKILL');
});
