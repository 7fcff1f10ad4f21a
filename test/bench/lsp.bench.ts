// The language server as an editor sees it: `node dist/server.js --stdio` spoken to over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import {
  CompletionRequest,
  CompletionTriggerKind,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type CompletionList,
  type CompletionItem,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { ToolDiagnosticsParams } from '../../server/src/protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { BenchFile } from './fixtures';
import { sleep, stats, type Stats } from './stats';
import { ALLOCATOR_ENV, SERVER_NODE_ARGS } from '../../client/src/serverEnvironment';

const CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] } },
  },
  workspace: { configuration: false, workspaceFolders: false },
};

export interface Memory {
  readonly rssMB: number;
  readonly hwmMB: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMB: kb('VmRSS') / 1024, hwmMB: kb('VmHWM') / 1024 };
}

const GC_MARKER = 'tooldef-bench-gc ';

class Server {
  readonly connection: ProtocolConnection;
  private readonly waiters: { uri: string; version: number; partial: boolean; resolve: (t: number) => void }[] = [];
  private readonly docs = new Map<string, TextDocument>();
  private stderr = '';
  private exited = false;
  private onGc?: (m: NodeJS.MemoryUsage) => void;
  /** Messages the server logged (`window/logMessage`). */
  readonly logged: string[] = [];

  private constructor(readonly proc: ChildProcess) {
    let line = '';
    proc.stderr!.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-4000);
      line += d.toString();
      for (let nl = line.indexOf('\n'); nl >= 0; nl = line.indexOf('\n')) {
        const text = line.slice(0, nl);
        line = line.slice(nl + 1);
        if (text.startsWith(GC_MARKER)) this.onGc?.(JSON.parse(text.slice(GC_MARKER.length)) as NodeJS.MemoryUsage);
      }
    });
    proc.on('exit', () => (this.exited = true));
    this.connection = createProtocolConnection(
      new StreamMessageReader(proc.stdout!),
      new StreamMessageWriter(proc.stdin!),
    );
    this.connection.onNotification(PublishDiagnosticsNotification.type, (p: ToolDiagnosticsParams) => {
      const now = performance.now();
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.uri === p.uri && (p.version === undefined || p.version >= w.version) && (w.partial || !p.partial)) {
          this.waiters.splice(i, 1);
          w.resolve(now);
        }
      }
    });
    this.connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => null));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onNotification('window/logMessage', (p: { message: string }) => void this.logged.push(p.message));
    this.connection.listen();
  }

  /** Spawns and initializes a server; `initializeMs` is spawn → initialize result. */
  static async start(
    root: string,
    gcHook = false,
    workspaceFolder?: string,
    codeCache: string | null = CODE_CACHE,
    analysisCache?: string,
  ): Promise<{ server: Server; initializeMs: number }> {
    // As the extension starts it (client/src/serverEnvironment.ts).
    const hook = [...SERVER_NODE_ARGS, ...(gcHook ? ['-r', join(root, 'test/bench/gc-preload.cjs')] : [])];
    // e.g. TOOLDEF_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=out/bench/prof" to profile the servers.
    hook.push(...(process.env.TOOLDEF_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean));
    const t0 = performance.now();
    // TOOLDEF_BENCH_SERVER: another build of the server (e.g. unminified, to read a profile).
    const script = process.env.TOOLDEF_BENCH_SERVER ?? join(root, 'dist/server.js');
    // As the extension starts it: with a directory for its code cache (server/src/boot.ts).
    const env = {
      ...process.env,
      ...ALLOCATOR_ENV,
      ...(codeCache === null ? {} : { TOOLDEF_CODE_CACHE: codeCache }),
      ...(analysisCache ? { TOOLDEF_ANALYSIS_CACHE: analysisCache } : {}),
    };
    const proc = spawn(process.execPath, [...hook, script, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
    const server = new Server(proc);
    await server.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: workspaceFolder ? [{ uri: pathToFileURL(workspaceFolder).href, name: 'bench' }] : null,
      capabilities: CAPABILITIES,
      initializationOptions: {},
    });
    const initializeMs = performance.now() - t0;
    await server.connection.sendNotification(InitializedNotification.type, {});
    return { server, initializeMs };
  }

  /** Forces a full GC in a server started with `gcHook` and returns its RSS and heap afterwards. */
  async collectGarbage(): Promise<Memory & { heapUsedMB: number; externalMB: number }> {
    const reported = new Promise<NodeJS.MemoryUsage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not answer the GC signal')), 5000);
      this.onGc = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
    this.proc.kill('SIGUSR2');
    const m = await reported;
    await sleep(200);
    return {
      ...memoryOf(this.pid),
      heapUsedMB: m.heapUsed / 1024 / 1024,
      externalMB: (m.external + m.arrayBuffers) / 1024 / 1024,
    };
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** When the next set for `version` arrives (`partial`: or a partial one). */
  private diagnostics(uri: string, version: number, partial = false, timeoutMs = 20000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no diagnostics for ${uri}@${version} within ${timeoutMs} ms; server stderr: ${this.stderr}`),
          ),
        timeoutMs,
      );
      this.waiters.push({
        uri,
        version,
        partial,
        resolve: (t) => {
          clearTimeout(timer);
          resolve(t);
        },
      });
    });
  }

  /**
   * didOpen → the first publishDiagnostics (a smart tool's is partial, without its Python's problems)
   * and → the complete set, in ms.
   */
  async open(file: BenchFile): Promise<{ firstMs: number; completeMs: number }> {
    const doc = TextDocument.create(file.uri, 'tooldef', 1, file.text);
    this.docs.set(file.uri, doc);
    const first = this.diagnostics(file.uri, 1, true);
    const complete = this.diagnostics(file.uri, 1);
    const t0 = performance.now();
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: file.uri, languageId: 'tooldef', version: 1, text: file.text },
    });
    return { firstMs: (await first) - t0, completeMs: (await complete) - t0 };
  }

  /** Sends one incremental change; resolves with didChange → publishDiagnostics of that version, in ms. */
  async change(uri: string, startOffset: number, endOffset: number, text: string): Promise<number> {
    const { done, t0 } = this.sendChange(uri, startOffset, endOffset, text);
    return (await done) - t0;
  }

  sendChange(
    uri: string,
    startOffset: number,
    endOffset: number,
    text: string,
  ): { version: number; done: Promise<number>; t0: number } {
    const doc = this.docs.get(uri)!;
    const range = { start: doc.positionAt(startOffset), end: doc.positionAt(endOffset) };
    const version = doc.version + 1;
    const next = TextDocument.update(doc, [{ range, text }], version);
    this.docs.set(uri, next);
    const done = this.diagnostics(uri, version);
    const t0 = performance.now();
    void this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    return { version, done, t0 };
  }

  /** Resolves with the match once the server logged a message matching `pattern`. */
  async waitForLog(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (const m of this.logged) {
        const match = m.match(pattern);
        if (match) return match;
      }
      if (performance.now() > deadline)
        throw new Error(`the server did not log ${String(pattern)} within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await sleep(20);
    }
  }

  position(uri: string, offset: number) {
    return this.docs.get(uri)!.positionAt(offset);
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    try {
      await Promise.race([this.connection.sendRequest(ShutdownRequest.type), sleep(2000)]);
      await this.connection.sendNotification(ExitNotification.type);
    } catch {
      // already gone
    }
    await Promise.race([gone, sleep(2000)]);
    if (!this.exited) this.proc.kill('SIGKILL');
    this.connection.dispose();
  }
}

export interface RequestResult {
  readonly label: string;
  readonly file: string;
  readonly stats: Stats;
  /** Items (completion) or whether a hover came back. */
  readonly answer: string;
}

/** The code cache directory of this bench run (a new one each run: its first server writes the cache). */
const CODE_CACHE = join(mkdtempSync(join(tmpdir(), 'tooldef-bench-')), 'code-cache');

export interface LspResult {
  /** From the code cache, as the extension starts the server. */
  readonly coldStart: Stats;
  /** The first start of a build, which writes the cache. */
  readonly firstStartMs: number;
  /** Without a code cache directory (as `node dist/server.js --stdio` by hand). */
  readonly coldStartUncached: Stats;
  /** spawn → exit of `node -e ''`: the part of the cold start that is Node itself. */
  readonly nodeBaseline: Stats;
  readonly idle: Memory;
  readonly hugeLlmOpen: Memory;
  readonly bothHugeOpen: Memory;
  readonly afterSession: Memory;
  /** After the session and a forced full GC: what the server really retains. */
  readonly afterSessionGc: Memory & { heapUsedMB: number; externalMB: number };
  /** How long the start-up warm-up of the Python analysis took (wall time, in slices). */
  readonly warmUpMs: number;
  readonly didOpen: { file: string; firstMs: number; completeMs: number }[];
  readonly didChange: { file: string; where: string; stats: Stats }[];
  readonly requests: RequestResult[];
  /** didChange immediately followed by completion: time to the completion answer. */
  readonly completionAfterEdit: { file: string; stats: Stats };
}

async function timeRequests(
  n: number,
  warmup: number,
  send: () => Promise<unknown>,
): Promise<{ stats: Stats; last: unknown }> {
  let last: unknown;
  for (let i = 0; i < warmup; i++) last = await send();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    last = await send();
    samples.push(performance.now() - t0);
  }
  return { stats: stats(samples), last };
}

function describe(answer: unknown): string {
  if (answer === null || answer === undefined) return 'null';
  const items = Array.isArray(answer) ? (answer as CompletionItem[]) : (answer as CompletionList).items;
  if (items) return `${items.length} items`;
  return 'hover';
}

/** Alternately types `x` at the offset and deletes it again, so the document stays the same size. */
async function editSession(server: Server, file: BenchFile, reps: number, warmup: number): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + reps; i++) {
    const ms =
      i % 2 === 0
        ? await server.change(file.uri, file.editOffset, file.editOffset, 'x')
        : await server.change(file.uri, file.editOffset, file.editOffset + 1, '');
    if (i >= warmup) samples.push(ms);
  }
  return stats(samples);
}

export async function runLspBench(
  files: readonly BenchFile[],
  root: string,
  log: (s: string) => void = () => {},
): Promise<LspResult> {
  const byId = (id: string) => files.find((f) => f.id === id)!;

  // Node's own start-up on this machine (spawn → exit of an empty script), to read the cold start against.
  const bare: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) =>
      spawn(process.execPath, ['-e', ''])
        .on('exit', () => resolve())
        .on('error', reject),
    );
    bare.push(performance.now() - t0);
  }
  const nodeBaseline = stats(bare);

  // Cold start: spawn → initialize answered. The first start writes the code cache (a second after
  // it started, and again as it exits); the starts after it read it, as the extension's do. Like the
  // extension's first start, which opening a definition causes, it opens definitions.
  const first = await Server.start(root);
  const firstStartMs = first.initializeMs;
  for (const id of ['small-smart', 'small-llm']) await first.server.open(byId(id));
  await first.server.stop();
  const cold: number[] = [];
  const uncached: number[] = [];
  for (let i = 0; i < 9; i++) {
    for (const [samples, cache] of [
      [cold, CODE_CACHE],
      [uncached, null],
    ] as const) {
      const { server, initializeMs } = await Server.start(root, false, undefined, cache);
      samples.push(initializeMs);
      await server.stop();
    }
  }
  const coldStart = stats(cold);
  const coldStartUncached = stats(uncached);
  log(
    `  cold start median ${coldStart.median.toFixed(1)} ms (without a code cache ${coldStartUncached.median.toFixed(1)} ms)`,
  );

  // Server A: memory, and everything on the huge files.
  const { server: a } = await Server.start(root, true);
  await sleep(500);
  const idle = memoryOf(a.pid);
  const hugeLlm = byId('huge-llm');
  const hugeSmart = byId('huge-smart');
  const didOpen: LspResult['didOpen'] = [];
  let warmUpMs: number;
  didOpen.push({ file: hugeLlm.id, ...(await a.open(hugeLlm)) });
  await sleep(1000);
  const hugeLlmOpen = memoryOf(a.pid);
  didOpen.push({ file: hugeSmart.id, ...(await a.open(hugeSmart)) });
  await sleep(1000);
  const bothHugeOpen = memoryOf(a.pid);
  log(
    `  memory idle ${idle.rssMB.toFixed(1)} MB, huge LLM open ${hugeLlmOpen.rssMB.toFixed(1)} MB, both huge open ${bothHugeOpen.rssMB.toFixed(1)} MB`,
  );

  const didChange: LspResult['didChange'] = [];
  for (const f of [hugeLlm, hugeSmart]) {
    didChange.push({
      file: f.id,
      where: f.kind === 'llm' ? 'model_prompt' : 'tool_code',
      stats: await editSession(a, f, 30, 4),
    });
    log(`  didChange ${f.id}: median ${didChange[didChange.length - 1].stats.median.toFixed(1)} ms`);
  }

  const requests: RequestResult[] = [];
  const request = async (
    label: string,
    server: Server,
    f: BenchFile,
    offset: number,
    kind: 'completion' | 'hover',
    trigger?: string,
  ) => {
    const position = server.position(f.uri, offset);
    const send = () =>
      kind === 'completion'
        ? server.connection.sendRequest(CompletionRequest.type, {
            textDocument: { uri: f.uri },
            position,
            context: trigger
              ? { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: trigger }
              : { triggerKind: CompletionTriggerKind.Invoked },
          })
        : server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: f.uri }, position });
    const { stats: s, last } = await timeRequests(60, 5, send);
    requests.push({ label, file: f.id, stats: s, answer: describe(last) });
  };
  await request('completion in {{ of the prompt', a, hugeLlm, hugeLlm.placeholderCompletionOffset!, 'completion', '{');
  await request('completion on a property key', a, hugeLlm, hugeLlm.propertyKeyCompletionOffset, 'completion');
  await request('completion on a property key', a, hugeSmart, hugeSmart.propertyKeyCompletionOffset, 'completion');
  await request('hover on a placeholder', a, hugeLlm, hugeLlm.placeholderHoverOffset!, 'hover');
  await request('hover on a metadata key', a, hugeLlm, hugeLlm.metadataKeyOffset, 'hover');
  await request('hover on a metadata key', a, hugeSmart, hugeSmart.metadataKeyOffset, 'hover');

  // Typing then completing at once: the completion answer waits for whatever the edit costs.
  const afterEdit: number[] = [];
  const completionPosition = a.position(hugeLlm.uri, hugeLlm.placeholderCompletionOffset!);
  for (let i = 0; i < 24; i++) {
    const { done } =
      i % 2 === 0
        ? a.sendChange(hugeLlm.uri, hugeLlm.editOffset, hugeLlm.editOffset, 'x')
        : a.sendChange(hugeLlm.uri, hugeLlm.editOffset, hugeLlm.editOffset + 1, '');
    const t0 = performance.now();
    await a.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri: hugeLlm.uri },
      position: completionPosition,
      context: { triggerKind: CompletionTriggerKind.TriggerCharacter, triggerCharacter: '{' },
    });
    if (i >= 4) afterEdit.push(performance.now() - t0);
    await done;
  }
  const completionAfterEdit = { file: hugeLlm.id, stats: stats(afterEdit) };
  await sleep(500);
  const afterSession = memoryOf(a.pid);
  const afterSessionGc = await a.collectGarbage();
  await a.stop();

  // Server B: the small and large files.
  const { server: b } = await Server.start(root);
  for (const id of ['small-smart', 'small-llm', 'large-smart', 'large-llm'])
    didOpen.push({ file: id, ...(await b.open(byId(id))) });
  for (const id of ['large-llm', 'large-smart', 'small-llm', 'small-smart']) {
    const f = byId(id);
    didChange.push({
      file: f.id,
      where: f.kind === 'llm' ? 'model_prompt' : 'tool_code',
      stats: await editSession(b, f, 60, 6),
    });
    log(`  didChange ${f.id}: median ${didChange[didChange.length - 1].stats.median.toFixed(1)} ms`);
  }
  // Another large smart tool opened once the server has analysed Python before (its code differs, so
  // nothing is reused): the first open above pays for compiling the parser and the analysis.
  const largeSmart = byId('large-smart');
  const another: BenchFile = {
    ...largeSmart,
    id: 'large-smart (2nd file, server warm)',
    uri: largeSmart.uri.replace('.json', '-2.json'),
    text: largeSmart.text.replace(/helper_/g, 'helper2_'),
  };
  didOpen.push({ file: another.id, ...(await b.open(another)) });
  const largeLlm = byId('large-llm');
  await request(
    'completion in {{ of the prompt',
    b,
    largeLlm,
    largeLlm.placeholderCompletionOffset!,
    'completion',
    '{',
  );
  await request('hover on a placeholder', b, largeLlm, largeLlm.placeholderHoverOffset!, 'hover');
  await b.stop();

  // Server C: started on a workspace folder holding a smart tool, so it warms the Python analysis up
  // while idle; the large smart tool is opened once that is done, as a user would open it.
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-bench-'));
  try {
    writeFileSync(join(folder, 'small.json'), byId('small-smart').text);
    const { server: c } = await Server.start(root, false, folder);
    const warmed = await c.waitForLog(/warmed up in (\d+) ms/, 20_000);
    warmUpMs = Number(warmed[1]);
    didOpen.push({ file: 'large-smart (after the start-up warm-up)', ...(await c.open(largeSmart)) });
    await c.stop();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  // Server D: the large smart tool is a file of the workspace folder, analysed while idle after
  // start-up; the user then opens that file.
  const withLarge = mkdtempSync(join(tmpdir(), 'tooldef-bench-'));
  try {
    const path = join(withLarge, 'large-smart.json');
    writeFileSync(path, largeSmart.text);
    const { server: d } = await Server.start(root, false, withLarge);
    await d.waitForLog(/warmed up in (\d+) ms/, 30_000);
    didOpen.push({
      file: 'large-smart (a workspace file, analysed ahead)',
      ...(await d.open({ ...largeSmart, uri: pathToFileURL(path).href })),
    });
    await d.stop();
  } finally {
    rmSync(withLarge, { recursive: true, force: true });
  }

  // Servers E and F share a folder for kept analyses, as two windows of one VS Code do: E opens the
  // large smart tool (and keeps its analysis); F, started afresh, opens it again.
  const kept = mkdtempSync(join(tmpdir(), 'tooldef-bench-analysis-'));
  try {
    const { server: e } = await Server.start(root, false, undefined, CODE_CACHE, kept);
    await e.open(largeSmart);
    const written = () =>
      readdirSync(kept).some((build) => readdirSync(join(kept, build)).some((f) => f.endsWith('.json')));
    while (!written()) await sleep(10);
    await e.stop();
    const { server: f } = await Server.start(root, false, undefined, CODE_CACHE, kept);
    didOpen.push({ file: 'large-smart (reopened in a new window: its kept analysis)', ...(await f.open(largeSmart)) });
    await f.stop();
  } finally {
    rmSync(kept, { recursive: true, force: true });
  }

  rmSync(dirname(CODE_CACHE), { recursive: true, force: true });
  return {
    coldStart,
    firstStartMs,
    coldStartUncached,
    nodeBaseline,
    idle,
    hugeLlmOpen,
    bothHugeOpen,
    afterSession,
    afterSessionGc,
    didOpen,
    didChange,
    requests,
    completionAfterEdit,
    warmUpMs,
  };
}
