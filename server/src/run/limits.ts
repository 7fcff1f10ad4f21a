import type { EffectiveLimits } from './types';

/** The service's limits per execution (decisions.md, "Running a smart tool"): settings may lower them, never raise them. */
export const SERVICE_TIMEOUT_MS = 15 * 60 * 1000;
export const SERVICE_MEMORY_MB = 10 * 1024;
export const DEFAULT_OUTPUT_CAP_BYTES = 10 * 1024 * 1024;

export interface ClampedLimits extends EffectiveLimits {
  /** One sentence per requested value that was lowered to the service's limit or ignored. */
  readonly notices: string[];
}

/** The limits a run gets for the requested ones: each at most the service's, missing or invalid ones at it. */
export function clampLimits(requested: { timeoutMs?: number; memoryMb?: number }): ClampedLimits {
  const notices: string[] = [];
  const pick = (value: number | undefined, max: number, what: string, unit: (n: number) => string): number => {
    if (value === undefined) return max;
    if (!Number.isFinite(value) || value <= 0) {
      notices.push(`The requested ${what} (${value}) is not a positive number; using the service's ${unit(max)}.`);
      return max;
    }
    if (value > max) {
      notices.push(`The requested ${what} of ${unit(value)} is above the service's limit; using ${unit(max)}.`);
      return max;
    }
    return value;
  };
  return {
    timeoutMs: pick(requested.timeoutMs, SERVICE_TIMEOUT_MS, 'time limit', formatDuration),
    memoryMb: pick(requested.memoryMb, SERVICE_MEMORY_MB, 'memory limit', formatMemory),
    notices,
  };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${+(ms / 1000).toFixed(1)} s`;
  return `${+(ms / 60_000).toFixed(1)} min`;
}

export function formatMemory(mb: number): string {
  return mb >= 1024 ? `${+(mb / 1024).toFixed(1)} GB` : `${+mb.toFixed(1)} MB`;
}
