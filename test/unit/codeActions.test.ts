import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CodeAction, Range } from 'vscode-languageserver-types';
import { applyEdits, assertNowBetween, llmTool, load, smartTool } from '../helpers';

/** Validates, asks for the actions of the first diagnostic with `code`, and applies the one titled `title`. */
function fix(
  text: string,
  code: string,
  title: string | RegExp,
  opts: Parameters<typeof load>[1] = {},
): { titles: string[]; result: string } {
  const { service, model, doc } = load(text, opts);
  const diagnostics = service.doValidation(model);
  const d = diagnostics.find((x) => x.code === code);
  assert.ok(d, `no ${code} in ${diagnostics.map((x) => x.code).join(', ')}`);
  const actions: CodeAction[] = service.doCodeActions(model, d.range, [d]);
  const titles = actions.map((a) => a.title);
  const action = actions.find((a) => (typeof title === 'string' ? a.title === title : title.test(a.title)));
  assert.ok(action, `no action ${String(title)} in ${JSON.stringify(titles)}`);
  const result = applyEdits(doc, action.edit!.changes![doc.uri]);
  return { titles, result };
}

function codesAfter(text: string, opts: Parameters<typeof load>[1] = {}): string[] {
  const { service, model } = load(text, opts);
  return service.doValidation(model).map((d) => String(d.code));
}

describe('quick fixes', () => {
  it('a number or a boolean written as a string, where the schema wants that type: unquoted', () => {
    const text = llmTool({ metadata: { parameters: { temperature: ' 0.5 ', max_tokens: '500' } } });
    const t = fix(text, 'wrong-type', 'Change to 0.5');
    assert.equal(JSON.parse(t.result).metadata.parameters.temperature, 0.5);
    const both = fix(t.result, 'wrong-type', 'Change to 500');
    assert.deepEqual(JSON.parse(both.result).metadata.parameters, { temperature: 0.5, max_tokens: 500 });
    assert.deepEqual(codesAfter(both.result), []);
    // Not a number: no such fix (the message says what to do).
    const { service, model } = load(llmTool({ metadata: { parameters: { temperature: 'warm' } } }));
    const d = service.doValidation(model).find((x) => x.code === 'wrong-type')!;
    assert.deepEqual(
      service.doCodeActions(model, d.range, [d]).map((a) => a.title),
      [],
    );
  });

  it('an unclosed {{: closed after the declared name it begins with, the longest first, through escapes', () => {
    const text = llmTool({ prompt: 'Say "{{target language now, then {{text}}' });
    const { titles, result } = fix(text, 'malformed-placeholder', 'Close as {{target language}}');
    assert.deepEqual(titles, ['Close as {{target language}}']);
    assert.match(result, /"Say \\"\{\{target language\}\} now, then \{\{text\}\}"/);
    assert.deepEqual(codesAfter(result), []);
    const { service, model } = load(llmTool({ prompt: 'Say {{nothing declared {{text}}' }));
    const d = service.doValidation(model).find((x) => x.code === 'malformed-placeholder')!;
    assert.deepEqual(
      service.doCodeActions(model, d.range, [d]).map((a) => a.title),
      [],
      'no declared name follows: nothing to offer',
    );
  });

  it('a missing required or recommended field: added with an empty value of its type', () => {
    const noNotes = smartTool({ metadata: { usage_notes: undefined } });
    const notes = fix(noNotes, 'missing-recommended-field', 'Add "usage_notes"');
    assert.equal(JSON.parse(notes.result).metadata.usage_notes, '');
    assert.ok(!codesAfter(notes.result).includes('missing-recommended-field'));
    const noCode = smartTool({ metadata: { tool_code: undefined } });
    const added = fix(noCode, 'missing-field', 'Add "tool_code"');
    assert.equal(JSON.parse(added.result).metadata.tool_code, '');
    assert.ok(!codesAfter(added.result).includes('missing-field'), codesAfter(added.result).join(', '));
  });

  it('an unused import: removed, its line or its name, through the JSON escapes', () => {
    const code =
      'import os\nfrom json import dumps, loads\n\ndef execute(variables):\n    return dumps(variables["name"])\n';
    const first = fix(smartTool({ code }), 'unused-import', 'Remove the unused import');
    assert.equal(
      JSON.parse(first.result).metadata.tool_code,
      'from json import dumps, loads\n\ndef execute(variables):\n    return dumps(variables["name"])\n',
    );
    const second = fix(first.result, 'unused-import', 'Remove the unused import');
    assert.match(JSON.parse(second.result).metadata.tool_code, /^from json import dumps\n/);
    assert.deepEqual(codesAfter(second.result), []);
  });

  it('an undefined name: changed to the closest defined one', () => {
    const code = 'def execute(variables):\n    return strr(variables["name"])\n';
    const t = fix(smartTool({ code }), 'undefined-name', 'Change to "str"');
    assert.equal(
      JSON.parse(t.result).metadata.tool_code,
      'def execute(variables):\n    return str(variables["name"])\n',
    );
    assert.deepEqual(codesAfter(t.result), []);
  });

  it('a hard-coded secret: replaced with "<API_KEY>" in its own quotes, through the JSON escapes', () => {
    const text = smartTool({
      code: 'API_KEY = r\'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD\'\nHEADERS = {"token": "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789WXYZ"}\n\ndef execute(variables):\n    return variables["name"] + API_KEY\n',
    });
    const first = fix(text, 'hardcoded-secret', `Replace the secret with '<API_KEY>'`);
    assert.match(JSON.parse(first.result).metadata.tool_code, /^API_KEY = '<API_KEY>'\n/);
    const second = fix(first.result, 'hardcoded-secret', 'Replace the secret with "<API_KEY>"');
    assert.match(JSON.parse(second.result).metadata.tool_code, /HEADERS = \{"token": "<API_KEY>"\}/);
    assert.ok(!codesAfter(second.result).includes('hardcoded-secret'));
  });

  it('a hard-coded secret: Move to secret, where the client keeps secrets, names a free reference and carries the value', () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD';
    const text = smartTool({
      code: `OTHER = "<API_KEY>"\nAPI_KEY = r'${key}'\nTOKEN = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789\\x41BCD"\n\ndef execute(variables):\n    return variables["name"] + API_KEY\n`,
    });
    const { service, model, doc } = load(text);
    const all = service.doValidation(model);
    const [first, second] = all.filter((d) => d.code === 'hardcoded-secret');
    assert.ok(second, JSON.stringify(all.map((d) => [d.code, d.message, d.range])));
    // Without a client that keeps secrets, only the placeholder is offered.
    assert.deepEqual(
      service.doCodeActions(model, first.range, [first]).map((a) => a.title),
      ["Replace the secret with '<API_KEY>'"],
    );
    const actions = service.doCodeActions(model, first.range, [first], { storesSecrets: true });
    assert.deepEqual(
      actions.map((a) => [a.title, a.isPreferred ?? false]),
      [
        ['Move to secret <API_KEY_2>', true],
        ["Replace the secret with '<API_KEY>'", false],
      ],
    );
    assert.deepEqual(actions[0].command?.arguments, ['API_KEY_2', key]);
    assert.equal(actions[0].command?.command, 'tooldef.storeSecret');
    const moved = applyEdits(doc, actions[0].edit!.changes![doc.uri]);
    assert.match(JSON.parse(moved).metadata.tool_code, /\nAPI_KEY = '<API_KEY_2>'\n/);
    // A value with an escape would need decoding beyond its quotes: not moved (the placeholder remains).
    assert.deepEqual(
      service.doCodeActions(model, second.range, [second], { storesSecrets: true }).map((a) => a.title),
      ['Replace the secret with "<API_KEY>"'],
    );
  });

  it('unknown placeholder: closest variable name, through escapes', () => {
    const { result } = fix(
      llmTool({ prompt: 'a\n"q" {{txet}} {{target language}}' }),
      'unknown-placeholder',
      'Change to "text"',
    );
    assert.match(result, /"a\\n\\"q\\" \{\{text\}\} \{\{target language\}\}"/);
    assert.deepEqual(codesAfter(result), []);
  });

  it('unknown placeholder: add a missing variable', () => {
    const { result } = fix(
      llmTool({ prompt: '{{text}} {{target language}} {{tone of voice}}' }),
      'unknown-placeholder',
      'Add variable "tone of voice"',
    );
    const parsed = JSON.parse(result);
    assert.deepEqual(parsed.metadata.variables[2], {
      name: 'tone of voice',
      type: 'text',
      description: '',
      default: '',
    });
    assert.deepEqual(codesAfter(result), []);
  });

  it('add variable creates the variables array when there is none', () => {
    const base = JSON.parse(llmTool({ prompt: '{{x}}' }));
    delete base.metadata.variables;
    const { result } = fix(JSON.stringify(base, null, 2), 'unknown-placeholder', 'Add variable "x"');
    assert.deepEqual(JSON.parse(result).metadata.variables, [
      { name: 'x', type: 'text', description: '', default: '' },
    ]);
  });

  it('placeholder whitespace: trims it', () => {
    const { result } = fix(
      llmTool({ prompt: '{{ text }} {{target language}}' }),
      'placeholder-whitespace',
      /Remove the spaces/,
    );
    assert.equal(JSON.parse(result).model_prompt, '{{text}} {{target language}}');
    assert.deepEqual(codesAfter(result), []);
  });

  it('wrap and unwrap a default', () => {
    const wrap = fix(
      llmTool({
        prompt: '{{m}}',
        variables: [{ name: 'm', type: 'multi-select', description: '', default: 'a', allowed_values: ['a'] }],
      }),
      'default-type-mismatch',
      'Wrap in an array',
    );
    assert.deepEqual(JSON.parse(wrap.result).metadata.variables[0].default, ['a']);
    const unwrap = fix(
      llmTool({
        prompt: '{{s}}',
        variables: [{ name: 's', type: 'single-select', description: '', default: ['a'], allowed_values: ['a'] }],
      }),
      'default-type-mismatch',
      'Unwrap the array',
    );
    assert.equal(JSON.parse(unwrap.result).metadata.variables[0].default, 'a');
    const quote = fix(
      smartTool({ variables: [{ name: 'name', description: '', default: 42 }] }),
      'default-type-mismatch',
      'Change to "42"',
    );
    assert.equal(JSON.parse(quote.result).metadata.variables[0].default, '42');
  });

  it('wrap model_version in an array', () => {
    const { result } = fix(
      llmTool({ metadata: { model_version: 'claude' } }),
      'model-version-string',
      'Wrap in an array',
    );
    assert.deepEqual(JSON.parse(result).metadata.model_version, ['claude']);
    assert.deepEqual(codesAfter(result), []);
  });

  it('flatten a nested avatar', () => {
    const base = JSON.parse(llmTool());
    delete base.metadata.avatar_type;
    base.metadata.avatar = { avatar_type: 'url', avatar: 'https://example.com/a.png' };
    const { result } = fix(JSON.stringify(base, null, 2), 'nested-avatar', /Move avatar_type and avatar/);
    const parsed = JSON.parse(result);
    assert.equal(parsed.metadata.avatar_type, 'url');
    assert.equal(parsed.metadata.avatar, 'https://example.com/a.png');
    assert.deepEqual(codesAfter(result), []);
  });

  it('flatten replaces an avatar_type that the nested object overrides', () => {
    const base = JSON.parse(llmTool());
    base.metadata.avatar = { avatar_type: 'url', avatar: 'https://example.com/a.png' };
    const { result } = fix(JSON.stringify(base, null, 2), 'nested-avatar', /Move avatar_type/);
    assert.equal(JSON.parse(result).metadata.avatar_type, 'url');
    assert.deepEqual(codesAfter(result), []);
  });

  it('move a misplaced field: into metadata, into parameters (created when missing), to the top level', () => {
    const smart = JSON.parse(smartTool());
    smart.tool_code = smart.metadata.tool_code;
    delete smart.metadata.tool_code;
    const code = fix(JSON.stringify(smart, null, 2), 'misplaced-field', 'Move "tool_code" into "metadata"');
    assert.equal(JSON.parse(code.result).metadata.tool_code, JSON.parse(smartTool()).metadata.tool_code);
    assert.deepEqual(codesAfter(code.result), []);
    const base = JSON.parse(llmTool());
    delete base.metadata.parameters;
    base.metadata.temperature = 0.3;
    const temp = fix(JSON.stringify(base, null, 2), 'misplaced-field', 'Move "temperature" into "metadata.parameters"');
    assert.deepEqual(JSON.parse(temp.result).metadata.parameters, { temperature: 0.3 });
    assert.deepEqual(codesAfter(temp.result), []);
    const version = JSON.parse(llmTool());
    delete version.version;
    version.metadata.version = '2.0';
    const v = fix(JSON.stringify(version, null, 2), 'misplaced-field', 'Move "version" into the top level');
    assert.equal(JSON.parse(v.result).version, '2.0');
  });

  it('rename a misspelled key', () => {
    const { result } = fix(
      smartTool().replace('"usage_notes"', '"usage_note"'),
      'unknown-field',
      'Rename to "usage_notes"',
    );
    assert.deepEqual(codesAfter(result), []);
  });

  it('replace an invalid enum value, a disallowed default, an unknown model', () => {
    assert.equal(
      JSON.parse(
        fix(llmTool({ metadata: { expected_output: { type: 'txt' } } }), 'invalid-enum', 'Change to "text"').result,
      ).metadata.expected_output.type,
      'text',
    );
    assert.equal(
      JSON.parse(
        fix(
          llmTool().replace('"default": "English"', '"default": "english"'),
          'default-not-allowed',
          'Change to "English"',
        ).result,
      ).metadata.variables[1].default,
      'English',
    );
  });

  it('update timestamp to now, with or without a diagnostic', () => {
    const before = Date.now();
    const { result, titles } = fix(
      llmTool({ metadata: { timestamp: 'yesterday' } }),
      'invalid-timestamp',
      'Update timestamp to now',
    );
    assert.deepEqual(titles, ['Update timestamp to now']);
    assertNowBetween(JSON.parse(result).metadata.timestamp, before);
    const text = llmTool();
    const { service, model, doc } = load(text);
    const at = doc.positionAt(text.indexOf('2026-03-14') + 2);
    const range: Range = { start: at, end: at };
    assert.deepEqual(
      service.doCodeActions(model, range, []).map((a) => a.title),
      ['Update timestamp to now'],
    );
  });
});
