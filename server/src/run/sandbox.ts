import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { MemoryCgroup } from './cgroup';

/**
 * A sandbox for code that runs on the user's behalf (the tool, pip): on Linux, its own user, PID, mount,
 * IPC and cgroup namespaces (util-linux `unshare`), capabilities dropped (`setpriv`), inside a memory
 * cgroup that the caller made. From inside, no process of the caller can be seen or signalled; the
 * namespace's first process is the command itself, and when it ends the kernel kills every other
 * process of the run, however detached. /dev/shm is a private tmpfs (gone with the run, its pages
 * charged to the cgroup); the cgroup tree is hidden, so no process can move itself out of its cgroup;
 * the `readOnly` paths (the cached environments) are mounted read-only.
 *
 * Not protected: the file system elsewhere (the tool runs as the user), the network.
 */
export type SandboxSupport = { readonly available: true; readonly unshare: string; readonly setpriv: string } | { readonly available: false; readonly why: string };

/** Runs as the namespace's root (before the capabilities are dropped): private mounts, then the command. */
const INNER = [
  'set -e',
  'setpriv=$1; work=$2; n=$3; shift 3',
  'mount -t tmpfs -o mode=1777,nosuid,nodev tooldef-shm /dev/shm',
  'if [ -d /sys/fs/cgroup ]; then mount -t tmpfs -o ro,mode=555 tooldef-no-cgroups /sys/fs/cgroup; fi',
  'while [ "$n" -gt 0 ]; do mount --bind "$1" "$1"; mount -o remount,bind,ro "$1"; shift; n=$((n - 1)); done',
  'cd "$work"',
  // fd 2 until here is the launcher's own (its errors are the runner's, not the tool's); fd 4 is the command's stderr.
  'exec 2>&4 4>&-',
  'exec "$setpriv" --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"',
].join('\n');

/** Moves itself into the cgroup before anything else runs, so no instruction of the run is outside it. */
const OUTER = 'echo $$ > "$0" && exec "$@"';

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
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

let support: SandboxSupport | undefined;

/** Whether this machine can sandbox a run; probed once per process by starting an empty sandbox. */
export function sandboxSupport(): SandboxSupport {
  support ??= probe();
  return support;
}

function probe(): SandboxSupport {
  if (process.platform !== 'linux') return { available: false, why: `no sandbox on ${process.platform}` };
  const unshare = onPath('unshare', process.env);
  const setpriv = onPath('setpriv', process.env);
  if (!unshare || !setpriv) return { available: false, why: `${unshare ? 'setpriv' : 'unshare'} (util-linux) is not installed` };
  const found = { available: true as const, unshare, setpriv };
  const r = spawnSync(unshare, [...unshareArgs(), 'sh', '-c', INNER, 'sh', setpriv, '/', '0', 'true'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.status === 0) return found;
  const why = (r.stderr || r.error?.message || `exit ${r.status ?? r.signal}`).trim().split('\n').at(-1);
  return { available: false, why: `user namespaces are not available to this user (${why})` };
}

function unshareArgs(): string[] {
  return ['--user', '--map-root-user', '--pid', '--fork', '--kill-child', '--mount', '--mount-proc', '--ipc', '--cgroup', '--propagation', 'private', '--'];
}

export interface SandboxSpec {
  readonly argv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The working directory inside; it stays writable. */
  readonly cwd: string;
  readonly readOnly: readonly string[];
  readonly cgroup: MemoryCgroup;
}

/**
 * Starts `argv` in a sandbox. stdio of the returned process: 0 stdin, 1 the command's stdout, 2 the
 * launcher's own errors (set-up failures), 3 the outcome pipe, 4 the command's stderr.
 */
export function spawnSandboxed(spec: SandboxSpec, found: Extract<SandboxSupport, { available: true }>): ChildProcess {
  const inner = ['sh', '-c', INNER, 'sh', found.setpriv, spec.cwd, String(spec.readOnly.length), ...spec.readOnly, ...spec.argv];
  // setpriv --pdeathsig: if the caller dies, unshare dies, and --kill-child takes the namespace with it.
  const launch = [found.setpriv, '--pdeathsig', 'KILL', '--', found.unshare, ...unshareArgs(), ...inner];
  return spawn('/bin/sh', ['-c', OUTER, spec.cgroup.procsFile, ...launch], { env: spec.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'], detached: true });
}
