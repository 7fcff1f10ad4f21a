import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { llmTool, load } from '../helpers';

/** Decodes LSP's relative encoding into [text, modifiers] pairs. */
function decode(text: string): [string, number][] {
  const { service, model, doc } = load(text);
  const data = service.getSemanticTokens(model);
  const out: [string, number][] = [];
  let line = 0;
  let ch = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    ch = data[i] === 0 ? ch + data[i + 1] : data[i + 1];
    out.push([
      doc.getText({ start: { line, character: ch }, end: { line, character: ch + data[i + 2] } }),
      data[i + 4],
    ]);
  }
  return out;
}

describe('semantic tokens', () => {
  it('mark declared variables and the placeholders that name them, through escapes', () => {
    const tokens = decode(llmTool({ prompt: 'a\n"q" {{target language}} {{nope}} {{text}}' }));
    assert.deepEqual(tokens, [
      ['target language', 0],
      ['text', 0],
      ['text', 1],
      ['target language', 1],
    ]);
  });
});
