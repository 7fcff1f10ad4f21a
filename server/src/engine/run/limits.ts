import { formatDuration, formatMemory } from '../../service/format';
import type { EffectiveLimits } from './types';

/**
 * The service's limits per execution (decisions.md, "Running a smart tool"): settings may lower them,
 * never raise them.
 */
export const SERVICE_TIMEOUT_MS = 15 * 60 * 1000;
export const SERVICE_MEMORY_MB = 10 * 1024;
export const DEFAULT_OUTPUT_CAP_BYTES = 10 * 1024 * 1024;

/** The smallest limits a run accepts: below them not even Python starts (the settings' minimums too). */
export const MIN_TIMEOUT_MS = 1000;
export const MIN_MEMORY_MB = 16;

/**
 * The limits a run gets: each requested value, or the service's where none is given. A value that is
 * not a number, is below the minimum or above the service's limit is an error that runs nothing:
 * quietly running with another limit than the one asked for would make the verdict a lie.
 */
export function checkLimits(requested: { timeoutMs?: number; memoryMb?: number }): EffectiveLimits | { error: string } {
  const problems: string[] = [];
  const pick = (
    value: number | undefined,
    min: number,
    max: number,
    what: string,
    unit: (n: number) => string,
    raw: string,
  ): number => {
    if (value === undefined) return max;
    // Below the minimum the rounded form could read "0 MB": the value as given says what was wrong.
    const shown = value < min ? raw : unit(value);
    if (!Number.isFinite(value)) problems.push(`The ${what} must be a number, not ${value}.`);
    else if (value < min || value > max)
      problems.push(
        `The ${what} of ${shown} is outside ${unit(min)}–${unit(max)} (the service allows at most ${unit(max)}).`,
      );
    return value;
  };
  const { timeoutMs: t, memoryMb: m } = requested;
  const timeoutMs = pick(t, MIN_TIMEOUT_MS, SERVICE_TIMEOUT_MS, 'time limit', formatDuration, `${(t ?? 0) / 1000} s`);
  const memoryMb = pick(m, MIN_MEMORY_MB, SERVICE_MEMORY_MB, 'memory limit', formatMemory, `${m} MB`);
  return problems.length ? { error: problems.join(' ') } : { timeoutMs, memoryMb };
}
