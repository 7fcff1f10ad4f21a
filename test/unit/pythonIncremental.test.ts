// PythonDocument: incremental re-analysis gives the same facts as a fresh analysis after every edit;
// fuzzed input never crashes or hangs; the 5,300-line module parses and re-parses within budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzePython, diffRange, PythonDocument, type PythonFacts } from '../../server/src/service/python/index';
import { rng } from '../python/mutations';
import { finish, type Steps } from '../../server/src/service/steps';

/** A tool_code like the benchmark's large file: ~5,300 lines of helpers and one execute. */
export function largeToolCode(lines = 5300): string {
  const out = ['import json', 'import re', 'from datetime import datetime', '', ''];
  let helper = 0;
  while (out.length < lines - 212) {
    out.push(`def helper_${helper}(value, limit=${(helper % 50) + 10}):`);
    out.push(`    """Helper number ${helper} normalises a value."""`);
    out.push('    items = [part.strip() for part in str(value).split(",") if part.strip()]');
    out.push('    if len(items) > limit:');
    out.push('        items = items[:limit]');
    out.push('    text = " ".join(items).replace("\\t", " ")');
    out.push(`    return f"{text!r} ({len(items)} items, helper ${helper})"`);
    out.push('', '');
    helper++;
  }
  out.push('def execute(variables):');
  out.push('    parts = []');
  for (let i = 0; i < 200; i++) out.push(`    parts.append(helper_${i % helper}(variables.get("var_${i}", "")))`);
  out.push('    stamp = datetime.now().isoformat()');
  out.push('    return json.dumps({"parts": parts, "at": stamp})');
  while (out.length < lines) out.push(`# note ${out.length}`);
  return out.join('\n') + '\n';
}

function normal(f: PythonFacts): unknown {
  return JSON.parse(JSON.stringify(f));
}

const SNIPPETS = [
  'def execute(variables):\n    return variables["a"]\n',
  'x = (1,\n',
  '    ',
  '\n',
  'if x:\n',
  '"""',
  "'",
  'return 1\n',
  'import yaml\n',
  'api_key = "sk-proj-q8Zr3LmV0xTb7NcW2yKd5PfH9sJg"\n',
  'async ',
  ')',
  ':',
  '\t',
  'class A:\n    def f(self): pass\n',
  'f"{',
  '\\',
  '# c\n',
  'lambda: (yield)\n',
  'é😀',
];

describe('PythonDocument', () => {
  it('finds the changed range by common prefix and suffix', () => {
    assert.deepEqual(diffRange('abcdef', 'abXdef'), { fromA: 2, toA: 3, fromB: 2, toB: 3 });
    assert.deepEqual(diffRange('aaaa', 'aaaaa'), { fromA: 4, toA: 4, fromB: 4, toB: 5 });
    assert.equal(diffRange('same', 'same'), undefined);
    const big = 'x'.repeat(5000);
    assert.deepEqual(diffRange(big + 'a' + big, big + 'bc' + big), { fromA: 5000, toA: 5001, fromB: 5000, toB: 5002 });
  });

  it('gives the same facts incrementally as from scratch, over random edits', (t) => {
    // While the source is broken, lezer's incremental recovery may differ from a fresh parse's, so
    // facts must be equal whenever the source is valid, and both must see that it is broken otherwise.
    const rand = rng(99);
    const doc = new PythonDocument();
    const original = largeToolCode(250);
    let src = original;
    doc.update(src);
    let valid = 0;
    for (let step = 0; step < 150; step++) {
      const at = Math.floor(rand() * (src.length + 1));
      const del = rand() < 0.4 ? Math.floor(rand() * 12) : 0;
      const ins = rand() < 0.7 ? SNIPPETS[Math.floor(rand() * SNIPPETS.length)] : '';
      src = src.slice(0, at) + ins + src.slice(at + del);
      // Every third edit passes the change explicitly, as an LSP client would.
      const change = step % 3 === 0 ? { fromA: at, toA: at + del, fromB: at, toB: at + ins.length } : undefined;
      const inc = doc.update(src, change);
      const fresh = analyzePython(src);
      const broken = (f: PythonFacts) => f.problems.some((p) => p.code === 'python-syntax');
      assert.equal(broken(inc), broken(fresh), `after step ${step}`);
      if (!broken(fresh)) {
        valid++;
        assert.deepEqual(normal(inc), normal(fresh), `after step ${step}`);
      }
      // Now and then the author fixes everything at once: the facts are exact again.
      if (step % 30 === 29) {
        src = original;
        assert.deepEqual(normal(doc.update(src)), normal(analyzePython(src)), `after restoring at step ${step}`);
      }
    }
    t.diagnostic(`${valid} of 150 random states were valid (compared in full); 5 restores compared in full`);
  });

  it('gives the same facts incrementally as from scratch, over edits that keep the code valid', () => {
    const rand = rng(5);
    const doc = new PythonDocument();
    let src = largeToolCode(300);
    doc.update(src);
    const lines = [
      'x = 1\n',
      'def g(a):\n    return a\n',
      '# comment\n',
      '\n',
      'import yaml\n',
      'k = variables["z"]\n',
    ];
    for (let step = 0; step < 150; step++) {
      const kind = rand();
      if (kind < 0.5) {
        // Type or delete a letter inside an identifier or a string.
        const m = [...src.matchAll(/[A-Za-z_]{3,}/g)];
        const w = m[Math.floor(rand() * m.length)];
        const at = w.index! + 1 + Math.floor(rand() * (w[0].length - 2));
        src = rand() < 0.5 ? src.slice(0, at) + 'q' + src.slice(at) : src.slice(0, at) + src.slice(at + 1);
        if (
          /^(def|class|if|for|in|return|import|from|and|or|not|is|else|while|with|as|try|except|lambda|yield|pass|None|True|False|async|await|del|global|nonlocal|assert|break|continue|raise|finally|elif)$/.test(
            src.slice(w.index!, w.index! + w[0].length + 1).match(/^\w+/)![0],
          )
        ) {
          src = src.slice(0, at) + 'z' + src.slice(at);
        }
      } else {
        // Insert a whole top-level line at the start of a top-level line.
        const starts = [...src.matchAll(/\n(?=[A-Za-z#\n])/g)].map((m) => m.index! + 1);
        const at = starts[Math.floor(rand() * starts.length)];
        src = src.slice(0, at) + lines[Math.floor(rand() * lines.length)] + src.slice(at);
      }
      const fresh = analyzePython(src);
      if (fresh.problems.some((p) => p.code === 'python-syntax')) continue; // a keyword was hit: skip
      assert.deepEqual(normal(doc.update(src)), normal(fresh), `after step ${step}`);
    }
  });

  it('never crashes or hangs on fuzzed input', () => {
    const rand = rng(7);
    const alphabet = [
      'a',
      'x',
      '1',
      '0',
      '_',
      ' ',
      '    ',
      '\t',
      '\n',
      '\r\n',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      ':',
      ',',
      '.',
      '=',
      '*',
      '**',
      '"',
      "'",
      '"""',
      '#',
      '\\',
      '@',
      'def ',
      'class ',
      'if ',
      'else',
      'return ',
      'yield',
      'await ',
      'async ',
      'lambda',
      'for ',
      ' in ',
      'f"',
      'b"',
      'r"',
      '{x}',
      'é',
      '😀',
      '\u0000',
      '\ufeff',
      '$',
      'import ',
      'from ',
      'variables',
      '["k"]',
      '.get(',
    ];
    const doc = new PythonDocument();
    for (let i = 0; i < 600; i++) {
      let s = '';
      const n = Math.floor(rand() * 80);
      for (let k = 0; k < n; k++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const f = doc.update(s);
      for (const p of f.problems)
        assert.ok(p.start >= 0 && p.end >= p.start && p.end <= s.length, JSON.stringify({ s, p }));
      for (const k of f.keys) assert.equal(s.slice(k.start, k.end), k.name);
    }
  });

  it('analyses the 5,300-line tool_code once, then only the statement a keystroke touches', () => {
    // How long this takes is `npm run bench`'s business; here, what is done: the work a keystroke costs.
    const src = largeToolCode();
    assert.equal(src.split('\n').length - 1, 5300);
    const doc = new PythonDocument();
    const facts = doc.update(src);
    const { chunks } = doc.lastWork;
    assert.deepEqual(doc.lastWork, { chunks, analysed: chunks });
    assert.ok(chunks > 100, `${chunks} top-level statements`);
    const at = src.indexOf('items = items[:limit]', src.length >> 1) + 5;
    let cur = src;
    for (let i = 0; i < 20; i++) {
      cur = i % 2 === 0 ? cur.slice(0, at) + 'x' + cur.slice(at) : cur.slice(0, at) + cur.slice(at + 1);
      doc.update(cur);
      assert.deepEqual(doc.lastWork, { chunks, analysed: 1 }, `keystroke ${i + 1}`);
    }
    assert.deepEqual(doc.update(src), facts);
    doc.update(src);
    assert.deepEqual(doc.lastWork, { chunks, analysed: 0 }, 'the same text again analyses nothing');
  });

  describe('as resumable steps', () => {
    /** Runs `n` steps; answers whether the generator finished. */
    const advance = (steps: Steps<unknown>, n: number) => {
      for (let i = 0; i < n; i++) if (steps.next().done) return true;
      return false;
    };
    const src = largeToolCode(1200);
    const edited = src.replace('def execute(variables):', 'def execute(variables):\n    x = variables["new"]');

    it('yields many times on a large module and ends with the facts of update', () => {
      const steps = new PythonDocument().updateSteps(src);
      let yields = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) yields++;
      assert.ok(yields > 100, `${yields} yields`);
      assert.deepEqual(normal(r.value), normal(new PythonDocument().update(src)));
    });

    it('leaves the document unchanged when abandoned half-way', () => {
      const doc = new PythonDocument();
      doc.update(src);
      assert.equal(advance(doc.updateSteps(edited), 50), false);
      assert.equal(doc.source, src);
      const again = src.replace('items = items[:limit]', 'items = items[:limit + 1]');
      assert.deepEqual(normal(doc.update(again)), normal(analyzePython(again)));
    });

    it('does not commit steps finished after a newer update', () => {
      const doc = new PythonDocument();
      doc.update(src);
      const older = doc.updateSteps(edited);
      advance(older, 20);
      const newer = edited.replace('"new"', '"newer"');
      doc.update(newer);
      assert.deepEqual(normal(finish(older)), normal(analyzePython(edited)));
      assert.equal(doc.source, newer);
      const last = newer + 'y = 1\n';
      assert.deepEqual(normal(doc.update(last)), normal(analyzePython(last)));
    });
  });
});
