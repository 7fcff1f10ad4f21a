// The language server in a browser's web worker (dist/web/server.js): messages through postMessage, no disk.
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { browserRuntime, type WorkerScope } from './browser/runtime';
import { startServer } from './lsp/startServer';

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0] & WorkerScope;

startServer(createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self)), browserRuntime(self));
