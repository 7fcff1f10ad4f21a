// Differential test of `python-syntax` against CPython, computed at test time with the machine's
// python3 (3.11): every standard-library module that CPython compiles gets no python-syntax, and
// deterministic mutations of a sample of them that CPython rejects get one within a line of where
// CPython reports it (and the ones CPython still accepts get none).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PythonDocument, firstCPythonError } from '../../server/src/service/python/index';
import { CPython, findPython, stdlibModules, type Verdict } from '../python/cpython';
import { MUTATIONS, mutate, rng } from '../python/mutations';

const python = findPython();
const skip = !python
  ? 'python3 is not installed'
  : python.version !== '3.11'
    ? `python3 is ${python.version}, the differential is against 3.11`
    : false;

function lineOf(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) line++;
  }
  return line;
}

function firstSyntax(src: string): { line: number; message: string } | undefined {
  const p = firstCPythonError(new PythonDocument().update(src).problems);
  return p && { line: lineOf(src, p.start), message: p.message };
}

describe('python-syntax agrees with CPython 3.11', { skip }, () => {
  let cpython: CPython;
  const sources: { file: string; src: string }[] = [];
  before(() => {
    cpython = new CPython(python!.exe);
    for (const file of stdlibModules(python!.stdlib)) {
      const src = readFileSync(file, 'utf8');
      if (!src.includes('\uFFFD')) sources.push({ file: relative(python!.stdlib, file), src });
    }
  });
  after(() => cpython?.close());

  it('reports no python-syntax on any standard-library module CPython compiles', async () => {
    const verdicts = sources.map((s) => cpython.compile(s.src, s.file));
    const wrong: string[] = [];
    let checked = 0;
    for (let i = 0; i < sources.length; i++) {
      const { file, src } = sources[i];
      const ours = firstSyntax(src);
      const v = await verdicts[i];
      if (!v.ok) continue; // CPython rejects it itself: not a module of the library
      checked++;
      if (ours) wrong.push(`${file}:${ours.line}: ${ours.message}`);
    }
    assert.ok(checked > 500, `only ${checked} modules checked`);
    assert.deepEqual(wrong, [], `python-syntax on valid modules:\n${wrong.join('\n')}`);
  });

  it('reports mutations CPython rejects within one line of CPython, and none it accepts', async () => {
    // A deterministic sample of modules of moderate size keeps this under a minute on 2 cores.
    const rand = rng(2024);
    const sample = sources.filter((s) => s.src.length < 40_000 && rand() < 0.3).slice(0, 90);
    const cases: { file: string; kind: string; src: string; line: number; verdict: Promise<Verdict> }[] = [];
    for (const { file, src } of sample) {
      for (const kind of Object.keys(MUTATIONS)) {
        const m = mutate(src, kind, rng(src.length * 31 + kind.length));
        if (m) cases.push({ file, kind, src: m.src, line: m.line, verdict: cpython.compile(m.src, file) });
      }
    }
    const stats: Record<string, { rejected: number; near: number; accepted: number; falseAlarm: number }> = {};
    const failures: string[] = [];
    for (const c of cases) {
      const ours = firstSyntax(c.src);
      const v = await c.verdict;
      const s = (stats[c.kind] ??= { rejected: 0, near: 0, accepted: 0, falseAlarm: 0 });
      if (v.ok) {
        s.accepted++;
        if (ours) {
          s.falseAlarm++;
          failures.push(`${c.kind} ${c.file}:${c.line}: CPython accepts, we say line ${ours.line}: ${ours.message}`);
        }
        continue;
      }
      s.rejected++;
      const near = ours && (v.line == null || Math.abs(ours.line - v.line) <= 1);
      if (near) s.near++;
      else
        failures.push(
          `${c.kind} ${c.file}:${c.line}: CPython line ${v.line} (${v.msg}), we ${ours ? `line ${ours.line} (${ours.message})` : 'report nothing'}`,
        );
    }
    const total = Object.values(stats).reduce((n, s) => n + s.rejected, 0);
    assert.ok(total > 1000, `only ${total} rejected mutations`);
    for (const kind of Object.keys(MUTATIONS)) assert.ok(stats[kind]?.rejected, `mutation ${kind} never applied`);
    assert.deepEqual(
      failures,
      [],
      `${failures.length} of ${cases.length} mutations disagree:\n${failures.slice(0, 40).join('\n')}\n${JSON.stringify(stats)}`,
    );
  });
});
