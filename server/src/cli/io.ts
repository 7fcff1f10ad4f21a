/** What a CLI command may touch, so tests can run commands in-process. */
export interface Io {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

export { VERSION } from '../version';

/** Bad usage: reported with the command's usage text and exit status 2. */
export class UsageError extends Error {}

/** One command-line argument: its flag (an inline `--flag=value` split off) and readers for its value. */
export interface Arg {
  readonly raw: string;
  readonly flag: string;
  /** The flag's value: inline, or the next argument. */
  value(): string;
  /** The value as a positive number of `unit`s. */
  positive(unit: string): number;
  /** The value as a definition kind. */
  kind(): 'smart' | 'llm';
}

/** Walks a command's arguments, reading flag values as the caller asks for them. */
export function* readArgs(args: readonly string[]): Generator<Arg> {
  for (let i = 0; i < args.length; i++) {
    const raw = args[i];
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = (): string => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value.`);
      return v;
    };
    yield {
      raw,
      flag,
      value,
      positive(unit) {
        const text = value();
        const n = Number(text);
        if (!text.trim() || !Number.isFinite(n) || n <= 0)
          throw new UsageError(`${flag} must be a positive number of ${unit}, not "${text}".`);
        return n;
      },
      kind() {
        const k = value();
        if (k !== 'smart' && k !== 'llm') throw new UsageError(`${flag} must be smart or llm, not "${k}".`);
        return k;
      },
    };
  }
}

/**
 * Runs a command: `--help` prints its usage; a UsageError becomes its message, the usage and exit
 * status 2.
 */
export async function withUsage(
  io: Io,
  usage: string,
  args: readonly string[],
  main: () => Promise<number>,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout.write(usage);
    return 0;
  }
  try {
    return await main();
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`tooldef: ${e.message}\n\n${usage}`);
    return 2;
  }
}
