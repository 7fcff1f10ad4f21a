// A smart tool just opened gets its JSON, shape and placeholder problems before its Python is analysed:
// the analysis starts only once that first set has been written to the client. Driven in-process over
// a connection whose writer holds that write back, so the order is checked without a clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createConnection,
  type DataCallback,
  type Disposable,
  type Message,
  type NotificationMessage,
  type RequestMessage,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import type { ToolDiagnosticsParams } from '../../server/src/protocol';
import { startServer } from '../../server/src/lsp/startServer';
import { smartTool } from '../helpers';

class ClientSide extends AbstractMessageReader {
  private callback?: DataCallback;
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return { dispose: () => (this.callback = undefined) };
  }
  send(message: Message): void {
    this.callback!(message);
  }
}

/** Records what the server writes; `hold` may answer a write with a promise that the test settles. */
class ServerSide extends AbstractMessageWriter {
  readonly written: Message[] = [];
  hold?: (message: Message) => Promise<void> | undefined;
  private waiters: (() => void)[] = [];
  write(message: Message): Promise<void> {
    this.written.push(message);
    for (const wake of this.waiters.splice(0)) wake();
    return this.hold?.(message) ?? Promise.resolve();
  }
  end(): void {}
  async until<T>(find: () => T | undefined): Promise<T> {
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }
}

const URI = 'file:///work/greet.json';
const publications = (writer: ServerSide) =>
  writer.written
    .filter((m): m is NotificationMessage => 'method' in m && m.method === 'textDocument/publishDiagnostics')
    .map((m) => m.params as ToolDiagnosticsParams)
    .filter((p) => p.uri === URI);

test('a just-opened smart tool: the Python analysis starts once the first set is written', async () => {
  const client = new ClientSide();
  const writer = new ServerSide();
  startServer(createConnection(client, writer), { onUnhandledRejection: () => {} });
  let id = 0;
  const request = async (method: string, params: object | null): Promise<ResponseMessage> => {
    const message: RequestMessage = { jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) };
    client.send(message);
    return writer.until(() => writer.written.find((m): m is ResponseMessage => 'id' in m && m.id === message.id));
  };
  await request('initialize', { processId: null, rootUri: null, capabilities: {} });
  client.send({ jsonrpc: '2.0', method: 'initialized', params: {} } as NotificationMessage);

  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  writer.hold = (m) => ('method' in m && m.method === 'textDocument/publishDiagnostics' ? held : undefined);
  const text = smartTool({ code: 'def execute(variables):\n    return nmae\n', metadata: { tol_name: 'greet' } });
  client.send({
    jsonrpc: '2.0',
    method: 'textDocument/didOpen',
    params: { textDocument: { uri: URI, languageId: 'tooldef', version: 1, text } },
  } as NotificationMessage);

  // The first set, held back at the writer: whatever the server does meanwhile, no Python analysis.
  const first = await writer.until(() => publications(writer)[0]);
  assert.equal(first.partial, true);
  assert.ok(
    first.diagnostics.some((d) => d.code === 'unknown-field'),
    JSON.stringify(first.diagnostics),
  );
  for (let i = 0; i < 20; i++)
    await request('textDocument/hover', { textDocument: { uri: URI }, position: { line: 1, character: 4 } });
  assert.equal(publications(writer).length, 1, 'no complete set while the first one is being written');

  release();
  const complete = await writer.until(() => publications(writer).find((p) => !p.partial));
  assert.ok(
    complete.diagnostics.some((d) => d.code === 'undefined-name'),
    JSON.stringify(complete.diagnostics),
  );
  await request('shutdown', null);
});
