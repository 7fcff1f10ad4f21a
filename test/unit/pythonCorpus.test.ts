// Differential test of `python-syntax` against CPython 3.11 on its own test suite: the snippets of
// test_syntax, test_grammar, test_patma, test_fstring, … (test/python/corpus.py extracts them and asks
// CPython's compile() for each verdict). The targets (issue 17): every snippet CPython refuses is
// flagged, on CPython's line; none it accepts is flagged; CPython's column (±1) and message for at
// least 95 % of the refusals. test/python/corpus-gaps.json lists each disagreement left, by kind:
// the test fails on a new one, and on one fixed but still listed.
// TOOLDEF_CORPUS_REPORT=<file> writes every disagreement there in full; TOOLDEF_CORPUS_GAPS=update
// rewrites the list.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PythonDocument, firstCPythonError } from '../../server/src/service/python/index';
import { findPython } from '../python/cpython';

interface Snippet {
  origin: string;
  src: string;
  ok: boolean;
  line?: number | null;
  col?: number | null;
  msg?: string;
}

const python = findPython();
const skip = !python
  ? 'python3 is not installed'
  : python.version !== '3.11'
    ? `python3 is ${python.version}, the corpus is CPython 3.11's test suite`
    : false;

/** 1-based line and column (in code points, as CPython counts) of a UTF-16 offset. */
function position(src: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = src.charCodeAt(i);
    if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: [...src.slice(lineStart, offset)].length + 1 };
}

const GAPS = join(__dirname, '../../../test/python/corpus-gaps.json');
type Kind = 'missed' | 'falseAlarms' | 'wrongLine' | 'wrongCol' | 'wrongMsg';

/** A snippet's name in the gaps list: where it comes from and a hash of its text. */
function key(s: Snippet): string {
  return `${s.origin} ${createHash('sha256').update(s.src).digest('hex').slice(0, 12)}`;
}

function corpus(): Snippet[] {
  const r = spawnSync(python!.exe, [join(__dirname, '../../../test/python/corpus.py')], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Snippet);
}

describe("python-syntax agrees with CPython 3.11 on CPython's test suite", { skip }, () => {
  it('flags every refusal on its line, nothing accepted, and CPython column and message ≥ 95 %', (t) => {
    const snippets = corpus();
    const found: Record<Kind, { key: string; text: string }[]> = {
      missed: [],
      falseAlarms: [],
      wrongLine: [],
      wrongCol: [],
      wrongMsg: [],
    };
    let refused = 0;
    for (const s of snippets) {
      const p = firstCPythonError(new PythonDocument().update(s.src).problems);
      const at = `${s.origin}: ${JSON.stringify(s.src.length > 160 ? s.src.slice(0, 160) + '…' : s.src)}`;
      const add = (kind: Kind, detail: string) => found[kind].push({ key: key(s), text: at + detail });
      if (s.ok) {
        if (p) add('falseAlarms', `\n  we say ${p.message}`);
        continue;
      }
      refused++;
      if (!p) {
        add('missed', `\n  CPython ${s.line}:${s.col} ${s.msg}`);
        continue;
      }
      if (s.line == null) continue; // a ValueError (null bytes): no position, no SyntaxError message
      const ours = position(s.src, p.start);
      const versus = `\n  CPython ${s.line}:${s.col} ${s.msg}\n  we      ${ours.line}:${ours.col} ${p.message}`;
      if (ours.line !== s.line) add('wrongLine', versus);
      else if (s.col != null && Math.abs(ours.col - s.col) > 1) add('wrongCol', versus);
      if (p.message !== s.msg) add('wrongMsg', versus);
    }
    const kinds = Object.keys(found) as Kind[];
    if (process.env.TOOLDEF_CORPUS_REPORT)
      writeFileSync(
        process.env.TOOLDEF_CORPUS_REPORT,
        kinds.map((k) => `## ${k}: ${found[k].length}\n${found[k].map((f) => f.text).join('\n')}`).join('\n\n'),
      );
    const now = Object.fromEntries(kinds.map((k) => [k, found[k].map((f) => f.key).sort()])) as Record<Kind, string[]>;
    if (process.env.TOOLDEF_CORPUS_GAPS === 'update') writeFileSync(GAPS, JSON.stringify(now, null, 2) + '\n');
    const known = JSON.parse(readFileSync(GAPS, 'utf8')) as Record<Kind, string[]>;
    const pct = (n: number) => `${((100 * n) / refused).toFixed(1)} %`;
    const summary =
      `${snippets.length} snippets, ${refused} refused by CPython; missed ${found.missed.length}, ` +
      `false alarms ${found.falseAlarms.length}, other line ${found.wrongLine.length}, ` +
      `column within ±1 ${pct(refused - found.wrongCol.length - found.wrongLine.length)}, ` +
      `CPython's message ${pct(refused - found.wrongMsg.length)}`;
    t.diagnostic(summary);
    assert.ok(refused > 1000 && snippets.length > 3000, summary);
    assert.deepEqual(
      found.missed.map((f) => f.text),
      [],
      summary,
    );
    assert.deepEqual(
      found.falseAlarms.map((f) => f.text),
      [],
      summary,
    );
    assert.ok(found.wrongCol.length + found.wrongLine.length <= refused * 0.05, summary);
    assert.ok(found.wrongMsg.length <= refused * 0.05, summary);
    for (const kind of kinds) {
      const listed = new Set(known[kind]);
      const fresh = found[kind].filter((f) => !listed.has(f.key)).map((f) => f.text);
      const fixed = known[kind].filter((k) => !now[kind].includes(k));
      assert.deepEqual(fresh, [], `${kind}: new disagreements with CPython (${summary})`);
      assert.deepEqual(fixed, [], `${kind}: agreed now; take them off test/python/corpus-gaps.json (${summary})`);
    }
  });
});
