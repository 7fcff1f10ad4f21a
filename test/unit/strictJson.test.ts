import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseJson } from '../../server/src/service/json/tree';

/** Our fast path must accept exactly what JSON.parse accepts, with the same value. */
function agrees(text: string): void {
  let expected: unknown;
  let valid = true;
  try {
    expected = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    valid = false;
  }
  const ours = parseJson(text);
  assert.equal(ours.syntaxErrors.length === 0 && ours.root !== undefined, valid, `validity of ${JSON.stringify(text)}`);
  if (valid) assert.deepEqual(ours.value, expected, `value of ${JSON.stringify(text)}`);
}

describe('strict JSON fast path', () => {
  it('agrees with JSON.parse on edge cases', () => {
    const cases = [
      '',
      ' ',
      '{}',
      '[]',
      ' [ ] ',
      '{"a":1}',
      '{"a":1,}',
      '[1,]',
      '[,1]',
      '{,}',
      '{"a" 1}',
      '{"a":}',
      '{a:1}',
      "{'a':1}",
      '01',
      '-0',
      '-',
      '1.',
      '.5',
      '1e5',
      '1E+5',
      '1e',
      '+1',
      'NaN',
      'Infinity',
      '-Infinity',
      'true',
      'tru',
      'nul',
      'null ',
      'falsey',
      '"\\u00e9"',
      '"\\u00"',
      '"\\x41"',
      '"\\/"',
      '"a\nb"',
      '"a\tb"',
      '"a\rb"',
      '"\u0001"',
      '"\u007f"',
      '"\\ud800"',
      '"\ud800"',
      '1 2',
      '{} {}',
      '[1] x',
      '{"a":1}}',
      '[[]]]',
      '{"__proto__": {"x": 1}}',
      '{"a": 1, "a": 2}',
      '\ufeff{"a": 1}',
      '\ufeff',
      '{"a": [1, {"b": "c\\"d"}], "e": null}',
      // long texts take the other control-character check
      `"${'a'.repeat(70_000)}\u0001"`,
      `"${'a'.repeat(70_000)}"`,
      `["${'a'.repeat(70_000)}", "\t"]`,
      '"\\\\"',
      '"\\\\\\""',
      '"abc\\',
      '"',
      '[1, 2',
      '{"a": "b"',
      '\u000b1',
      '1\u000c',
    ];
    for (const c of cases) agrees(c);
  });

  it('finds control characters around and inside long escaped literals, which are not searched again', () => {
    const long = 'x\\n'.repeat(3000); // decoded by JSON.parse, so checked there
    const pieces = [`"${long}"`, `"short"`, `"${'b'.repeat(5000)}"`, `"${long}"`];
    for (let i = 0; i <= pieces.length; i++) {
      // A control character in each plain string and between the long ones …
      for (const at of [0, 1, 2]) {
        const parts = [...pieces];
        if (i < parts.length && at < 2) parts[i] = parts[i].slice(0, 1 + at) + '\u0001' + parts[i].slice(1 + at);
        const text = `[${parts.join(', ')}${i === parts.length ? ', "\u0002"' : ''}]`;
        agrees(text);
      }
    }
    // … and raw in a long escaped literal.
    agrees(`["${long}\u0003${long}"]`);
    agrees(`["${long}", "${long}", "${'c'.repeat(9000)}\u001f"]`);
  });

  it('agrees with JSON.parse on random and mutated JSON', () => {
    const json = fc.jsonValue().map((v) => JSON.stringify(v, null, fc.sample(fc.constantFrom(0, 2, '\t'), 1)[0]));
    const mutated = fc
      .tuple(
        json,
        fc.nat(),
        fc.constantFrom(
          '',
          '"',
          '\\',
          ',',
          ':',
          '{',
          '}',
          '[',
          ']',
          ' ',
          '\n',
          '\t',
          'u',
          '0',
          '-',
          'e',
          '\u0001',
          '\ud800',
        ),
      )
      .map(([t, i, ch]) => t.slice(0, i % (t.length + 1)) + ch + t.slice((i % (t.length + 1)) + (i % 2)));
    fc.assert(
      fc.property(fc.oneof(json, mutated, fc.string({ unit: 'grapheme-composite' })), (t) => agrees(t)),
      { seed: 42, numRuns: 3000 },
    );
  });

  it('reports duplicate keys after their first occurrence, with the last value kept', () => {
    const r = parseJson('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}');
    assert.deepEqual(
      r.duplicateKeys.map((k) => k.offset),
      [23, 32],
    );
    assert.deepEqual(r.value, { a: 3, b: { c: 2 } });
  });
});
