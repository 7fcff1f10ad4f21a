import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * A sandbox for code that runs on the user's behalf (the tool, pip): on Linux, its own user, PID, mount,
 * IPC and cgroup namespaces, no capabilities, inside a memory cgroup that the caller made. From inside,
 * no process of the caller can be seen or signalled; when the namespace's first process ends, the
 * kernel kills every other process of the run, however detached. /dev/shm is a private tmpfs (gone
 * with the run, its pages charged to the cgroup); the cgroup tree is hidden, so no process can move
 * itself out of its cgroup; the `readOnly` paths (the cached environments) are mounted read-only.
 *
 * Two launchers, whichever works here: bubblewrap (`bwrap`, the sanctioned way on distributions that
 * restrict unprivileged user namespaces to it, e.g. Ubuntu 24.04), else util-linux's `unshare` and
 * `setpriv`. Not protected: the file system elsewhere (the tool runs as the user), the network.
 */
export type Launcher = 'bwrap' | 'unshare';
export type Sandbox = { readonly launcher: Launcher; readonly programs: Readonly<Record<string, string>> };
export type SandboxSupport =
  ({ readonly available: true } & Sandbox) | { readonly available: false; readonly why: string };

/**
 * Runs as the namespace's root (unshare only; bwrap mounts itself): private mounts, then the command
 * without capabilities.
 */
const UNSHARE_INNER = [
  'set -e',
  'setpriv=$1; work=$2; n=$3; shift 3',
  'mount -t tmpfs -o mode=1777,nosuid,nodev tooldef-shm /dev/shm',
  'if [ -d /sys/fs/cgroup ]; then mount -t tmpfs -o ro,mode=555 tooldef-no-cgroups /sys/fs/cgroup; fi',
  'while [ "$n" -gt 0 ]; do mount --bind "$1" "$1"; mount -o remount,bind,ro "$1"; shift; n=$((n - 1)); done',
  // A writable folder inside a read-only one (the environment being built) is bound again on top.
  'n=$1; shift',
  'while [ "$n" -gt 0 ]; do mount --bind "$1" "$1"; mount -o remount,bind,rw "$1"; shift; n=$((n - 1)); done',
  'cd "$work"',
  // fd 2 until here is the launcher's own (its errors are the runner's, not the tool's); fd 4 is the command's stderr.
  'exec 2>&4 4>&-',
  'exec "$setpriv" --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"',
].join('\n');

/** Inside bwrap (already without capabilities): the command's stderr is fd 4, as above. */
const BWRAP_INNER = 'exec 2>&4 4>&-; exec "$@"';

/** Moves itself into the cgroup before anything else runs, so no instruction of the run is outside it. */
const JOIN_CGROUP = 'echo $$ > "$0" && exec "$@"';

function onPath(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

const probed = new Map<Launcher, SandboxSupport>();

/**
 * Whether this machine can sandbox a run, with `launcher` or (by default) bwrap, else unshare; each
 * probed once per process by starting an empty sandbox.
 */
export function sandboxSupport(launcher?: Launcher): SandboxSupport {
  if (launcher) {
    if (!probed.has(launcher)) probed.set(launcher, probe(launcher));
    return probed.get(launcher)!;
  }
  const bwrap = sandboxSupport('bwrap');
  if (bwrap.available) return bwrap;
  const unshare = sandboxSupport('unshare');
  return unshare.available ? unshare : { available: false, why: `${bwrap.why}; ${unshare.why}` };
}

function probe(launcher: Launcher): SandboxSupport {
  if (process.platform !== 'linux') return { available: false, why: `no sandbox on ${process.platform}` };
  const names = launcher === 'bwrap' ? ['bwrap'] : ['unshare', 'setpriv'];
  const programs: Record<string, string> = {};
  for (const name of names) {
    const path = onPath(name);
    if (!path) return { available: false, why: `${name} is not installed` };
    programs[name] = path;
  }
  const sandbox = { launcher, programs };
  const [program, ...args] = launchArgs(sandbox, { cwd: '/', readOnly: [], argv: ['true'] });
  const r = spawnSync(program, args, {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.status === 0) return { available: true, ...sandbox };
  const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n').at(-1);
  return { available: false, why: `${launcher} cannot make a sandbox here (${why})` };
}

/** The launcher's command line, its program first. */
function launchArgs(sandbox: Sandbox, spec: Pick<SandboxSpec, 'cwd' | 'readOnly' | 'writable' | 'argv'>): string[] {
  const p = sandbox.programs;
  const { cwd, readOnly, argv } = spec;
  const writable = spec.writable ?? [];
  if (sandbox.launcher === 'bwrap') {
    return [
      p.bwrap,
      ...['--unshare-user', '--uid', '0', '--gid', '0', '--unshare-pid', '--unshare-ipc', '--unshare-cgroup-try'],
      ...['--die-with-parent', '--new-session', '--cap-drop', 'ALL'],
      ...['--dev-bind', '/', '/', '--proc', '/proc', '--tmpfs', '/dev/shm', '--tmpfs', '/sys/fs/cgroup'],
      ...readOnly.flatMap((path) => ['--ro-bind', path, path]),
      ...writable.flatMap((path) => ['--bind', path, path]),
      ...['--chdir', cwd, '--', 'sh', '-c', BWRAP_INNER, 'sh', ...argv],
    ];
  }
  // setpriv --pdeathsig: if the caller dies, unshare dies, and --kill-child takes the namespace with it.
  return [
    p.setpriv,
    ...['--pdeathsig', 'KILL', '--', p.unshare],
    ...[
      '--user',
      '--map-root-user',
      '--pid',
      '--fork',
      '--kill-child',
      '--mount',
      '--mount-proc',
      '--ipc',
      '--cgroup',
      '--propagation',
      'private',
      '--',
    ],
    ...[
      'sh',
      '-c',
      UNSHARE_INNER,
      'sh',
      p.setpriv,
      cwd,
      String(readOnly.length),
      ...readOnly,
      String(writable.length),
      ...writable,
      ...argv,
    ],
  ];
}

/** How many first-born processes stand between the launcher and the command (the namespace's init, bwrap's stub). */
export function chainDepth(launcher: Launcher): number {
  return launcher === 'bwrap' ? 2 : 1;
}

/**
 * The signal that ended the command, where the launcher reports one as an exit status: bwrap exits with
 * 128 + the signal; unshare re-raises it on itself, so it needs no translation.
 */
export function signalOfStatus(launcher: Launcher, code: number | null): number | undefined {
  return launcher === 'bwrap' && code !== null && code > 128 && code < 128 + 65 ? code - 128 : undefined;
}

export interface SandboxSpec {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The working directory inside; it stays writable. */
  readonly cwd: string;
  /** Mounted read-only inside (the cached environments). */
  readonly readOnly: readonly string[];
  /** Folders inside a read-only one that stay writable (the environment being built). */
  readonly writable?: readonly string[];
  /** The run's cgroup's `cgroup.procs`, when it has one. */
  readonly joinCgroup?: string;
}

/**
 * Starts `argv` in a sandbox. stdio of the returned process: 0 stdin, 1 the command's stdout, 2 the
 * launcher's own errors (set-up failures), 3 the outcome pipe, 4 the command's stderr.
 */
export function spawnSandboxed(spec: SandboxSpec, sandbox: Sandbox): ChildProcess {
  const launch = launchArgs(sandbox, spec);
  const [program, ...args] = spec.joinCgroup ? ['/bin/sh', '-c', JOIN_CGROUP, spec.joinCgroup, ...launch] : launch;
  return spawn(program, args, {
    env: spec.env,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
}
