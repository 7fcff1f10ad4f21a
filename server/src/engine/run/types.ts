/**
 * Types of a local run of a smart tool (issue 4). Shared by the CLI (`tooldef run`) and the VS Code
 * client; nothing here imports `vscode`.
 */

/** Why a run did not return a string. */
export type RunErrorKind =
  /** `execute` raised; `type` and `traceback` say what. */
  | 'exception'
  /** `tool_code` raised while its module body ran (a SyntaxError, an ImportError …), before `execute`. */
  | 'load'
  /** `tool_code` defines no callable `execute`. */
  | 'no-execute'
  /** `execute` returned something other than a `str`; `returnType` and `returnRepr` say what. */
  | 'not-str'
  /** The tool's process ended before `execute` returned: `sys.exit`, `os._exit`, a crash (`exitCode`/`signal`). */
  | 'exited'
  /** The tool called `input()`: stdin is closed in the service. */
  | 'input'
  /** A limit was hit and the tool's whole process tree was killed; `RunResult.limit` says which. */
  | 'limit'
  /** Stopped by the caller (`stop()`, the abort signal, Ctrl-C). */
  | 'cancelled'
  /** The environment could not be set up: `requirements` could not be installed (pip's own output in `output`). */
  | 'setup'
  /** No usable Python interpreter. */
  | 'python'
  /** The returned string is too large to pass back. */
  | 'result-too-large'
  /** The requested limits are not numbers, below the minimum or above the service's: nothing ran. */
  | 'limits'
  /** A secret referenced by tool_code has no value, or a value its literal cannot hold: nothing ran. */
  | 'secret'
  /** The runner itself failed (a bug, or the machine refused something): never the tool's fault. */
  | 'runner';

export interface RunError {
  readonly kind: RunErrorKind;
  /** A complete sentence for the user. */
  readonly message: string;
  /** The exception's type name (`exception`, `load`, `input`). */
  readonly type?: string;
  /** Python's traceback, frames of the runner removed; `tool_code` lines show as `File "tool_code", line N`. */
  readonly traceback?: string;
  /** `not-str`: the type of the returned value, e.g. `dict`, and its (truncated) repr. */
  readonly returnType?: string;
  readonly returnRepr?: string;
  /** `exited`: the exit status, or the signal that ended the process (POSIX). */
  readonly exitCode?: number;
  readonly signal?: string;
  /** `setup`: pip's own output (its tail when very long). */
  readonly output?: string;
}

export interface RunProcess {
  readonly pid: number;
  readonly command: string;
}

/**
 * How the limits were enforced: a cgroup v2 (Linux), polling as subreaper (Linux), `ps` polling
 * (macOS), a Job Object (Windows).
 */
export type LimitMechanism = 'cgroup' | 'poll' | 'process-group' | 'job-object';

export interface RunResult {
  readonly ok: boolean;
  /** The string `execute` returned (when `ok`). */
  readonly result?: string;
  readonly error?: RunError;
  /** The limit that stopped the run, when one did (then `error.kind` is `limit`). */
  readonly limit?: 'time' | 'memory';
  /** Wall-clock time of the tool itself (setup excluded). */
  readonly elapsedMs: number;
  /** Peak memory of the whole process tree, in MiB (summed over its processes; cgroup: the cgroup's peak). */
  readonly peakMemoryMb: number;
  /** The tool printed more than the output cap: the rest was not forwarded (the run went on). */
  readonly outputTruncated?: boolean;
  /** Bytes the tool wrote to stdout and stderr together, forwarded or not. */
  readonly outputBytes?: number;
  /** Processes the tool started that were still running after `execute` returned; they were killed. */
  readonly leftovers?: readonly RunProcess[];
  /** Processes killed because of a limit or a stop. */
  readonly killed?: readonly RunProcess[];
  readonly mechanism?: LimitMechanism;
  /** Why a stronger mechanism was not used (e.g. no writable cgroup v2 with the memory controller). */
  readonly mechanismNote?: string;
  /**
   * `sandbox`: the tool ran in its own namespaces, judged from outside; it could not see, signal or
   * forge its judge. `none`: the tool ran beside its supervisor, which it could reach. Absent: nothing ran.
   */
  readonly isolation?: 'sandbox' | 'none';
  /**
   * `measured`: the peak is the kernel's (cgroup, Job Object); `sampled`: polled, a tool can overshoot
   * between polls.
   */
  readonly memory?: 'measured' | 'sampled';
  /** Things the user should know that are not failures (limits lowered, output capped, leftovers killed). */
  readonly notices: readonly string[];
  /** The limits the run had, after clamping. */
  readonly limits: EffectiveLimits;
  /** Setup time (finding Python, creating or reusing the environment), outside `elapsedMs`. */
  readonly setupMs?: number;
  readonly environment?: { readonly dir: string; readonly cached: boolean };
}

export interface EffectiveLimits {
  readonly timeoutMs: number;
  readonly memoryMb: number;
}

export type RunStage = 'python' | 'setup' | 'run';

export interface RunProgress {
  readonly stage: RunStage;
  readonly message: string;
}

export interface RunOptions {
  /** `metadata.tool_code`. */
  readonly code: string;
  /** The `variables` dict `execute` receives: one entry per declared variable. */
  readonly variables: Readonly<Record<string, string>>;
  /** `metadata.requirements`: newline-separated PEP 508 lines (empty or absent: none). */
  readonly requirements?: string;
  /** An interpreter chosen by the user (trusted setting, Python extension, `--python`); else python3/python on PATH. */
  readonly python?: string;
  /** Requested limits; values above the service's (15 min, 10 GiB) are lowered to them. */
  readonly timeoutMs?: number;
  readonly memoryMb?: number;
  /** Extra `pip install` arguments from the caller (e.g. `--no-index`, `--find-links DIR`); never from the file. */
  readonly pipArgs?: readonly string[];
  /** Where environments are cached; default `defaultCacheDir()`. */
  readonly cacheDir?: string;
  /** The tool's working directory; default a fresh empty directory, removed after the run. */
  readonly cwd?: string;
  /**
   * Where PATH, the locale and proxy settings are taken from (default `process.env`); the tool and pip
   * get only those (see toolEnvironment.ts), never the rest of it.
   */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Values of the secret references (`<API_KEY>` in a string literal of `code`), by name: written into
   * the copy that runs, and redacted (as `<API_KEY>`) from every output and the result.
   */
  readonly secrets?: Readonly<Record<string, string>>;
  /** Variables given to the tool and pip on purpose, on top of the minimal environment. */
  readonly toolEnv?: Readonly<Record<string, string>>;
  /** Bytes of stdout+stderr forwarded before the rest is dropped (default 10 MiB). */
  readonly outputCapBytes?: number;
  /**
   * Default: the strongest mechanism available (a sandbox with bwrap, else unshare; else the legacy
   * supervisor). The others exist for tests: `bwrap` and `unshare` pick a sandbox's launcher, `poll`
   * the legacy supervisor on Linux, `process-group` macOS's `ps` polling on any POSIX system.
   */
  readonly mechanism?: 'auto' | 'bwrap' | 'unshare' | 'poll' | 'process-group';
  /** For tests: `sampled` makes a sandboxed run sample its process tree as where no memory cgroup can be made. */
  readonly accounting?: 'auto' | 'sampled';
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RunProgress) => void;
  /** Setup log: pip's output, as it comes. */
  readonly onLog?: (text: string) => void;
  /** The tool's stdout and stderr, live (UTF-8 decoded), and the runner's `[tooldef]` notices on stderr. */
  readonly onStdout?: (text: string) => void;
  readonly onStderr?: (text: string) => void;
}

export interface RunHandle {
  readonly result: Promise<RunResult>;
  /** Stops the run (setup or tool); the result then reports `cancelled`. */
  stop(): void;
}
