import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { scanPlaceholders, type Placeholder } from '../../server/src/service/template';

/** The definition, written the obvious (quadratic) way. */
function reference(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  let i = text.indexOf('{{');
  while (i >= 0) {
    while (text.charCodeAt(i + 2) === 0x7b) i++;
    const close = text.indexOf('}}', i + 2);
    const reopen = text.indexOf('{{', i + 2);
    if (close < 0 || (reopen >= 0 && reopen < close)) {
      out.push({ start: i, end: i + 2, name: '', closed: false });
      i = reopen;
    } else {
      out.push({ start: i, end: close + 2, name: text.slice(i + 2, close), closed: true });
      i = text.indexOf('{{', close + 2);
    }
  }
  return out;
}

describe('scanPlaceholders', () => {
  it('finds closed, unclosed, nested-brace and empty placeholders', () => {
    assert.deepEqual(scanPlaceholders('a {{x}} b {{ y }} {{{z}}} {{}} {{open {{w}}'), [
      { start: 2, end: 7, name: 'x', closed: true },
      { start: 10, end: 17, name: ' y ', closed: true },
      { start: 19, end: 24, name: 'z', closed: true },
      { start: 26, end: 30, name: '', closed: true },
      { start: 31, end: 33, name: '', closed: false },
      { start: 38, end: 43, name: 'w', closed: true },
    ]);
  });

  it('agrees with the plain definition on random brace soup', () => {
    const soup = fc
      .array(fc.constantFrom('{', '}', '{{', '}}', 'a', ' ', 'name'), { maxLength: 40 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(soup, (t) => assert.deepEqual(scanPlaceholders(t), reference(t))),
      { seed: 7, numRuns: 5000 },
    );
  });

  it('scans thousands of unclosed `{{` in linear time', () => {
    // Counted, not timed: the characters every search visits, which a quadratic scan would multiply.
    const text = '{{ x '.repeat(20_000) + 'a'.repeat(200_000);
    const indexOf = String.prototype.indexOf;
    let visited = 0;
    String.prototype.indexOf = function (this: string, needle: string, from = 0) {
      const found = indexOf.call(this, needle, from);
      visited += (found < 0 ? this.length : found) - from;
      return found;
    };
    let found: ReturnType<typeof scanPlaceholders>;
    try {
      found = scanPlaceholders(text);
    } finally {
      String.prototype.indexOf = indexOf;
    }
    assert.equal(found.length, 20_000);
    assert.ok(found.every((p) => !p.closed));
    assert.ok(visited <= 2 * text.length, `visited ${visited} characters of ${text.length}`);
  });
});
