import { execFile, type ExecFileException } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The oldest Python the runner supports (it uses only the standard library of 3.8). */
export const MIN_PYTHON: readonly [number, number] = [3, 8];

export interface PythonInfo {
  /** What was asked for: the explicit path, or `python3` / `python`. */
  readonly command: string;
  /** `sys.executable`: the real interpreter (a pyenv shim or a launcher resolved). */
  readonly executable: string;
  readonly version: readonly [number, number, number];
  /** The version of pip installed for it, if any (`pip --python` needs 22.3). */
  readonly pipVersion?: string;
}

export interface PythonAttempt {
  readonly command: string;
  readonly problem: string;
}

/** No interpreter works; `attempts` says what each candidate did. */
export class PythonNotFoundError extends Error {
  constructor(
    message: string,
    readonly attempts: readonly PythonAttempt[],
  ) {
    super(message);
  }
}

/** Interpreters that answered recently: a session of runs does not pay an interpreter start-up each time. */
const verified = new Map<string, { info: PythonInfo; at: number }>();
const VERIFIED_TTL_MS = 5 * 60 * 1000;

// Python 2 compatible, so that an old `python` is recognised and named rather than failing obscurely.
const PROBE = [
  'import sys, json',
  'pip = None',
  'try:',
  '    import importlib.util',
  '    if importlib.util.find_spec("pip") is not None:',
  '        import pip',
  '        pip = pip.__version__',
  'except Exception:',
  '    pass',
  'sys.stdout.write(json.dumps({"version": list(sys.version_info[:3]), "executable": sys.executable, "pip": pip}))',
].join('\n');

/**
 * Finds a Python ≥ 3.8: `explicit` when given (and then only it: a path the user chose that does not
 * work is an error, not a reason to run something else), else `python3`, then `python` on PATH.
 * Each candidate is verified by running it.
 */
export async function findPython(
  opts: { explicit?: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal } = {},
): Promise<PythonInfo> {
  const candidates = opts.explicit ? [opts.explicit] : ['python3', 'python'];
  const attempts: PythonAttempt[] = [];
  for (const command of candidates) {
    const key = `${command}\0${(opts.env ?? process.env).PATH ?? ''}`;
    const known = verified.get(key);
    if (known && Date.now() - known.at < VERIFIED_TTL_MS && existsSync(known.info.executable)) return known.info;
    const r = await probe(command, opts.env, opts.signal);
    if ('info' in r) {
      verified.set(key, { info: r.info, at: Date.now() });
      return r.info;
    }
    attempts.push({ command, problem: r.problem });
  }
  const tried = attempts.map((a) => `  ${a.command}: ${a.problem}`).join('\n');
  const message = opts.explicit
    ? `The Python interpreter ${opts.explicit} cannot run tools:\n${tried}\nChoose a Python ${MIN_PYTHON.join('.')} or later.`
    : `No Python ${MIN_PYTHON.join('.')} or later was found on PATH:\n${tried}\nInstall Python 3, or name an interpreter (CLI: --python PATH; VS Code: the Python extension or the tooldef.python.path setting).`;
  throw new PythonNotFoundError(message, attempts);
}

async function probe(
  command: string,
  env: NodeJS.ProcessEnv | undefined,
  signal: AbortSignal | undefined,
): Promise<{ info: PythonInfo } | { problem: string }> {
  const out = await new Promise<{ error?: ExecFileException; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      ['-c', PROBE],
      { env: env ?? process.env, timeout: 20_000, windowsHide: true, maxBuffer: 1 << 20, signal, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ error: error ?? undefined, stdout, stderr }),
    );
  });
  if (out.error) {
    if (out.error.code === 'ENOENT') return { problem: 'not found' };
    if (out.error.code === 'EACCES') return { problem: 'not executable' };
    if (out.error.name === 'AbortError') return { problem: 'cancelled' };
    if (out.error.killed) return { problem: 'did not answer within 20 s' };
    const said = (out.stderr || out.stdout || out.error.message).trim().split('\n').slice(-3).join(' ');
    return { problem: `failed (${said || `exit status ${out.error.code}`})` };
  }
  let parsed: { version?: unknown; executable?: unknown; pip?: unknown };
  try {
    parsed = JSON.parse(out.stdout.trim()) as typeof parsed;
  } catch {
    return { problem: `did not answer like a Python interpreter (${out.stdout.trim().slice(0, 80) || 'no output'})` };
  }
  const v = parsed.version;
  if (!Array.isArray(v) || v.length < 3 || !v.every((n) => typeof n === 'number'))
    return { problem: 'reported no version' };
  const version = [v[0], v[1], v[2]] as [number, number, number];
  if (version[0] < MIN_PYTHON[0] || (version[0] === MIN_PYTHON[0] && version[1] < MIN_PYTHON[1])) {
    return { problem: `is Python ${version.join('.')}; ${MIN_PYTHON.join('.')} or later is needed` };
  }
  const executable = typeof parsed.executable === 'string' && parsed.executable ? parsed.executable : command;
  return {
    info: { command, executable, version, pipVersion: typeof parsed.pip === 'string' ? parsed.pip : undefined },
  };
}

/** True when `version` (e.g. "23.2.1") is at least `min` (e.g. [22, 3]). */
export function versionAtLeast(version: string | undefined, min: readonly number[]): boolean {
  if (!version) return false;
  const parts = version.split('.').map((p) => parseInt(p, 10));
  for (let i = 0; i < min.length; i++) {
    const p = Number.isNaN(parts[i]) || parts[i] === undefined ? 0 : parts[i];
    if (p !== min[i]) return p > min[i];
  }
  return true;
}
