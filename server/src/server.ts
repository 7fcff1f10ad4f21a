// The language server in Node (dist/server-main.js, started by dist/server.js): stdio or IPC, the disk.
import { createConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver/node';
import { startServer } from './lsp/startServer';
import { nodeRuntime } from './node/runtime';

startServer(process.argv.includes('--stdio') ? stdioConnection() : createConnection(), nodeRuntime());

/**
 * A connection over stdin/stdout that ends the process when the message stream breaks (a header that
 * is not one, a body that is not JSON): the reader cannot find the next message after that, so the
 * server would stay up and never answer again. Exiting lets the client see it and start a new one.
 */
function stdioConnection() {
  const reader = new StreamMessageReader(process.stdin);
  reader.onError((e) => {
    process.stderr.write(
      `tooldef language server: the message stream from the client is broken (${e.message}); exiting so that the client can start a new server.\n`,
    );
    process.exit(1);
  });
  return createConnection(reader, new StreamMessageWriter(process.stdout));
}
