// Judging one case: what the run gave against what the case expects.
import type { OutputViolation } from '../llm/expectedOutput';
import type { ExpectKey, Expectations } from '../../service/tests/testsFile';
import { formatDuration, formatMemory } from '../../service/format';

/** What a case's run gave, whichever kind of tool ran. */
export interface CaseOutcome {
  /** The returned string (smart) or the answer (LLM); absent when the run failed. */
  readonly output?: string;
  /**
   * Why it failed: the exception's type (`ValueError`), `timeout` or `memory` for a limit, else what kind
   * of failure (`not-str`, `exited`, `setup`, `network` …).
   */
  readonly errorType?: string;
  readonly errorMessage?: string;
  /** A traceback, pip's or the endpoint's output: shown with a failure. */
  readonly detail?: string;
  /** The failure is the runner's or the machine's, not the tool's (no Python, a set-up that failed). */
  readonly broken?: boolean;
  readonly elapsedMs: number;
  /** Peak memory of the tool's process tree (smart tools). */
  readonly peakMemoryMb?: number;
}

export interface CaseFailure {
  /** The expectation that does not hold; `run` when the run failed unexpectedly. */
  readonly check: ExpectKey | 'run' | 'expected_output';
  readonly message: string;
  /** For a side-by-side view: the expected text and the actual one. */
  readonly expected?: string;
  readonly actual?: string;
}

export interface JudgeContext {
  /** The approved output of a `golden` case; undefined when none is approved yet. */
  readonly golden?: string;
  /** How an LLM tool's answer departs from its `expected_output` (checked on every answer). */
  readonly outputViolations?: readonly OutputViolation[];
  /** Validates the parsed output against the case's `json` schema: the errors, empty when valid. */
  readonly validateJson?: (value: unknown) => readonly string[];
}

/** Every expectation of the case that does not hold (empty: the case passes). */
export function judgeCase(expect: Expectations, outcome: CaseOutcome, ctx: JudgeContext = {}): CaseFailure[] {
  const failures: CaseFailure[] = [];
  // With `error: "timeout"` (or "memory"), max_seconds (max_memory_mb) is the limit the run is expected to hit.
  if (expect.max_seconds !== undefined && expect.error !== 'timeout' && outcome.elapsedMs > expect.max_seconds * 1000)
    failures.push({
      check: 'max_seconds',
      message: `The run took ${formatDuration(outcome.elapsedMs)}, more than max_seconds ${expect.max_seconds}.`,
    });
  if (
    expect.max_memory_mb !== undefined &&
    expect.error !== 'memory' &&
    (outcome.errorType === 'memory' || (outcome.peakMemoryMb ?? 0) > expect.max_memory_mb)
  )
    failures.push({
      check: 'max_memory_mb',
      message:
        outcome.errorType === 'memory'
          ? `The run was killed at its memory limit (${formatMemory(expect.max_memory_mb)}).`
          : `The run peaked at ${formatMemory(outcome.peakMemoryMb ?? 0)}, more than max_memory_mb ${expect.max_memory_mb}.`,
    });

  if (expect.error !== undefined) {
    if (outcome.output !== undefined)
      failures.push({
        check: 'error',
        message: `Expected the run to fail with ${expect.error}; it returned a string.`,
        expected: expect.error,
        actual: outcome.output,
      });
    else if (outcome.errorType !== expect.error)
      failures.push({
        check: 'error',
        message:
          `Expected the run to fail with ${expect.error}; it failed with ${outcome.errorType ?? 'an unknown error'}: ${outcome.errorMessage ?? ''}`.trim(),
        expected: expect.error,
        actual: outcome.errorType,
      });
    return failures;
  }
  if (outcome.output === undefined) {
    if (!failures.some((f) => f.check === 'max_memory_mb'))
      failures.push({
        check: 'run',
        message: outcome.errorMessage ?? 'The run failed.',
        actual: outcome.detail,
      });
    return failures;
  }
  const out = outcome.output;
  if (expect.equals !== undefined && out !== expect.equals)
    failures.push({
      check: 'equals',
      message: 'The output differs from "equals".',
      expected: expect.equals,
      actual: out,
    });
  for (const text of expect.contains ?? [])
    if (!out.includes(text))
      failures.push({
        check: 'contains',
        message: `The output does not contain ${JSON.stringify(text)}.`,
        actual: out,
      });
  for (const text of expect.not_contains ?? [])
    if (out.includes(text))
      failures.push({ check: 'not_contains', message: `The output contains ${JSON.stringify(text)}.`, actual: out });
  if (expect.matches !== undefined && !new RegExp(expect.matches, 'u').test(out))
    failures.push({ check: 'matches', message: `The output does not match /${expect.matches}/.`, actual: out });
  if (expect.json !== undefined) failures.push(...jsonFailures(out, ctx));
  if (expect.golden) {
    if (ctx.golden === undefined)
      failures.push({
        check: 'golden',
        message: 'No approved output yet: approve this one (Approve Output, or tooldef test --update-golden).',
        expected: '',
        actual: out,
      });
    else if (ctx.golden !== out)
      failures.push({
        check: 'golden',
        message: 'The output differs from the approved one.',
        expected: ctx.golden,
        actual: out,
      });
  }
  for (const v of ctx.outputViolations ?? [])
    if (v.severity === 'error')
      failures.push({
        check: 'expected_output',
        message: `expected_output: ${v.message}${v.line ? ` (line ${v.line})` : ''}`,
        actual: out,
      });
  return failures;
}

function jsonFailures(out: string, ctx: JudgeContext): CaseFailure[] {
  let value: unknown;
  try {
    value = JSON.parse(out);
  } catch (e) {
    return [{ check: 'json', message: `The output is not JSON: ${(e as Error).message}.`, actual: out }];
  }
  const errors = ctx.validateJson?.(value) ?? [];
  return errors.length
    ? [{ check: 'json', message: `The output does not fit the "json" schema: ${errors.join('; ')}.`, actual: out }]
    : [];
}
