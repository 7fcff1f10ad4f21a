// The language server in Node (dist/server-main.js, started by dist/server.js): stdio or IPC, the disk.
import { createConnection } from 'vscode-languageserver/node';
import { startServer } from './lsp/startServer';
import { nodeRuntime } from './node/runtime';

startServer(createConnection(), nodeRuntime());
