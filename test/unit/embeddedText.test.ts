import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EmbeddedText, escapeJsonContent } from '../../server/src/service/json/embeddedText';

/** Builds a document holding one JSON string literal and returns the literal's map. */
function literal(prefix: string, content: string): { doc: string; e: EmbeddedText } {
  const doc = `${prefix}"${content}" `;
  return { doc, e: EmbeddedText.fromLiteral(doc, { offset: prefix.length, length: content.length + 2 }) };
}

describe('EmbeddedText', () => {
  it('decodes every JSON escape exactly like JSON.parse', () => {
    const content = String.raw`a\nb\tc\"d\\e\/f\bg\fh\ri\u00e9j\ud83d\ude00k`;
    const { e } = literal('{"k": ', content);
    assert.equal(e.text, JSON.parse(`"${content}"`));
  });

  it('maps every decoded offset to the document and back, through every escape', () => {
    const content = String.raw`x\n\t\"\\\/\b\f\r\u0041\ud83d\ude00 é😀y`;
    const prefix = '\r\n  {"p": ';
    const { doc, e } = literal(prefix, content);
    const start = prefix.length + 1;
    // expected document offset of each decoded unit, walked by hand
    const expected: number[] = [];
    let o = start;
    for (let i = 0; o < start + content.length; i++) {
      expected.push(o);
      if (doc[o] === '\\') o += doc[o + 1] === 'u' ? 6 : 2;
      else o += 1;
    }
    expected.push(start + content.length); // the end maps to the closing quote
    assert.equal(expected.length, e.text.length + 1);
    for (let d = 0; d <= e.text.length; d++) {
      assert.equal(e.toDocument(d), expected[d], `decoded ${d}`);
      assert.equal(e.toDecoded(expected[d]), d, `document ${expected[d]}`);
    }
  });

  it('maps an offset inside an escape to the unit it produces', () => {
    const { e } = literal('', String.raw`a\u00e9b`);
    // document: "a\u00e9b" → the escape occupies offsets 2..7
    for (let o = 2; o < 8; o++) assert.equal(e.toDecoded(o), 1);
    assert.equal(e.toDecoded(8), 2);
  });

  it('keeps a surrogate pair written as two escapes as two units, each with its own escape', () => {
    const { e } = literal('', String.raw`\ud83d\ude00`);
    assert.equal(e.text, '😀');
    assert.deepEqual(e.rangeToDocument(0, 2), { offset: 1, length: 12 });
    assert.deepEqual(e.rangeToDocument(1, 2), { offset: 7, length: 6 });
  });

  it('maps both ends of the string', () => {
    const { e } = literal('xx', String.raw`\nab\n`);
    assert.equal(e.toDocument(0), 3);
    assert.equal(e.toDocument(e.text.length), 3 + 6);
    assert.equal(e.toDecoded(0), 0);
    assert.equal(e.toDecoded(3), 0);
    assert.equal(e.toDecoded(100), e.text.length);
  });

  it('handles an unterminated literal and an invalid escape without losing offsets', () => {
    const doc = String.raw`"ab\qc\n`;
    const e = EmbeddedText.fromLiteral(doc, { offset: 0, length: doc.length });
    assert.equal(e.text, 'ab\\qc\n');
    assert.equal(e.toDocument(5), 6);
    assert.equal(e.contentEnd, doc.length);
  });

  it('leaves text without escapes as a plain slice', () => {
    const { e } = literal('{"a": ', 'plain text 😀');
    assert.equal(e.text, 'plain text 😀');
    assert.equal(e.toDocument(3), 6 + 1 + 3);
  });

  it('escapes decoded text back into valid JSON string content', () => {
    const s = 'quote " backslash \\ tab \t newline \n lone \ud800 é';
    assert.equal(JSON.parse(`"${escapeJsonContent(s)}"`), s);
  });
});
