/** What a CLI command may touch, so tests can run commands in-process. */
export interface Io {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

export const VERSION = '0.1.0';

/** Bad usage: reported with the command's usage text and exit status 2. */
export class UsageError extends Error {}
