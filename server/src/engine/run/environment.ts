import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseRequirements } from '../../service/python/requirements';
import { runLogged, type ProcessOutcome } from './process';
import { versionAtLeast, type PythonInfo } from './python';

/**
 * The tool's environment, like the service's "initial setup": a virtual environment with the tool's
 * `requirements`, cached per distinct (normalised) requirements text, interpreter and pip arguments.
 *
 * Cache layout under `<cacheDir>/venvs/`:
 *   <key>-<random>/   an environment, built in place and never moved (a venv's scripts hold absolute paths)
 *   <key>.ready        the commit point: names the directory of a complete environment for <key>; written
 *                      to a temporary file and renamed over, so a reader sees a complete environment or none.
 * A build that fails or is stopped is deleted; directories no pointer names (a lost race, a killed build)
 * are removed after a day.
 */

export interface Environment {
  /** The environment's interpreter: it runs the runner and the tool. */
  readonly python: string;
  readonly dir: string;
  readonly cached: boolean;
  readonly requirements: readonly string[];
}

/** The environment could not be set up. `output` holds the failing command's own output (pip's message). */
export class SetupError extends Error {
  constructor(
    message: string,
    readonly output: string = '',
  ) {
    super(message);
  }
}

export class SetupCancelled extends Error {
  constructor() {
    super('The setup was stopped.');
  }
}

/**
 * pip ≥ 22.3 can install into another interpreter's environment (`pip --python`), so venvs need no pip
 * of their own.
 */
const PIP_WITH_PYTHON_OPTION = [22, 3];
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;
const MARKER = 'tooldef-env.json';

export interface NormalisedRequirements {
  /** One requirement per entry, comments and blank lines removed, sorted, duplicates removed. */
  readonly lines: string[];
  /** Lines the policy refuses, as `line N: <the line>: <why>`; nothing is installed while there is one. */
  readonly problems: string[];
}

/**
 * The requirement lines of `metadata.requirements`, by the same parser and policy as `tooldef check`'s
 * `invalid-requirement` (service/python/requirements.ts): only packages named from an index. A pip
 * option, a URL, a path or a line continuation could point pip at code the caller did not choose.
 */
export function normaliseRequirements(text: string | undefined): NormalisedRequirements {
  const source = text ?? '';
  const { requirements, problems } = parseRequirements(source);
  const lineOf = (offset: number): number => source.slice(0, offset).split(/\r\n|\r|\n/).length;
  const lineText = (offset: number): string => source.split(/\r\n|\r|\n/)[lineOf(offset) - 1].trim();
  const lines = new Set(requirements.map((r) => source.slice(r.start, r.end).trim()));
  return {
    lines: [...lines].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b)),
    problems: problems.map((p) => `line ${lineOf(p.start)}: ${lineText(p.start)}: ${p.message}`),
  };
}

/** The cache key of an environment: everything that decides what it contains. */
export function environmentKey(
  python: PythonInfo,
  requirements: readonly string[],
  pipArgs: readonly string[],
): string {
  const material = JSON.stringify({ v: 1, python: python.executable, version: python.version, requirements, pipArgs });
  return createHash('sha256').update(material).digest('hex').slice(0, 24);
}

/**
 * `$XDG_CACHE_HOME/tooldef` or `~/.cache/tooldef`; `~/Library/Caches/tooldef` on macOS;
 * `%LOCALAPPDATA%\tooldef\Cache` on Windows.
 */
export function defaultCacheDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'tooldef', 'Cache');
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'tooldef');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'tooldef');
}

/**
 * Where tooldef caches what it installs: `$TOOLDEF_CACHE_DIR` when set, else `defaultCacheDir`. Run
 * environments go under `venvs/`; the test set-up puts code-server beside them
 * (scripts/setup-code-server.sh reads the same variable, with the same default on Linux).
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLDEF_CACHE_DIR || defaultCacheDir(env);
}

export function venvPython(dir: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python');
}

export interface PrepareOptions {
  readonly python: PythonInfo;
  readonly requirements?: string;
  readonly pipArgs?: readonly string[];
  readonly cacheDir: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
  readonly onProgress?: (message: string) => void;
  readonly onLog?: (text: string) => void;
  /** Runs one step (venv, pip): the run's sandbox and limits when there are any; default `runLogged`. */
  readonly runStep?: StepRunner;
}

/** A set-up step's outcome; `limit` when the step was stopped by the run's time or memory limit. */
export type StepOutcome = ProcessOutcome & { readonly limit?: 'time' | 'memory' };
export type StepRunner = (
  command: string,
  args: readonly string[],
  opts: {
    cwd?: string;
    env: NodeJS.ProcessEnv;
    signal?: AbortSignal;
    onOutput?: (text: string) => void;
    /** The environment being built: the one folder of the cache a step may write. */
    building: string;
  },
) => Promise<StepOutcome>;

/** Returns the environment for the requirements, building it when it is not cached yet. */
export async function prepareEnvironment(opts: PrepareOptions): Promise<Environment> {
  const { lines, problems } = normaliseRequirements(opts.requirements);
  if (problems.length)
    throw new SetupError(`The requirements cannot be installed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  const pipArgs = opts.pipArgs ?? [];
  const key = environmentKey(opts.python, lines, pipArgs);
  const root = join(opts.cacheDir, 'venvs');
  const pointer = join(root, `${key}.ready`);
  const existing = await readyEnvironment(root, pointer);
  if (existing) {
    opts.onProgress?.(
      lines.length ? `Using the cached environment for ${describe(lines)}.` : 'Using the cached environment.',
    );
    return { python: venvPython(existing), dir: existing, cached: true, requirements: lines };
  }
  await fs.mkdir(root, { recursive: true });
  await removeOrphans(root).catch(() => undefined);
  const dir = join(root, `${key}-${randomBytes(4).toString('hex')}`);
  try {
    await build(dir, lines, pipArgs, opts);
    await fs.writeFile(
      join(dir, MARKER),
      JSON.stringify(
        { requirements: lines, pipArgs, python: opts.python.executable, created: new Date().toISOString() },
        null,
        2,
      ),
    );
    const tmp = `${pointer}.${randomBytes(4).toString('hex')}.tmp`;
    await fs.writeFile(tmp, `${dir.slice(root.length + 1)}\n`);
    await fs.rename(tmp, pointer);
  } catch (e) {
    await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
  return { python: venvPython(dir), dir, cached: false, requirements: lines };
}

async function readyEnvironment(root: string, pointer: string): Promise<string | undefined> {
  let name: string;
  try {
    name = (await fs.readFile(pointer, 'utf8')).trim();
  } catch {
    return undefined;
  }
  if (!/^[0-9a-f]{24}-[0-9a-f]+$/.test(name)) return undefined;
  const dir = join(root, name);
  // The base interpreter may have been removed or upgraded since: then the venv's python is gone too.
  return existsSync(venvPython(dir)) && existsSync(join(dir, MARKER)) ? dir : undefined;
}

function describe(lines: readonly string[]): string {
  return lines.length > 3 ? `${lines.slice(0, 3).join(', ')} and ${lines.length - 3} more` : lines.join(', ');
}

async function build(
  dir: string,
  lines: readonly string[],
  pipArgs: readonly string[],
  opts: PrepareOptions,
): Promise<void> {
  const env = {
    ...(opts.env ?? process.env),
    PIP_NO_INPUT: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PYTHONUNBUFFERED: '1',
  };
  const runStep = opts.runStep ?? runLogged;
  const base = opts.python.executable;
  const outerPip = versionAtLeast(opts.python.pipVersion, PIP_WITH_PYTHON_OPTION);
  const withPip = lines.length > 0 && !outerPip;
  opts.onProgress?.('Creating a virtual environment…');
  opts.onLog?.(`$ ${base} -m venv${withPip ? '' : ' --without-pip'} ${dir}\n`);
  await fs.mkdir(dir, { recursive: true }); // made first, so that a sandbox can leave just it writable
  const venv = await runStep(base, ['-m', 'venv', ...(withPip ? [] : ['--without-pip']), dir], {
    env,
    signal: opts.signal,
    onOutput: opts.onLog,
    building: dir,
  });
  check(venv, 'Creating the virtual environment failed', opts.python);
  if (!existsSync(venvPython(dir)))
    throw new SetupError(`Creating the virtual environment failed: ${venvPython(dir)} was not created.`, venv.output);
  if (!lines.length) return;

  opts.onProgress?.(`Installing ${describe(lines)}…`);
  const python = venvPython(dir);
  const install = [
    'install',
    '--disable-pip-version-check',
    '--no-input',
    '--no-warn-script-location',
    ...pipArgs,
    ...lines,
  ];
  const [cmd, args] = outerPip
    ? [base, ['-m', 'pip', '--python', python, ...install]]
    : [python, ['-m', 'pip', ...install]];
  opts.onLog?.(`$ ${cmd} ${args.join(' ')}\n`);
  const pip = await runStep(cmd, args, { cwd: dir, env, signal: opts.signal, onOutput: opts.onLog, building: dir });
  check(pip, `Installing the requirements (${describe(lines)}) failed`, opts.python);
}

function check(outcome: StepOutcome, what: string, python: PythonInfo): void {
  if (outcome.cancelled) throw new SetupCancelled();
  if (outcome.limit)
    throw new SetupError(
      `${what}: it went over the run's ${outcome.limit} limit (set-up runs under the same limits as the tool).`,
      outcome.output,
    );
  if (outcome.spawnError) throw new SetupError(`${what}: cannot start ${python.executable} (${outcome.spawnError}).`);
  if (outcome.code === 0) return;
  const status = outcome.code === null ? `was killed by ${outcome.signal}` : `exited with status ${outcome.code}`;
  const hint = /ensurepip is not available|No module named venv/.test(outcome.output)
    ? ' This Python has no working venv module (on Debian/Ubuntu: apt install python3-venv).'
    : '';
  throw new SetupError(`${what}: it ${status}.${hint}`, outcome.output);
}

async function removeOrphans(root: string): Promise<void> {
  const names = await fs.readdir(root);
  const named = new Set<string>();
  for (const n of names.filter((n) => n.endsWith('.ready'))) {
    named.add((await fs.readFile(join(root, n), 'utf8').catch(() => '')).trim());
  }
  const now = Date.now();
  for (const n of names) {
    const full = join(root, n);
    if (/^[0-9a-f]{24}-[0-9a-f]+$/.test(n) && !named.has(n)) {
      const st = await fs.stat(full).catch(() => undefined);
      if (st && now - st.mtimeMs > ORPHAN_AGE_MS)
        await fs.rm(full, { recursive: true, force: true }).catch(() => undefined);
    } else if (n.endsWith('.tmp')) {
      const st = await fs.stat(full).catch(() => undefined);
      if (st && now - st.mtimeMs > ORPHAN_AGE_MS) await fs.rm(full, { force: true }).catch(() => undefined);
    }
  }
}
