import type { CancellationToken, Connection } from 'vscode-languageserver';
import { LSPErrorCodes, ResponseError } from 'vscode-languageserver';

/**
 * Every handler goes through here: a cancelled request answers with the LSP cancel error, and a
 * failure is logged with its context and answered with the fallback, so no input can take the
 * server down.
 */
export function runSafe<T>(
  connection: Connection,
  what: string,
  fallback: T,
  token: CancellationToken | undefined,
  fn: () => T,
): T | ResponseError<void> {
  if (token?.isCancellationRequested) return cancelled();
  try {
    const result = fn();
    return token?.isCancellationRequested ? cancelled() : result;
  } catch (e) {
    logFailure(connection, what, e);
    return fallback;
  }
}

/** `runSafe` for a handler that waits (for the embedded-Python analysis) before it answers. */
export async function runSafeAsync<T>(
  connection: Connection,
  what: string,
  fallback: T,
  token: CancellationToken,
  fn: () => Promise<T>,
): Promise<T | ResponseError<void>> {
  if (token.isCancellationRequested) return cancelled();
  try {
    const result = await fn();
    return token.isCancellationRequested ? cancelled() : result;
  } catch (e) {
    logFailure(connection, what, e);
    return fallback;
  }
}

function cancelled(): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
}

export function logFailure(connection: Connection, what: string, e: unknown): void {
  connection.console.error(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
}
