import type { ServerRuntime } from '../lsp/runtime';

/** What the server uses of a web worker's global scope (typed here: the project compiles without the DOM lib). */
export interface WorkerScope {
  addEventListener(type: 'unhandledrejection', listener: (event: { reason: unknown }) => void): void;
}

/** The language server's runtime in a browser's web worker: no disk, nothing to upload. */
export function browserRuntime(scope: WorkerScope): ServerRuntime {
  return {
    onUnhandledRejection: (listener) => scope.addEventListener('unhandledrejection', (e) => listener(e.reason)),
  };
}
