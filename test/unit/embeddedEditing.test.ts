import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { embeddedRanges, readEmbedded, writeEmbedded } from '../../server/src/service/embeddedField';
import { llmTool, smartTool } from '../helpers';

const TRICKY = [
  'def execute(variables):\n    return "say \\"hi\\""\n',
  "def execute(variables):\n\tpath = 'C:\\\\temp\\\\new'\n\treturn path\n",
  'def execute(variables):\r\n    return "é 😀 \\u00e9 —"\r\n',
  'x = """\ntriple "quoted" text\n"""\n\ndef execute(variables):\n    return x + "\\n" + "\\\\n"\n',
  '\u0000\u001f lone \ud800 surrogate',
];

function roundTrip(text: string, field: 'tool_code' | 'model_prompt', content: string): string {
  const edit = writeEmbedded('file:///t.json', text, field, content)!;
  return text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length);
}

describe('editing an embedded field as its own document', () => {
  it('reads tool_code decoded and writes edits back as valid, equal JSON', () => {
    for (const code of TRICKY) {
      const text = smartTool({ code: 'def execute(variables):\n    return ""\n' });
      const written = roundTrip(text, 'tool_code', code);
      assert.equal(JSON.parse(written).metadata.tool_code, code);
      assert.equal(readEmbedded('file:///t.json', written, 'tool_code')!.text, code);
      // everything outside the string is untouched
      const before = JSON.parse(text);
      const after = JSON.parse(written);
      after.metadata.tool_code = before.metadata.tool_code;
      assert.deepEqual(after, before);
    }
  });

  it('keeps a CRLF definition file CRLF and its escapes (\\u00e9) equivalent', () => {
    const text = smartTool().replace(/\n/g, '\r\n').replace('return \\"hi \\"', 'return \\"h\\u00e9 \\"');
    const code = readEmbedded('file:///t.json', text, 'tool_code')!.text;
    assert.ok(code.includes('hé '));
    const written = roundTrip(text, 'tool_code', code + '# more\n');
    assert.equal((written.match(/\r\n/g) ?? []).length, (text.match(/\r\n/g) ?? []).length);
    assert.equal(JSON.parse(written).metadata.tool_code, code + '# more\n');
  });

  it('does the same for model_prompt, and refuses a field that is not a string', () => {
    const written = roundTrip(llmTool(), 'model_prompt', 'New {{text}}\nin "{{target language}}"');
    assert.equal(JSON.parse(written).model_prompt, 'New {{text}}\nin "{{target language}}"');
    assert.equal(
      writeEmbedded(
        'file:///t.json',
        llmTool().replace(/"model_prompt": "[^"]*"/, '"model_prompt": 5'),
        'model_prompt',
        'x',
      ),
      undefined,
    );
  });
});

describe("placing the definition's ranges in an embedded field", () => {
  it('maps through escapes to positions of the decoded text; ranges leaving the field are null', () => {
    const text = smartTool({ code: 'a = "\\t"\nb = 1\n' });
    const embedded = readEmbedded('file:///t.json', text, 'tool_code')!;
    const b = text.indexOf('b = 1');
    const quote = embedded.contentStart - 1;
    assert.deepEqual(
      embeddedRanges(embedded, [
        [b, b + 1],
        [embedded.contentStart, embedded.contentEnd],
        [quote, b],
      ]),
      [
        { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } },
        { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
        null,
      ],
    );
  });
});
