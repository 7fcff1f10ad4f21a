// undefined-name, unused-import and unused-local against pyflakes itself, on every module of the
// machine's CPython 3.11 standard library that both compile: no report of ours that pyflakes does not
// make (same rule, line and name), and at least 95 % of pyflakes' undefined names found.
// scripts/test.mjs installs pyflakes (Debian's python3-pyflakes, run by Debian's python3).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { analyzePython } from '../../server/src/service/python/index';
import { findPython, stdlibModules } from '../python/cpython';

/** A command that runs pyflakes: the tests' python3 if it has it, else the system's. */
function findPyflakes(): string[] | undefined {
  for (const exe of [process.env.TOOLDEF_PYTHON ?? 'python3', '/usr/bin/python3']) {
    if (spawnSync(exe, ['-m', 'pyflakes', '--version'], { encoding: 'utf8' }).status === 0)
      return [exe, '-m', 'pyflakes'];
  }
  return undefined;
}

const python = findPython();
const pyflakes = findPyflakes();
const skip =
  process.platform !== 'linux' && !pyflakes
    ? 'pyflakes is not installed'
    : !python || python.version !== '3.11'
      ? 'the comparison is on the standard library of CPython 3.11'
      : false;

const RULE_OF: [RegExp, string][] = [
  [/^undefined name '([^']+)'$/, 'undefined-name'],
  [/^'(.+)' imported but unused$/, 'unused-import'],
  [/^local variable '([^']+)' is assigned to but never used$/, 'unused-local'],
];

/** `file:line:rule:name` of each pyflakes report of the three rules; files with a syntax error. */
function runPyflakes(files: string[], root: string): { reports: Set<string>; broken: Set<string> } {
  const r = spawnSync(pyflakes![0], [...pyflakes!.slice(1), ...files], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const reports = new Set<string>();
  const broken = new Set<string>();
  for (const line of `${r.stdout}\n${r.stderr}`.split('\n')) {
    const m = /^(.+?\.py):(\d+):(?:\d+:?)? (.*)$/.exec(line);
    if (!m) continue;
    const file = relative(root, m[1]);
    if (/syntax|invalid|unexpected|expected/i.test(m[3]) && !RULE_OF.some(([re]) => re.test(m[3]))) broken.add(file);
    for (const [re, rule] of RULE_OF) {
      const name = re.exec(m[3])?.[1];
      if (name) reports.add(`${file}:${m[2]}:${rule}:${name}`);
    }
  }
  return { reports, broken };
}

/** `line:rule:name` of each of our reports, on pyflakes' line; undefined when the module does not parse. */
function ours(src: string, file: string): { key: string; rule: string }[] | undefined {
  const { problems } = analyzePython(src);
  if (problems.some((p) => p.code === 'python-syntax')) return undefined;
  const lines = src.split(/\r\n|\r|\n/);
  const out: { key: string; rule: string }[] = [];
  for (const p of problems) {
    const line = src.slice(0, p.start).split(/\r\n|\r|\n/).length;
    // pyflakes: `__path__` is defined in a package's __init__.py (tool_code is never one).
    if (p.code === 'undefined-name' && !(p.data.name === '__path__' && file.endsWith('__init__.py')))
      out.push({ key: `${line}:${p.code}:${p.data.name}`, rule: p.code });
    else if (p.code === 'unused-import') {
      // Ours is on the name; pyflakes' on the first line of its import statement.
      let first = line;
      while (first > 1 && !/^\s*(from|import)\s/.test(lines[first - 1])) first--;
      out.push({ key: `${first}:${p.code}:${/'(.+)' is imported/.exec(p.message)?.[1]}`, rule: p.code });
    } else if (p.code === 'unused-local')
      out.push({ key: `${line}:${p.code}:${/Local variable '([^']+)'/.exec(p.message)?.[1]}`, rule: p.code });
  }
  return out;
}

describe('names agree with pyflakes on the standard library', { skip }, () => {
  it('reports nothing pyflakes does not, and ≥ 95 % of its undefined names', () => {
    assert.ok(pyflakes, 'pyflakes is not installed: scripts/test.mjs installs python3-pyflakes');
    const root = python!.stdlib;
    const files = stdlibModules(root);
    const { reports, broken } = runPyflakes(files, root);
    const extra: string[] = [];
    const found = new Set<string>();
    const counts: Record<string, number> = { 'undefined-name': 0, 'unused-import': 0, 'unused-local': 0 };
    let checked = 0;
    for (const path of files) {
      const file = relative(root, path);
      const src = readFileSync(path, 'utf8');
      if (broken.has(file) || src.includes('\uFFFD')) continue;
      const mine = ours(src, file);
      if (!mine) continue;
      checked++;
      for (const { key, rule } of mine) {
        const full = `${file}:${key}`;
        counts[rule]++;
        if (reports.has(full)) found.add(full);
        else extra.push(full);
      }
    }
    assert.ok(checked > 700, `only ${checked} modules checked`);
    assert.deepEqual(extra, [], `reports pyflakes does not make:\n${extra.join('\n')}`);
    const theirs = [...reports].filter((r) => r.includes(':undefined-name:') && checkedFile(r, broken));
    const missed = theirs.filter((r) => !found.has(r));
    const recall = 1 - missed.length / theirs.length;
    assert.ok(theirs.length > 100, `pyflakes found only ${theirs.length} undefined names`);
    assert.ok(
      recall >= 0.95,
      `${(recall * 100).toFixed(1)} % of pyflakes' ${theirs.length} undefined names found; missed:\n${missed.join('\n')}`,
    );
    // Recorded in the test's output (node --test shows diagnostics): the figures the issue asks for.
    console.log(
      `names vs pyflakes: ${checked} modules; undefined-name ${counts['undefined-name']} (recall ${(recall * 100).toFixed(1)} % of ${theirs.length}), unused-import ${counts['unused-import']}, unused-local ${counts['unused-local']}; 0 reports pyflakes does not make`,
    );
  });
});

function checkedFile(report: string, broken: Set<string>): boolean {
  return !broken.has(report.slice(0, report.indexOf('.py:') + 3));
}
