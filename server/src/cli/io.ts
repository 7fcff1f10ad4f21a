import { isAbsolute, relative } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

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

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

/**
 * A command's options and positionals, parsed by `util.parseArgs` (strict: an unknown option, a
 * missing value or a value given to a switch is bad usage, said in the CLI's words). `--` ends the
 * options.
 */
export function parseCommandArgs<T extends OptionsConfig>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (e) {
    throw usageError(e);
  }
}

function usageError(e: unknown): unknown {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return e;
  const flag = /(?:option|Option) '(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`Unknown option ${flag}.`);
  if (/argument missing/.test(message)) return new UsageError(`${flag} needs a value.`);
  if (/does not take an argument/.test(message)) return new UsageError(`${flag} takes no value.`);
  if (/ambiguous/.test(message))
    return new UsageError(`${flag} needs a value; write ${flag}=VALUE for a value that starts with "-".`);
  return new UsageError(message);
}

/** An option's value as a positive number of `unit`s. */
export function positiveNumber(flag: string, text: string, unit: string): number {
  const n = Number(text);
  if (!text.trim() || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive number of ${unit}, not "${text}".`);
  return n;
}

/** An option's value as one of `choices` (`--format must be text, json or sarif, not "x".`). */
export function oneOf<const C extends string>(flag: string, text: string, choices: readonly C[]): C {
  if ((choices as readonly string[]).includes(text)) return text as C;
  throw new UsageError(`${flag} must be ${orList(choices)}, not "${text}".`);
}

/** `a, b or c`. */
export function orList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}` : items.join('');
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

/**
 * Waits for `work`, calling `stop` on Ctrl-C (SIGINT) meanwhile; says whether it was interrupted, so
 * that the command can exit 130 as shells expect.
 */
export async function untilInterrupted<T>(
  work: Promise<T>,
  stop: () => void,
): Promise<{ value: T; interrupted: boolean }> {
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    stop();
  };
  process.on('SIGINT', onSigint);
  try {
    return { value: await work, interrupted };
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** A path as the CLI shows it: relative to the working directory when inside it, else as it is. */
export function displayPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
