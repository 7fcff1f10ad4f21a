import { promises as fs } from 'node:fs';
import { killUntilNone, type Accounting } from './cgroup';

/**
 * Accounting for a sandboxed run where no memory cgroup can be made (a desktop's user session without
 * delegation): the judge walks the launcher's process tree from outside. Every process of the run is in
 * it: none can leave its PID namespace, and orphans are re-parented to the namespace's init, which is
 * in the tree. Memory is the summed resident memory of those processes plus what the run's private
 * /dev/shm holds, polled, so `memory` is `sampled`: a tool can overshoot between two samples, and pages
 * of a memfd that no process maps are not seen. A sum over the limit is confirmed with PSS (pages shared
 * by forked processes counted once) before the run is stopped.
 */
export function treeSampler(limitBytes: number): Accounting & { attach(launcher: number): void } {
  let root: number | undefined;
  let peak = 0;
  const pids = async (): Promise<number[]> => (root === undefined ? [] : descendants(root));
  const sample = async (how: 'rss' | 'pss'): Promise<number> => {
    const all = await pids();
    const sizes = await Promise.all(all.map((pid) => processMemory(pid, how)));
    const own = sizes.reduce((a, b) => a + b.own, 0);
    const mapped = sizes.reduce((a, b) => a + b.shared, 0);
    // A /dev/shm file that is also mapped shows in both figures: count the larger, not both.
    return own + Math.max(mapped, all.length > 1 ? await shmBytes(all[1]) : 0);
  };
  return {
    memory: 'sampled',
    attach(launcher: number) {
      root = launcher;
    },
    pids,
    async peakBytes() {
      peak = Math.max(peak, await sample('rss'));
      return peak;
    },
    async overLimit() {
      const rss = await sample('rss');
      peak = Math.max(peak, rss);
      return rss > limitBytes && (await sample('pss')) > limitBytes;
    },
    killAll: (rounds?: number) => killUntilNone(pids, rounds),
    async remove() {
      root = undefined;
    },
  };
}

/** `pid` and all its descendants, parents first. */
async function descendants(pid: number): Promise<number[]> {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const at = queue.shift()!;
    const tasks = await fs.readdir(`/proc/${at}/task`).catch(() => undefined);
    if (!tasks) continue;
    out.push(at);
    for (const tid of tasks) {
      const children = await fs.readFile(`/proc/${at}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const c of children.split(' ')) if (c) queue.push(Number(c));
    }
  }
  return out;
}

/** A process's resident memory in bytes: its own (anonymous and file pages) and its shared-memory pages. */
async function processMemory(pid: number, how: 'rss' | 'pss'): Promise<{ own: number; shared: number }> {
  const text = await fs
    .readFile(how === 'pss' ? `/proc/${pid}/smaps_rollup` : `/proc/${pid}/status`, 'utf8')
    .catch(() => '');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return how === 'pss'
    ? { own: kb('Pss') - kb('Pss_Shmem'), shared: kb('Pss_Shmem') }
    : { own: kb('RssAnon') + kb('RssFile'), shared: kb('RssShmem') };
}

/** What the run's private /dev/shm holds, seen through its first process's root. */
async function shmBytes(pid: number): Promise<number> {
  const s = await fs.statfs(`/proc/${pid}/root/dev/shm`).catch(() => undefined);
  return s ? (s.blocks - s.bfree) * s.bsize : 0;
}
