import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CompletionItem, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, assertNowBetween, cursor, llmTool, load, smartTool } from '../helpers';

function complete(fixture: string, kind?: 'smart' | 'llm', trigger?: string) {
  const { text, offset } = cursor(fixture);
  const { service, model, doc } = load(text, { kind });
  const list = service.doComplete(model, doc.positionAt(offset), trigger);
  const apply = (label: string): string => {
    const item = list.items.find((i) => i.label === label);
    assert.ok(item, `no item ${label} in ${list.items.map((i) => i.label).join(', ')}`);
    return applyEdits(doc, [item.textEdit as TextEdit]);
  };
  return { items: list.items, labels: list.items.map((i: CompletionItem) => i.label), apply };
}

describe('completion', () => {
  it('after {{ in model_prompt: the variable names, names with spaces included, closing the braces', () => {
    const fixture = llmTool({ prompt: 'Say {{|' });
    const { labels, apply } = complete(fixture);
    assert.deepEqual(labels, ['text', 'target language']);
    assert.match(apply('target language'), /"model_prompt": "Say \{\{target language\}\}"/);
  });

  it('inside an existing placeholder: replaces the name and keeps the closing braces', () => {
    const { apply } = complete(llmTool({ prompt: 'Say {{te|xt}} now' }));
    assert.match(apply('target language'), /"Say \{\{target language\}\} now"/);
  });

  it('after {{ behind JSON escapes: the replaced range is mapped through them', () => {
    const { apply } = complete(llmTool({ prompt: 'a\n"b"\t{{t|' }));
    assert.match(apply('text'), /"model_prompt": "a\\n\\"b\\"\\t\{\{text\}\}"/);
  });

  it('property names valid at the cursor, per kind and level, as snippets with a value skeleton', () => {
    const fixture = '{\n  "version": "1.0",\n  "metadata": {\n    "tool_name": "x",\n    |\n  }\n}';
    const { labels, items } = complete(fixture);
    assert.ok(labels.includes('tool_code'));
    assert.ok(labels.includes('requirements'));
    assert.ok(!labels.includes('tool_name'), 'existing keys are not proposed');
    assert.ok(!labels.includes('parameters'), 'LLM-only fields are not proposed for a smart tool');
    const code = items.find((i) => i.label === 'tool_code')!;
    assert.equal(code.insertTextFormat, 2);
    assert.match(
      (code.textEdit as TextEdit).newText,
      /^"tool_code": "def execute\(variables\):\\n {4}return \$\{1:""\}\\n"/,
    );
    assert.equal(code.detail, 'required');
    assert.ok(String((code.documentation as { value: string }).value).includes('execute'));
    const creator = items.find((i) => i.label === 'creator')!;
    assert.match(
      (creator.textEdit as TextEdit).newText,
      /"creator": \{\n\t"name": "\$1",\n\t"email": "\$\{2:<EMAIL>\}"/,
    );
  });

  it('top-level property names of an LLM tool, with a comma when a member follows', () => {
    const fixture = '{\n  |\n  "model_prompt": "x",\n  "metadata": {}\n}';
    const { labels, items } = complete(fixture);
    assert.deepEqual(labels.sort(), ['$schema', 'version']);
    assert.match((items.find((i) => i.label === 'version')!.textEdit as TextEdit).newText, /,$/);
  });

  it('inside a key being typed: replaces the whole key without adding a second value', () => {
    const fixture = llmTool().replace('"usage_notes"', '"usa|"');
    const { items } = complete(fixture);
    const item = items.find((i) => i.label === 'usage_notes');
    assert.ok(item);
    assert.equal((item.textEdit as TextEdit).newText, '"usage_notes"');
  });

  it('enum values for type, expected_output.type and avatar_type', () => {
    assert.deepEqual(complete(llmTool().replace('"type": "text",', '"type": "|",')).labels, [
      'text',
      'single-select',
      'multi-select',
    ]);
    assert.deepEqual(complete(llmTool().replace('"type": "text"\n', '"type": "|"\n')).labels, [
      'text',
      'code',
      'limited',
    ]);
    assert.deepEqual(complete(llmTool().replace('"avatar_type": "base64"', '"avatar_type": "|"')).labels, [
      'base64',
      'url',
    ]);
  });

  it('allowed_values in a select default', () => {
    const fixture = llmTool().replace('"default": "English"', '"default": "|"');
    const { labels, apply } = complete(fixture);
    assert.deepEqual(labels, ['English', 'French']);
    assert.match(apply('French'), /"default": "French"/);
  });

  it('known model ids in model_version (from the setting)', () => {
    const fixture = llmTool().replace('"model_version": [\n      "gpt-4"\n    ]', '"model_version": [|]');
    assert.deepEqual(complete(fixture).labels, ['gpt-4', 'gpt-3.5', 'claude', 'chat-bison']);
  });

  it('the current time in timestamp', () => {
    const before = Date.now();
    const { labels } = complete(smartTool().replace('"timestamp": "2026-03-14T09:30:00Z"', '"timestamp": "|"'));
    assert.equal(labels.length, 1);
    assert.match(labels[0], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assertNowBetween(labels[0], before);
  });

  it('nothing before an existing value, inside an escape, or for empty allowed values', () => {
    assert.deepEqual(complete(llmTool().replace('"model_version": [', '"model_version": | [')).labels, []);
    assert.deepEqual(complete(llmTool({ prompt: '{{é' }).replace('{{é', '{{\\u|00e9')).labels, []);
    const fixture = llmTool({
      prompt: '{{s}}',
      variables: [{ name: 's', type: 'single-select', description: '', default: 'x', allowed_values: ['', 'x'] }],
    });
    assert.deepEqual(complete(fixture.replace('"default": "x"', '"default": "|"')).labels, ['x']);
  });

  it('a new timestamp property is filled with the current time', () => {
    const base = JSON.parse(smartTool());
    delete base.metadata.timestamp;
    const before = Date.now();
    const { items } = complete(
      JSON.stringify(base, null, 2).replace('"requirements": ""', '"requirements": "",\n    |'),
    );
    const newText = (items.find((i) => i.label === 'timestamp')!.textEdit as TextEdit).newText;
    const m = /^"timestamp": "\$\{1:(.+)\}"$/.exec(newText);
    assert.ok(m, newText);
    assertNowBetween(m[1], before);
  });

  it('in a file being written with a forced kind, and nothing in other JSON', () => {
    assert.ok(complete('{|}', 'smart').labels.includes('metadata'));
    assert.deepEqual(complete('{"a": |}').labels, []);
  });
});

describe('completion while typing: only a character that asks for a list opens one', () => {
  const typed = (fixture: string, trigger: string) => complete(fixture, undefined, trigger).labels;

  it('{ opens the list as the second brace of a placeholder, never as a JSON object brace', () => {
    assert.deepEqual(typed(llmTool({ prompt: 'Say {{|' }), '{'), ['text', 'target language']);
    assert.deepEqual(typed(llmTool({ prompt: 'Say {|' }), '{'), []);
    const object = llmTool().replace('"parameters": {', '"parameters": {|');
    assert.ok(complete(object).labels.length > 0, 'asked for (Ctrl+Space), the keys are listed');
    assert.deepEqual(typed(object, '{'), []);
  });

  it(': opens the values of a property, not inside a string', () => {
    const value = llmTool().replace('"avatar_type": "base64"', '"avatar_type":|');
    assert.ok(typed(value, ':').length > 0, 'avatar_type values');
    assert.deepEqual(
      typed(llmTool().replace('"timestamp": "2026-03-14T09:', '"timestamp": "2026-03-14T09:|'), ':'),
      [],
    );
  });

  it('" opens the list wherever a key or a value begins; a comma or a space never does', () => {
    assert.ok(typed(llmTool().replace('"avatar_type": "base64"', '"avatar_type": "|"'), '"').includes('base64'));
    const afterComma = llmTool().replace('"gpt-4"\n', '"gpt-4",|\n');
    assert.ok(complete(afterComma).labels.length > 0, 'asked for, the model ids are listed');
    assert.deepEqual(typed(afterComma, ','), []);
    const afterSpace = llmTool().replace('"avatar_type": "base64"', '"avatar_type": |');
    assert.ok(complete(afterSpace).labels.length > 0, 'asked for, the values are listed');
    assert.deepEqual(typed(afterSpace, ' '), []);
  });
});
