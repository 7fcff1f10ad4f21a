// Timing helpers shared by the benchmarks.
import { performance } from 'node:perf_hooks';

export interface Stats {
  readonly n: number;
  readonly median: number;
  readonly p90: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
}

export function stats(samples: readonly number[]): Stats {
  if (!samples.length) return { n: 0, median: NaN, p90: NaN, min: NaN, max: NaN, mean: NaN };
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number): number => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    const hi = Math.ceil(i);
    return s[lo] + (s[hi] - s[lo]) * (i - lo);
  };
  return {
    n: s.length,
    median: q(0.5),
    p90: q(0.9),
    min: s[0],
    max: s[s.length - 1],
    mean: s.reduce((a, b) => a + b, 0) / s.length,
  };
}

export interface CompareOptions {
  /** Untimed calls of each method first. */
  readonly warmup: number;
  /** Timed calls of one method in a row. */
  readonly perRound: number;
  readonly minRounds: number;
  readonly maxRounds: number;
  /** No new round starts after this much time once minRounds are done. */
  readonly budgetMs: number;
}

export interface Compared {
  /** Wall-clock time of each call. */
  readonly wall: Stats;
  /**
   * Process CPU time per call (user + system, all threads), averaged over each block of `perRound`
   * calls: less disturbed than wall time when other processes compete for the CPUs.
   */
  readonly cpu: Stats;
}

/**
 * Times several methods on the same input side by side: rounds of `perRound` calls per method, the
 * method order rotating each round, so that a change in machine load hits every method alike.
 *
 * Garbage is collected by V8 as it comes, inside the timed blocks, so each method pays for the
 * collections its allocations cause, as in a running server. An earlier version forced a full GC
 * before every block: that left the heap in a state no server is in (each forced GC also dropped
 * the code optimised for objects that did not survive it) and inflated every allocating method
 * 2–4×, so much that parsing and validating the large LLM file in process measured slower
 * (5.2 ms) than the same work as a whole LSP didChange → publishDiagnostics round trip (4.6 ms).
 */
export async function compare(
  methods: Record<string, () => unknown>,
  o: CompareOptions,
): Promise<Record<string, Compared>> {
  const names = Object.keys(methods);
  const wall: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  // The last result of each method stays alive, as the language server keeps the model of every
  // open document.
  const retained: Record<string, unknown> = {};
  const call = async (name: string): Promise<number> => {
    const t0 = performance.now();
    let r = methods[name]();
    if (r && typeof (r as PromiseLike<unknown>).then === 'function') r = await r;
    const ms = performance.now() - t0;
    retained[name] = r;
    return ms;
  };
  for (const n of names) for (let i = 0; i < o.warmup; i++) await call(n);
  const start = performance.now();
  for (let round = 0; round < o.maxRounds && (round < o.minRounds || performance.now() - start < o.budgetMs); round++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + round) % names.length];
      const c0 = process.cpuUsage();
      for (let i = 0; i < o.perRound; i++) wall[n].push(await call(n));
      const c = process.cpuUsage(c0);
      cpu[n].push((c.user + c.system) / 1000 / o.perRound);
    }
  }
  return Object.fromEntries(names.map((n) => [n, { wall: stats(wall[n]), cpu: stats(cpu[n]) }]));
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
