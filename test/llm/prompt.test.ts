import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../../server/src/service/languageService';
import { defaultValues, fillPrompt, llmToolOf, validateInputs, type LlmTool } from '../../server/src/engine/llm/prompt';

function parse(text: string) {
  return getLanguageService().parse(TextDocument.create('file:///work/tool.json', 'json', 1, text));
}

function toolOf(text: string): LlmTool {
  const r = llmToolOf(parse(text));
  if (!r.ok) assert.fail(r.error);
  return r.tool;
}

function llm(variables: unknown[], prompt: string, metadata: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: '1.0',
    model_prompt: prompt,
    metadata: {
      prompt_name: 'T',
      model_version: ['gpt-4'],
      creator: { name: 'a', email: '<EMAIL>', organization: 'o' },
      timestamp: '2024-01-01T00:00:00Z',
      variables,
      ...metadata,
    },
  });
}

describe('llmToolOf', () => {
  it('describes an example LLM tool: inputs in order, defaults, allowed values, parameters, models, expected output', () => {
    const tool = toolOf(readFileSync('examples/llm/meeting-summariser.json', 'utf8'));
    assert.equal(tool.name, 'Meeting summariser');
    assert.deepEqual(
      tool.inputs.map((i) => [i.name, i.type, i.index]),
      [
        ['meeting notes', 'text', 0],
        ['summary length', 'single-select', 1],
        ['output language', 'single-select', 2],
      ],
    );
    assert.equal(tool.inputs[1].default, 'short');
    assert.deepEqual(tool.inputs[1].allowedValues, ['short', 'medium', 'detailed']);
    assert.equal(tool.inputs[0].description, 'Notes or transcript of the meeting.');
    assert.deepEqual(tool.parameters, {
      temperature: 0,
      max_tokens: 1024,
      top_p: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
    });
    assert.deepEqual(tool.modelIds, ['gpt-4', 'claude']);
    assert.deepEqual(tool.expectedOutput, { type: 'text', format: 'JSON' });
    assert.ok(
      tool.prompt.includes('"summary" (a {{summary length}} paragraph)'),
      'the prompt is decoded (escaped quotes)',
    );
    assert.deepEqual(tool.warnings, []);
    const filled = fillPrompt(tool, defaultValues(tool));
    assert.deepEqual([filled.missing, filled.unknown], [[], []]);
    assert.ok(filled.text.includes('a short paragraph') && filled.text.includes('Write the values in English.'));
  });

  it('gives multi-select defaults as arrays and coerces odd shapes with warnings', () => {
    const tool = toolOf(
      llm(
        [
          { name: 'tags', type: 'multi-select', default: ['a', 'c'], allowed_values: ['a', 'b', 'c'] },
          { name: 'one', type: 'multi-select', default: 'b', allowed_values: ['a', 'b'] },
          { name: 'none', type: 'multi-select', allowed_values: ['a'] },
          { name: 'untyped', default: 'x' },
          { name: 'tags', type: 'text' },
          { type: 'text' },
          { name: 'arr', type: 'single-select', default: ['p', 'q'], allowed_values: ['p', 'q'] },
          { name: 'num', type: 'text', default: 3 },
        ],
        '{{tags}}',
        {
          model_version: 'gpt-4',
          parameters: { temperature: 0.5, max_tokens: 1.5, top_p: 'x', seed: 3 },
          expected_output: { type: 'limited', allowed_values: ['yes', 'no', 1] },
        },
      ),
    );
    assert.deepEqual(
      tool.inputs.map((i) => [i.name, i.type, i.default]),
      [
        ['tags', 'multi-select', ['a', 'c']],
        ['one', 'multi-select', ['b']],
        ['none', 'multi-select', []],
        ['untyped', 'text', 'x'],
        ['arr', 'single-select', 'p'],
        ['num', 'text', '3'],
      ],
    );
    assert.deepEqual(tool.modelIds, ['gpt-4'], 'a single-string model_version is accepted');
    assert.deepEqual(tool.parameters, { temperature: 0.5 });
    assert.deepEqual(tool.expectedOutput, { type: 'limited', allowedValues: ['yes', 'no'] });
    const w = tool.warnings.join('\n');
    for (const part of [
      '"one" is multi-select',
      'no type',
      'declared twice',
      'variables[5] has no name',
      'first entry',
      '"max_tokens" must be a positive integer',
      '"top_p" is not a number',
      '"seed" is not a known',
    ]) {
      assert.ok(w.includes(part), `warning about ${part} in:\n${w}`);
    }
  });

  it('says clearly when a file is not an LLM tool', () => {
    const cases: [string, RegExp][] = [
      [readFileSync('examples/smart/weather_lookup.json', 'utf8'), /smart tool/],
      ['{"name": "package"}', /not an LLM tool definition.*model_prompt/],
      ['[1, 2]', /root is not a JSON object/],
      ['{"model_prompt": 5, "metadata": {}}', /model_prompt" must be a string/],
      ['', /not an LLM tool/],
    ];
    for (const [text, re] of cases) {
      const r = llmToolOf(parse(text));
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.match(r.error, re);
    }
  });

  it('reads a file with syntax errors as far as it can, with a warning', () => {
    const r = llmToolOf(
      parse(
        '{"model_prompt": "Hi {{who}}", "metadata": {"variables": [{"name": "who", "type": "text", "default": "you",}]}}',
      ),
    );
    assert.ok(r.ok);
    if (r.ok) {
      assert.equal(fillPrompt(r.tool, defaultValues(r.tool)).text, 'Hi you');
      assert.match(r.tool.warnings[0], /syntax error/);
    }
  });
});

describe('fillPrompt', () => {
  const vars = ['target language', 'text', 'tags', 'empty'];

  it('fills names with spaces exactly, joins multi-select values with ", " and keeps the rest of the text', () => {
    const r = fillPrompt(
      'Translate {{text}} into {{target language}}. Tags: {{tags}}.',
      { text: 'hello', 'target language': 'French', tags: ['a', 'b', 'c'] },
      { variables: vars },
    );
    assert.equal(r.text, 'Translate hello into French. Tags: a, b, c.');
    assert.deepEqual([r.missing, r.unknown, r.unclosed], [[], [], []]);
    assert.deepEqual(
      r.replacements.map((x) => [x.name, r.text.slice(x.start, x.end)]),
      [
        ['text', 'hello'],
        ['target language', 'French'],
        ['tags', 'a, b, c'],
      ],
    );
  });

  it('leaves placeholders without a value as they are and lists them once, in order', () => {
    const r = fillPrompt(
      '{{text}} / {{target language}} / {{text}} / {{empty}} / {{tags}}',
      { empty: '', tags: [] },
      { variables: vars },
    );
    assert.equal(r.text, '{{text}} / {{target language}} / {{text}} /  / ');
    assert.deepEqual(r.missing, ['text', 'target language']);
  });

  it('is exact and case-sensitive: {{ text }} and {{Text}} are unknown placeholders, never filled', () => {
    const r = fillPrompt(
      '{{ text }} {{Text}} {{text}} {{nope}}',
      { text: 'x', ' text ': 'y', Text: 'z', nope: 'n' },
      { variables: vars },
    );
    assert.equal(r.text, '{{ text }} {{Text}} x {{nope}}');
    assert.deepEqual(r.unknown, [' text ', 'Text', 'nope']);
    // Told apart for the preview, which says what the editor's placeholder-whitespace says.
    assert.deepEqual(r.spaced, [' text ']);
    assert.deepEqual(r.missing, []);
  });

  it('fills every placeholder with a value when no declarations are given', () => {
    const r = fillPrompt('{{a b}}{{c}}', new Map([['a b', '1']]));
    assert.equal(r.text, '1{{c}}');
    assert.deepEqual(r.missing, ['c']);
  });

  it('inserts values literally: placeholders inside values are not expanded, $ patterns are not special', () => {
    const r = fillPrompt('A={{a}} B={{b}}', { a: '{{b}} $& $1', b: 'bee' }, { variables: ['a', 'b'] });
    assert.equal(r.text, 'A={{b}} $& $1 B=bee');
  });

  it('reports unclosed {{ and leaves it; handles {{{x}}} like the language service', () => {
    const r = fillPrompt('x {{text y {{{text}}} z {{', { text: 'T' }, { variables: vars });
    assert.equal(r.text, 'x {{text y {T} z {{');
    assert.deepEqual(r.unclosed, [2, 24]);
  });

  it('does not take values from Object.prototype', () => {
    const r = fillPrompt(
      '{{constructor}} {{toString}} {{__proto__}}',
      {},
      { variables: ['constructor', 'toString', '__proto__'] },
    );
    assert.equal(r.text, '{{constructor}} {{toString}} {{__proto__}}');
    assert.deepEqual(r.missing, ['constructor', 'toString', '__proto__']);
  });

  it('fills the decoded prompt of a file (escapes, non-ASCII, line breaks)', () => {
    const tool = toolOf(
      llm([{ name: 'naïve name', type: 'text', default: 'déjà "vu"' }], 'Line 1\n\t"{{naïve name}}" — ok\\'),
    );
    const r = fillPrompt(tool, defaultValues(tool));
    assert.equal(r.text, 'Line 1\n\t"déjà "vu"" — ok\\');
  });
});

describe('validateInputs', () => {
  const tool = toolOf(
    llm(
      [
        { name: 'text', type: 'text', default: '' },
        { name: 'lang', type: 'single-select', default: 'English', allowed_values: ['English', 'French'] },
        { name: 'tags', type: 'multi-select', default: ['a'], allowed_values: ['a', 'b'] },
      ],
      '{{text}} {{lang}} {{tags}}',
    ),
  );

  it('accepts the defaults and valid values', () => {
    assert.deepEqual(validateInputs(tool, defaultValues(tool)), []);
    assert.deepEqual(validateInputs(tool, { text: 'anything', lang: 'French', tags: [] }), []);
  });

  it('reports values outside allowed_values, case-only differences, shapes, duplicates, unknown and missing inputs', () => {
    const problems = validateInputs(tool, { lang: 'french', tags: ['a', 'c', 'a'], extra: 'x' });
    assert.deepEqual(
      problems.map((p) => [p.name, p.code, p.severity]),
      [
        ['text', 'missing-value', 'error'],
        ['lang', 'case-mismatch', 'error'],
        ['tags', 'not-allowed', 'error'],
        ['tags', 'duplicate-selection', 'warning'],
        ['extra', 'unknown-input', 'warning'],
      ],
    );
    assert.match(problems[1].message, /did you mean "French"/);
    assert.match(problems[2].message, /"c" is not one of the allowed values \("a", "b"\)/);
    assert.deepEqual(
      validateInputs(tool, { text: ['x'], lang: ['English'], tags: 'a' }).map((p) => [p.name, p.code]),
      [
        ['text', 'wrong-shape'],
        ['lang', 'wrong-shape'],
        ['tags', 'wrong-shape'],
      ],
    );
    assert.deepEqual(validateInputs(tool, {}, { requireAll: false }), []);
  });
});
