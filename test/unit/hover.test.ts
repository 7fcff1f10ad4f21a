import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cursor, llmTool, load, smartTool } from '../helpers';
import { PNG_256 } from './images';

function hover(fixture: string, remoteImages?: boolean): { value: string; covered: string } | null {
  const { text, offset } = cursor(fixture);
  const { service, model, doc } = load(text);
  const h = service.doHover(model, doc.positionAt(offset), remoteImages);
  if (!h) return null;
  return { value: (h.contents as { value: string }).value, covered: doc.getText(h.range!) };
}

describe('hover', () => {
  it('documents every field from the schema, on keys and values', () => {
    const key = hover(smartTool().replace('"tool_code"', '"tool_|code"'))!;
    assert.match(key.value, /\*\*`tool_code`\*\* — a string/);
    assert.match(key.value, /def execute\(variables\)/);
    assert.equal(key.covered, '"tool_code"');
    const enumValue = hover(llmTool().replace('"type": "single-select"', '"type": "single-s|elect"'))!;
    assert.match(enumValue.value, /One of `allowed_values`/);
  });

  it('on a placeholder: the variable it refers to, with type, description, default and allowed values', () => {
    const h = hover(llmTool({ prompt: 'In {{target lan|guage}}' }))!;
    assert.match(h.value, /Variable `target language`\*\* — single-select/);
    assert.match(h.value, /Language/);
    assert.match(h.value, /Default: `"English"`/);
    assert.match(h.value, /Allowed values: `English`, `French`/);
    assert.equal(h.covered, 'target language');
  });

  it('on an unknown placeholder: nothing, its diagnostic says it (once, with its suggestion)', () => {
    assert.equal(hover(llmTool({ prompt: '{{text}} {{no|pe}}' })), null);
  });

  it('on avatar: the decoded image itself and its size', () => {
    const h = hover(
      llmTool({ metadata: { avatar: PNG_256 } }).replace(
        `"${PNG_256}"`,
        `"${PNG_256.slice(0, 10)}|${PNG_256.slice(10)}"`,
      ),
    )!;
    assert.ok(h.value.startsWith(`![avatar](data:image/png;base64,${PNG_256})`));
    assert.match(h.value, /PNG, 256×256 px/);
  });

  it('on an avatar URL: the image only in a trusted workspace (it is fetched); in Restricted Mode, why not', () => {
    const url = 'https://img.example/a(1).png';
    const fixture = llmTool({ metadata: { avatar_type: 'url', avatar: url } }).replace(
      `"${url}"`,
      `"https://|img.example/a(1).png"`,
    );
    assert.equal(hover(fixture, true)!.value, `![avatar](https://img.example/a%281%29.png)\n\n${url}`);
    for (const untrusted of [hover(fixture, false)!, hover(fixture)!]) {
      assert.doesNotMatch(untrusted.value, /!\[/);
      assert.match(untrusted.value, /Restricted Mode.*trust the workspace/);
    }
  });

  it('nothing on punctuation or outside a definition', () => {
    assert.equal(hover('{"a": |1}'), null);
  });
});
