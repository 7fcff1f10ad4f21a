import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';

/**
 * A memory cgroup of one run, made under this process's own cgroup: the kernel enforces the limit on
 * every process in it (shared memory and memfd pages included) and keeps the peak, so the judge reads
 * both from the kernel instead of sampling. cgroup v2 (memory.max, memory.peak, memory.events) where
 * the memory controller can be delegated to a child; cgroup v1 (memory.limit_in_bytes,
 * memory.max_usage_in_bytes, memory.oom_control) otherwise.
 */
export interface MemoryCgroup extends Accounting {
  readonly version: 1 | 2;
  readonly dir: string;
  /** Writing a pid here moves that process (and what it starts later) into the cgroup. */
  readonly procsFile: string;
}

/** How the judge knows a run's processes and memory: a cgroup (measured) or its process tree (sampled). */
export interface Accounting {
  readonly memory: 'measured' | 'sampled';
  /** Every process of the run (global pids). */
  pids(): Promise<number[]>;
  /** The run's peak memory in bytes: the kernel's high-water mark, or the largest sample. */
  peakBytes(): Promise<number | undefined>;
  /** Whether the run went over its memory limit (the kernel's OOM kill, or a confirmed sample). */
  overLimit(): Promise<boolean>;
  /** SIGKILLs every process of the run until none is left (or gives up after `rounds`). */
  killAll(rounds?: number): Promise<void>;
  remove(): Promise<void>;
}

/** Where this process's memory cgroup is: `mountinfo` and `cgroup` are the texts of /proc/self's files. */
export function ownMemoryCgroupDir(
  mountinfo: string,
  cgroup: string,
): { dir: string; version: 1 | 2 } | { why: string } {
  const mounts = mountinfo.split('\n').map((line) => {
    const parts = line.split(' ');
    const sep = parts.indexOf('-');
    return {
      root: parts[3],
      point: unescapeMount(parts[4] ?? ''),
      type: parts[sep + 1],
      options: parts[sep + 3] ?? '',
    };
  });
  const memberships = cgroup.split('\n').map((line) => {
    const [, , controllers, path] = /^(\d+):([^:]*):(.*)$/.exec(line) ?? [];
    return { controllers: controllers?.split(',') ?? [], path };
  });
  const v1 = mounts.find((m) => m.type === 'cgroup' && m.options.split(',').includes('memory'));
  const v1Path = memberships.find((m) => m.controllers.includes('memory'))?.path;
  if (v1 && v1Path !== undefined) return { dir: under(v1, v1Path), version: 1 };
  const v2 = mounts.find((m) => m.type === 'cgroup2');
  const v2Path = memberships.find((m) => m.controllers.length === 1 && m.controllers[0] === '')?.path;
  if (v2 && v2Path !== undefined) {
    if (v2Path.endsWith(' (deleted)')) return { why: "this process's cgroup was deleted" };
    return { dir: under(v2, v2Path), version: 2 };
  }
  return { why: 'no memory cgroup (v1 or v2) is mounted for this process' };
}

function under(mount: { root: string; point: string }, path: string): string {
  const rel =
    mount.root !== '/' && (path === mount.root || path.startsWith(`${mount.root}/`))
      ? path.slice(mount.root.length)
      : path;
  return normalize(join(mount.point, rel));
}

function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Makes a cgroup limited to `limitBytes` under this process's own; the reason when that cannot be done. */
export async function createMemoryCgroup(limitBytes: number): Promise<MemoryCgroup | { why: string }> {
  if (process.platform !== 'linux') return { why: 'memory cgroups exist on Linux only' };
  let own: ReturnType<typeof ownMemoryCgroupDir>;
  try {
    own = ownMemoryCgroupDir(readFileSync('/proc/self/mountinfo', 'utf8'), readFileSync('/proc/self/cgroup', 'utf8'));
  } catch (e) {
    return { why: `cannot read /proc/self (${String(e)})` };
  }
  if ('why' in own) return own;
  const dir = join(own.dir, `tooldef-run-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    if (own.version === 2) await delegateMemory(own.dir);
    await fs.mkdir(dir);
  } catch (e) {
    return { why: `cannot make a cgroup under ${own.dir} (${errorText(e)})` };
  }
  const cgroup = own.version === 1 ? v1(dir) : v2(dir);
  try {
    await cgroup.limit(limitBytes);
  } catch (e) {
    await cgroup.remove();
    return { why: `cannot limit the memory of ${dir} (${errorText(e)})` };
  }
  return cgroup;
}

async function delegateMemory(own: string): Promise<void> {
  if (!(await fs.readFile(join(own, 'cgroup.controllers'), 'utf8')).split(/\s+/).includes('memory')) {
    throw new Error('the memory controller is not available');
  }
  const control = join(own, 'cgroup.subtree_control');
  if (!(await fs.readFile(control, 'utf8')).split(/\s+/).includes('memory')) await fs.writeFile(control, '+memory');
}

function errorText(e: unknown): string {
  return e instanceof Error ? ((e as NodeJS.ErrnoException).code ?? e.message) : String(e);
}

const readNumber = async (file: string): Promise<number | undefined> => {
  const n = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** `key value` lines (memory.events, memory.oom_control). */
const readCounters = async (file: string): Promise<Map<string, number>> =>
  new Map(
    (await fs.readFile(file, 'utf8').catch(() => ''))
      .split('\n')
      .map((line) => line.split(' '))
      .map(([k, v]) => [k, Number(v)] as [string, number]),
  );

/** SIGKILLs what `pids` lists until it lists nothing (a process may fork while the others die). */
export async function killUntilNone(pids: () => Promise<number[]>, rounds = 200): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const left = await pids();
    if (!left.length) return;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

function common(dir: string, version: 1 | 2) {
  const procsFile = join(dir, 'cgroup.procs');
  const pids = async (): Promise<number[]> =>
    (await fs.readFile(procsFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
  return {
    memory: 'measured' as const,
    version,
    dir,
    procsFile,
    pids,
    killAll: (rounds?: number) => killUntilNone(pids, rounds),
    async remove(): Promise<void> {
      // A cgroup whose last process is still exiting refuses rmdir (EBUSY) for a moment.
      for (let i = 0; i < 100; i++) {
        try {
          await fs.rmdir(dir);
          return;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
          await new Promise((r) => setTimeout(r, 10));
        }
      }
    },
  };
}

function v1(dir: string) {
  return {
    ...common(dir, 1),
    async limit(bytes: number): Promise<void> {
      await fs.writeFile(join(dir, 'memory.limit_in_bytes'), String(bytes));
      // Where swap is accounted, the limit covers memory + swap, so swapping out does not dodge it.
      await fs.writeFile(join(dir, 'memory.memsw.limit_in_bytes'), String(bytes)).catch(() => undefined);
      await checkReadBack(join(dir, 'memory.limit_in_bytes'), bytes);
    },
    peakBytes: () => readNumber(join(dir, 'memory.max_usage_in_bytes')),
    overLimit: async () => ((await readCounters(join(dir, 'memory.oom_control'))).get('oom_kill') ?? 0) > 0,
  };
}

function v2(dir: string) {
  return {
    ...common(dir, 2),
    async limit(bytes: number): Promise<void> {
      await fs.writeFile(join(dir, 'memory.max'), String(bytes));
      await fs.writeFile(join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      // The kernel kills the whole run at once on a breach, not one process of it.
      await fs.writeFile(join(dir, 'memory.oom.group'), '1').catch(() => undefined);
      await checkReadBack(join(dir, 'memory.max'), bytes);
      if ((await readNumber(join(dir, 'memory.peak'))) === undefined)
        throw new Error('no memory.peak (Linux 5.19 or later has it)');
    },
    peakBytes: () => readNumber(join(dir, 'memory.peak')),
    overLimit: async () => {
      const events = await readCounters(join(dir, 'memory.events'));
      return (events.get('oom_kill') ?? 0) > 0 || (events.get('oom_group_kill') ?? 0) > 0;
    },
  };
}

/** The kernel rounds a limit down to whole pages; anything else means the write did not take. */
async function checkReadBack(file: string, bytes: number): Promise<void> {
  const got = await readNumber(file);
  if (got === undefined || Math.abs(got - bytes) > 64 * 1024) throw new Error(`${file} reads back ${got ?? 'nothing'}`);
}
