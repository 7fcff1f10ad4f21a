// The results of a test run as people read them (text with diffs), as programs do (JSON), and as CI
// systems do (JUnit XML: one <testsuite> per definition, one <testcase> per case).
import { relative } from 'node:path';
import { structuredPatch } from 'diff';
import { formatDuration } from '../../service/format';
import type { CaseFailure } from './expect';
import { toolName, type CaseResult } from './runTests';
import type { Suite } from './suite';

export interface Totals {
  readonly passed: number;
  readonly failed: number;
  /** Cases that could not run at all (no Python, a set-up that failed, no endpoint). */
  readonly broken: number;
}

export function totals(results: readonly CaseResult[]): Totals {
  const broken = results.filter((r) => !r.passed && r.outcome.broken).length;
  const passed = results.filter((r) => r.passed).length;
  return { passed, failed: results.length - passed - broken, broken };
}

/** A path as reports show it: relative to `cwd`, with forward slashes. */
export function shownPath(cwd: string, path: string): string {
  return relative(cwd, path).split('\\').join('/');
}

/** The results grouped by suite, in order. */
function bySuite(results: readonly CaseResult[]): Map<Suite, CaseResult[]> {
  const suites = new Map<Suite, CaseResult[]>();
  for (const r of results) suites.set(r.suite, [...(suites.get(r.suite) ?? []), r]);
  return suites;
}

/** A unified diff of expected → actual, without file headers; `max` lines at most. */
export function diffText(expected: string, actual: string, max = 60): string {
  const patch = structuredPatch('expected', 'actual', expected, actual, '', '', { context: 2 });
  const lines = patch.hunks.flatMap((h) => [
    `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    ...h.lines.filter((l) => !l.startsWith('\\')),
  ]);
  return lines.length > max
    ? [...lines.slice(0, max), `… ${lines.length - max} more lines`].join('\n')
    : lines.join('\n');
}

function failureLines(f: CaseFailure): string[] {
  const out = [`${f.check}: ${f.message}`];
  if (f.expected !== undefined && f.actual !== undefined) {
    out.push('--- expected', '+++ actual', ...diffText(f.expected, f.actual).split('\n'));
  } else if (f.actual !== undefined && f.check !== 'contains' && f.check !== 'not_contains' && f.check !== 'matches') {
    out.push(...clip(f.actual).split('\n'));
  }
  return out;
}

function clip(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

export function textReport(results: readonly CaseResult[], cwd: string): string {
  const out: string[] = [];
  let current: Suite | undefined;
  for (const r of results) {
    if (r.suite !== current) {
      current = r.suite;
      out.push(shownPath(cwd, r.suite.definitionPath));
    }
    const mark = r.passed ? '✓' : r.outcome.broken ? '!' : '✗';
    const written = r.goldenWritten ? ', approved output written' : '';
    out.push(`  ${mark} ${r.case.name} (${formatDuration(r.outcome.elapsedMs)}${written})`);
    for (const f of r.failures) out.push(...failureLines(f).map((l) => `      ${l}`));
  }
  const t = totals(results);
  out.push(
    `${t.passed} passed, ${t.failed} failed${t.broken ? `, ${t.broken} could not run` : ''} (${results.length} case${results.length === 1 ? '' : 's'})`,
  );
  return `${out.join('\n')}\n`;
}

export function jsonReport(results: readonly CaseResult[], cwd: string): string {
  const json = {
    ...totals(results),
    suites: [...bySuite(results)].map(([suite, cases]) => ({
      definition: shownPath(cwd, suite.definitionPath),
      tests: shownPath(cwd, suite.testsPath),
      cases: cases.map((r) => ({
        name: r.case.name,
        passed: r.passed,
        broken: !r.passed && (r.outcome.broken ?? false),
        output: r.outcome.output ?? null,
        error: r.outcome.errorType ? { type: r.outcome.errorType, message: r.outcome.errorMessage ?? null } : null,
        elapsedMs: r.outcome.elapsedMs,
        peakMemoryMb: r.outcome.peakMemoryMb ?? null,
        failures: r.failures,
        goldenWritten: r.goldenWritten ?? false,
      })),
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** JUnit XML as Jenkins, GitLab, GitHub Actions' reporters and Azure Pipelines read it. */
export function junitReport(results: readonly CaseResult[], cwd: string): string {
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  const t = totals(results);
  const total = results.reduce((s, r) => s + r.outcome.elapsedMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tooldef" tests="${results.length}" failures="${t.failed}" errors="${t.broken}" time="${seconds(total)}">`,
  ];
  for (const [suite, cases] of bySuite(results)) {
    const st = totals(cases);
    const name = shownPath(cwd, suite.definitionPath);
    const time = cases.reduce((s, r) => s + r.outcome.elapsedMs, 0);
    out.push(
      `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${st.failed}" errors="${st.broken}" skipped="0" time="${seconds(time)}" file="${xml(shownPath(cwd, suite.testsPath))}">`,
    );
    for (const r of cases) {
      out.push(
        `    <testcase name="${xml(r.case.name)}" classname="${xml(toolName(suite))}" time="${seconds(r.outcome.elapsedMs)}">`,
      );
      if (!r.passed) {
        const tag = r.outcome.broken ? 'error' : 'failure';
        const first = r.failures[0];
        const body = r.failures.flatMap(failureLines).join('\n');
        out.push(
          `      <${tag} type="${xml(first?.check ?? 'run')}" message="${xml(first?.message ?? 'failed')}">${xml(body, false)}</${tag}>`,
        );
      }
      if (r.outcome.output !== undefined) out.push(`      <system-out>${xml(r.outcome.output, false)}</system-out>`);
      if (r.outcome.detail) out.push(`      <system-err>${xml(r.outcome.detail, false)}</system-err>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** Characters XML 1.0 cannot hold: C0 controls but tab and line ends, U+FFFE/U+FFFF, lone surrogates. */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text made safe for XML 1.0 content (and, with `attribute`, for a double-quoted attribute). */
function xml(text: string, attribute = true): string {
  const safe = text
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;');
  // An attribute's newlines and tabs would be read back as spaces.
  return attribute ? safe.replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;') : safe;
}
