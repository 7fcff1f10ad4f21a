import { formatDuration, formatMemory } from '../../service/format';
import type { RunResult } from './types';

/**
 * The one-line account of a run that the CLI and the editor print: how it ended, how long, the peak
 * and how it was known, and what isolation the tool had. Undefined when the tool never ran (bad
 * limits, no Python, a set-up failure, a syntax error): then there is nothing to measure, and a
 * "0 ms, peak 0 MB" would be a made-up figure.
 */
export function runSummary(name: string, r: RunResult): string | undefined {
  if (r.isolation === undefined) return undefined;
  const how = r.ok
    ? 'returned a string'
    : r.limit
      ? 'was stopped'
      : r.error?.kind === 'cancelled'
        ? 'was stopped'
        : 'failed';
  const peak = `peak memory ${formatMemory(r.peakMemoryMb)}${r.memory === 'sampled' ? ' (sampled, not measured)' : ''}`;
  const limits = `limits ${formatDuration(r.limits.timeoutMs)}, ${formatMemory(r.limits.memoryMb)}`;
  const isolation =
    r.isolation === 'none' ? `; not isolated from this machine (${r.mechanismNote ?? 'no sandbox'})` : '';
  return `${name} ${how} after ${formatDuration(r.elapsedMs)}, ${peak} (${limits})${isolation}.`;
}
