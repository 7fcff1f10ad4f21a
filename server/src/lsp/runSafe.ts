import type { CancellationToken, Connection } from 'vscode-languageserver';
import { LSPErrorCodes, ResponseError } from 'vscode-languageserver';

/**
 * Every handler goes through here: a cancelled request answers with the LSP cancel error, and a
 * failure is logged with its context and answered with the fallback, so no input can take the
 * server down.
 */
export function runSafe<T>(connection: Connection, what: string, fallback: T, token: CancellationToken | undefined, fn: () => T): T | ResponseError<void> {
  if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
  try {
    const result = fn();
    if (token?.isCancellationRequested) return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
    return result;
  } catch (e) {
    logFailure(connection, what, e);
    return fallback;
  }
}

export function logFailure(connection: Connection, what: string, e: unknown): void {
  connection.console.error(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
}
