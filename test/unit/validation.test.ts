import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { positionsLocated } from '../../server/src/service/json/valueTree';
import { codes, llmTool, load, problems, smartTool } from '../helpers';
import { PNG_256, PNG_64 } from './images';

/** The one problem with `code`, asserting there is exactly one. */
function only(text: string, code: string, opts: Parameters<typeof problems>[1] = {}) {
  const found = problems(text, opts).filter((p) => p.code === code);
  assert.equal(
    found.length,
    1,
    `expected one ${code}, got ${JSON.stringify(problems(text, opts).map((p) => [p.code, p.text]))}`,
  );
  return found[0];
}

describe('valid files', () => {
  it('reports nothing for a complete LLM tool and a complete smart tool', () => {
    assert.deepEqual(codes(llmTool()), []);
    assert.deepEqual(codes(smartTool()), []);
  });

  it('checks a file without problems without reading any position (they are found only when needed)', () => {
    for (const text of [llmTool(), smartTool()]) {
      const { service, model } = load(text);
      assert.deepEqual(service.doValidation(model), []);
      assert.equal(positionsLocated(model.root!), false, 'a rule read a position of a file without problems');
      assert.equal(model.root!.offset, 0); // … and reading one places them all
      assert.equal(positionsLocated(model.root!.children![0]), true);
    }
  });
});

describe('JSON and shape', () => {
  it('json-syntax: points at the problem with a message that says what to do', () => {
    const p = only('{\n  "version": "1.0"\n  "metadata": {"tool_name": "t"}\n}', 'json-syntax', { kind: 'smart' });
    assert.equal(p.text, '"metadata"');
    assert.match(p.message, /add a comma/);
  });

  it('duplicate-key: on the repeated key', () => {
    const text = smartTool().replace(
      '"description": "Greets.",',
      '"description": "Greets.",\n    "description": "Again",',
    );
    const p = only(text, 'duplicate-key');
    assert.equal(p.text, '"description"');
    assert.equal(
      p.diagnostic.range.start.line,
      text.split('\n').findIndex((l) => l.includes('"Again"')),
    );
  });

  it('root-not-object: for a definition wrapped in an array', () => {
    const p = only(`[${llmTool()}]`, 'root-not-object', { kind: 'llm' });
    assert.equal(p.text, '[');
  });

  it('mixed-kind: on tool_code of a file that also has model_prompt', () => {
    const text = llmTool({ metadata: { tool_code: 'x' } });
    const p = only(text, 'mixed-kind');
    assert.equal(p.text, '"tool_code"');
    assert.ok(!codes(text).includes('unknown-field'));
  });

  it('missing-field: required fields per kind, on the key of the object that lacks them', () => {
    const smart = JSON.stringify({ version: '1.0', metadata: { tool_name: 'tool' } });
    const p = only(smart, 'missing-field');
    assert.equal(p.text, '"metadata"');
    assert.match(p.message, /tool_code/);
    const llm = JSON.parse(llmTool());
    delete llm.metadata.creator;
    delete llm.version;
    const found = problems(JSON.stringify(llm)).filter((x) => x.code === 'missing-field');
    assert.deepEqual(found.map((f) => [f.text, /"(\w+)"/.exec(f.message)![1]]).sort(), [
      ['"metadata"', 'creator'],
      ['{', 'version'],
    ]);
  });

  it('missing-recommended-field: warnings per kind', () => {
    const llm = JSON.parse(llmTool());
    delete llm.metadata.parameters;
    const p = only(JSON.stringify(llm), 'missing-recommended-field');
    assert.match(p.message, /"parameters"/);
    assert.equal(p.diagnostic.severity, 2);
    const smart = JSON.parse(smartTool());
    delete smart.metadata.timestamp;
    assert.match(only(JSON.stringify(smart), 'missing-recommended-field').message, /"timestamp"/);
  });

  it('wrong-type: on the value, naming both types', () => {
    const p = only(llmTool({ metadata: { parameters: { max_tokens: '5' } } }), 'wrong-type');
    assert.equal(p.text, '"5"');
    assert.match(p.message, /must be an integer, not a string/);
    const q = only(llmTool({ metadata: { model_version: 4 } }), 'wrong-type');
    assert.match(q.message, /an array of strings or a string/);
  });

  it('invalid-enum: with the closest value first in the fix data', () => {
    const p = only(llmTool({ metadata: { expected_output: { type: 'txt' } } }), 'invalid-enum');
    assert.equal(p.text, '"txt"');
    assert.equal((p.diagnostic.data as { candidates: string[] }).candidates[0], 'text');
  });

  it('unknown-field: with did-you-mean data', () => {
    const text = smartTool().replace('"description": "Greets."', '"descripton": "Greets."');
    const p = only(text, 'unknown-field');
    assert.equal(p.text, '"descripton"');
    assert.deepEqual((p.diagnostic.data as { candidates: string[] }).candidates, ['description']);
  });

  it('misplaced-field: a known field at the wrong level, with the move in the data', () => {
    const p = only(llmTool({ metadata: { temperature: 0.5 } }), 'misplaced-field');
    assert.equal(p.text, '"temperature"');
    assert.deepEqual(p.diagnostic.data, {
      fix: 'move-field',
      from: ['metadata', 'temperature'],
      to: ['metadata', 'parameters'],
    });
    const q = only(smartTool({ root: { tool_code: 'x' } }), 'misplaced-field');
    assert.deepEqual(q.diagnostic.data, { fix: 'move-field', from: ['tool_code'], to: ['metadata'] });
  });
});

describe('variables and templates', () => {
  it('unknown-placeholder: the exact characters, through escapes and astral characters', () => {
    const text = llmTool({ prompt: 'Line\n"quoted" 😀 \\ {{txet}} end' });
    const p = only(text, 'unknown-placeholder');
    assert.equal(p.text, '{{txet}}');
    const line = text.split('\n')[p.diagnostic.range.start.line];
    assert.equal(line.slice(p.diagnostic.range.start.character, p.diagnostic.range.end.character), '{{txet}}');
    assert.deepEqual((p.diagnostic.data as { candidates: string[] }).candidates, ['text']);
  });

  it('unknown-placeholder: through \\u escapes written in the file', () => {
    const text = llmTool().replace('Summarise {{text}}', 'Summarise \\u00e9\\ud83d\\ude00 {{nope}} {{text}}');
    assert.equal(only(text, 'unknown-placeholder').text, '{{nope}}');
  });

  it('unknown-placeholder: placeholders are case-sensitive and spaces are part of names', () => {
    assert.equal(
      only(llmTool({ prompt: '{{Text}} {{text}} {{target language}}' }), 'unknown-placeholder').text,
      '{{Text}}',
    );
    assert.deepEqual(codes(llmTool({ prompt: '{{text}} {{target language}}' })), []);
  });

  it('unused-variable: on the variable name', () => {
    const p = only(llmTool({ prompt: 'Just {{text}}' }), 'unused-variable');
    assert.equal(p.text, '"target language"');
    assert.deepEqual(p.diagnostic.tags, [1]);
  });

  it('placeholder-whitespace: when the trimmed name is a variable', () => {
    const p = only(llmTool({ prompt: '{{ text }} {{target language}}' }), 'placeholder-whitespace');
    assert.equal(p.text, '{{ text }}');
    assert.ok(!codes(llmTool({ prompt: '{{ text }} {{target language}}' })).includes('unused-variable'));
  });

  it('malformed-placeholder: unclosed and empty', () => {
    const unclosed = only(llmTool({ prompt: '{{text}} {{target language}} {{oops' }), 'malformed-placeholder');
    assert.equal(unclosed.text, '{{');
    const empty = only(llmTool({ prompt: '{{text}} {{target language}} {{ }}' }), 'malformed-placeholder');
    assert.equal(empty.text, '{{ }}');
    // a `{{` followed by another `{{` before any `}}` is unclosed; the second one still counts
    const p = problems(llmTool({ prompt: '{{text {{target language}}' }));
    assert.deepEqual(
      p.map((x) => [x.code, x.text]),
      [
        ['malformed-placeholder', '{{'],
        ['unused-variable', '"text"'],
      ],
    );
  });

  it('duplicate-variable and empty-variable-name', () => {
    const vars = [
      { name: 'text', type: 'text', description: '', default: '' },
      { name: 'text', type: 'text', description: '', default: '' },
      { name: '', type: 'text', description: '', default: '' },
    ];
    const text = llmTool({ variables: vars, prompt: '{{text}}' });
    const dup = only(text, 'duplicate-variable');
    const nameLines = text.split('\n').flatMap((l, i) => (l.includes('"name": "text"') ? [i] : []));
    assert.equal(dup.diagnostic.range.start.line, nameLines[1]);
    assert.equal(only(text, 'empty-variable-name').text, '""');
  });

  it('default-type-mismatch: multi-select needs an array, others a string; fixes in data', () => {
    const multi = only(
      llmTool({
        prompt: '{{m}}',
        variables: [{ name: 'm', type: 'multi-select', description: '', default: 'a', allowed_values: ['a', 'b'] }],
      }),
      'default-type-mismatch',
    );
    assert.equal(multi.text, '"a"');
    assert.deepEqual(multi.diagnostic.data, { fix: 'wrap-array' });
    const single = only(
      llmTool({
        prompt: '{{s}}',
        variables: [{ name: 's', type: 'single-select', description: '', default: ['a'], allowed_values: ['a'] }],
      }),
      'default-type-mismatch',
    );
    assert.deepEqual(single.diagnostic.data, { fix: 'unwrap-array' });
    const smart = only(
      smartTool({ variables: [{ name: 'name', description: '', default: 5 }] }),
      'default-type-mismatch',
    );
    assert.equal(smart.text, '5');
    assert.ok(!codes(smartTool({ variables: [{ name: 'name', description: '', default: 5 }] })).includes('wrong-type'));
  });

  it('default-not-allowed: for a string default and for each element of a multi-select default', () => {
    const single = only(
      llmTool({
        prompt: '{{s}}',
        variables: [
          {
            name: 's',
            type: 'single-select',
            description: '',
            default: 'Formal',
            allowed_values: ['formal', 'casual'],
          },
        ],
      }),
      'default-not-allowed',
    );
    assert.equal(single.text, '"Formal"');
    assert.equal((single.diagnostic.data as { candidates: string[] }).candidates[0], 'formal');
    const multi = problems(
      llmTool({
        prompt: '{{m}}',
        variables: [
          { name: 'm', type: 'multi-select', description: '', default: ['a', 'x', 'y'], allowed_values: ['a', 'b'] },
        ],
      }),
    );
    assert.deepEqual(
      multi.filter((p) => p.code === 'default-not-allowed').map((p) => p.text),
      ['"x"', '"y"'],
    );
  });

  it('missing-allowed-values, unexpected-allowed-values, duplicate-allowed-value', () => {
    assert.equal(
      only(
        llmTool({ prompt: '{{s}}', variables: [{ name: 's', type: 'single-select', description: '', default: '' }] }),
        'missing-allowed-values',
      ).text,
      '"single-select"',
    );
    assert.equal(
      only(
        llmTool({
          prompt: '{{s}}',
          variables: [{ name: 's', type: 'multi-select', description: '', default: [], allowed_values: [] }],
        }),
        'missing-allowed-values',
      ).text,
      '"multi-select"',
    );
    assert.equal(
      only(
        llmTool({
          prompt: '{{t}}',
          variables: [{ name: 't', type: 'text', description: '', default: '', allowed_values: ['a'] }],
        }),
        'unexpected-allowed-values',
      ).text,
      '"allowed_values"',
    );
    const dup = problems(
      llmTool({
        prompt: '{{s}}',
        variables: [
          { name: 's', type: 'single-select', description: '', default: 'a', allowed_values: ['a', 'b', 'a'] },
        ],
      }),
    ).filter((p) => p.code === 'duplicate-allowed-value');
    assert.equal(dup.length, 1);
    assert.ok(dup[0].diagnostic.range.start.character > 0);
  });
});

describe('output, models, metadata', () => {
  it('limited-without-values, language-without-code, smart-output-not-text', () => {
    assert.equal(
      only(llmTool({ metadata: { expected_output: { type: 'limited' } } }), 'limited-without-values').text,
      '"limited"',
    );
    assert.equal(
      only(llmTool({ metadata: { expected_output: { type: 'text', language: 'python' } } }), 'language-without-code')
        .text,
      '"language"',
    );
    assert.deepEqual(codes(llmTool({ metadata: { expected_output: { type: 'code', language: 'python' } } })), []);
    assert.equal(
      only(smartTool({ metadata: { expected_output: { type: 'code' } } }), 'smart-output-not-text').text,
      '"code"',
    );
  });

  it('model-version-string, model-version-empty, unknown-model', () => {
    const s = only(llmTool({ metadata: { model_version: 'gpt-4' } }), 'model-version-string');
    assert.equal(s.text, '"gpt-4"');
    assert.equal(only(llmTool({ metadata: { model_version: [] } }), 'model-version-empty').text, '[]');
    const u = only(llmTool({ metadata: { model_version: ['gpt-4', 'gpt-4o'] } }), 'unknown-model');
    assert.equal(u.text, '"gpt-4o"');
    assert.equal(u.diagnostic.severity, 3);
    assert.deepEqual(
      codes(llmTool({ metadata: { model_version: ['gpt-4o'] } }), { settings: { knownModels: ['gpt-4o'], rules: {} } }),
      [],
    );
  });

  it('nested-avatar, and the nested value is still checked', () => {
    const text = llmTool({ metadata: { avatar_type: undefined, avatar: { avatar_type: 'url', avatar: 'not a url' } } });
    assert.equal(only(text, 'nested-avatar').text, '"avatar"');
    assert.equal(only(text, 'avatar-invalid-url').text, '"not a url"');
  });

  it('avatar-invalid-base64 at the first bad character', () => {
    const p = only(
      llmTool({ metadata: { avatar: PNG_256.slice(0, 20) + '.' + PNG_256.slice(21) } }),
      'avatar-invalid-base64',
    );
    assert.equal(p.text, '.');
    assert.equal(
      only(llmTool({ metadata: { avatar: 'AAAA😀' } }), 'avatar-invalid-base64').text,
      '😀',
      'a whole astral character',
    );
    const prefix = only(llmTool({ metadata: { avatar: `data:image/png;base64,${PNG_256}` } }), 'avatar-invalid-base64');
    assert.equal(prefix.text, 'data:image/png;base64,');
  });

  it('avatar-not-image, avatar-size, and a valid 256×256 image', () => {
    assert.equal(
      only(
        llmTool({ metadata: { avatar: Buffer.from('hello world, not an image').toString('base64') } }),
        'avatar-not-image',
      ).diagnostic.severity,
      1,
    );
    assert.match(only(llmTool({ metadata: { avatar: PNG_64 } }), 'avatar-size').message, /64×64/);
    assert.deepEqual(codes(llmTool({ metadata: { avatar: PNG_256 } })), []);
  });

  it('avatar-invalid-url and avatar-type-mismatch both ways', () => {
    assert.equal(
      only(llmTool({ metadata: { avatar_type: 'url', avatar: 'ftp//x' } }), 'avatar-invalid-url').text,
      '"ftp//x"',
    );
    assert.deepEqual(codes(llmTool({ metadata: { avatar_type: 'url', avatar: 'https://example.com/a.png' } })), []);
    const m1 = only(llmTool({ metadata: { avatar_type: 'url', avatar: PNG_256 } }), 'avatar-type-mismatch');
    assert.deepEqual((m1.diagnostic.data as { candidates: string[] }).candidates, ['base64']);
    const m2 = only(
      llmTool({ metadata: { avatar_type: 'base64', avatar: 'https://example.com/a.png' } }),
      'avatar-type-mismatch',
    );
    assert.deepEqual((m2.diagnostic.data as { candidates: string[] }).candidates, ['url']);
  });

  it('invalid-timestamp', () => {
    assert.equal(only(llmTool({ metadata: { timestamp: 'yesterday' } }), 'invalid-timestamp').text, '"yesterday"');
    const badStamps = [
      '2026-02-30T10:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01',
      '2026-01-01T25:00:00Z',
      '2025-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:61Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00-03:60',
      '2026-01-01T00:00:00+0560',
      '2026-01-01T00:00:00+05',
    ];
    for (const bad of badStamps) {
      assert.ok(codes(llmTool({ metadata: { timestamp: bad } })).includes('invalid-timestamp'), bad);
    }
    for (const good of [
      '2024-02-29T23:59:59Z',
      '2000-02-29T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-01-01T00:00:00-03:00',
      '2026-01-01T00:00:00+0530',
      '2026-01-01T00:00:00,5Z',
      '2026-01-01T10:00+01:00',
      '2026-01-01T00:00:00.123+05:30',
      '2026-01-01T10:00',
    ]) {
      assert.deepEqual(codes(llmTool({ metadata: { timestamp: good } })), [], good);
    }
  });

  it('invalid-email, but the <EMAIL> placeholder is fine', () => {
    assert.equal(
      only(llmTool({ metadata: { creator: { name: 'a', email: 'ann at acme', organization: 'o' } } }), 'invalid-email')
        .text,
      '"ann at acme"',
    );
    assert.deepEqual(codes(llmTool({ metadata: { creator: { name: 'a', email: '<EMAIL>', organization: 'o' } } })), []);
  });

  it('invalid-version; an LLM tool may use an integer', () => {
    assert.equal(only(llmTool({ root: { version: 'v1-beta' } }), 'invalid-version').text, '"v1-beta"');
    assert.deepEqual(codes(llmTool({ root: { version: 3 } })), []);
    assert.ok(codes(smartTool({ root: { version: 3 } })).includes('wrong-type'));
  });

  it('parameter-out-of-range', () => {
    const text = llmTool({
      metadata: {
        parameters: { temperature: 3.5, top_p: 1.5, frequency_penalty: -3, presence_penalty: 2, max_tokens: 0 },
      },
    });
    assert.deepEqual(
      problems(text)
        .filter((p) => p.code === 'parameter-out-of-range')
        .map((p) => p.text),
      ['3.5', '1.5', '-3', '0'],
    );
  });

  it('file-name-mismatch for smart tools, and it can be turned off', () => {
    const p = only(smartTool(), 'file-name-mismatch', { uri: 'file:///w/other.json' });
    assert.equal(p.text, '"tool"');
    assert.equal(p.diagnostic.severity, 3);
    assert.deepEqual(
      codes(smartTool(), {
        uri: 'file:///w/other.json',
        settings: { knownModels: ['gpt-4', 'claude'], rules: { 'file-name-mismatch': 'off' } },
      }),
      [],
    );
    assert.deepEqual(codes(smartTool(), { uri: 'file:///w/tool.json' }), []);
  });

  it('duplicate-tool-name, from the workspace index, with related locations', () => {
    const workspace = {
      toolsNamed: (name: string) =>
        name === 'tool'
          ? {
              shown: [{ uri: 'file:///w/b/tool.json', line: 2, character: 17, message: 'also named "tool" here' }],
              total: 1,
            }
          : { shown: [], total: 0 },
    };
    const p = only(smartTool(), 'duplicate-tool-name', { workspace });
    assert.equal(p.text, '"tool"');
    assert.match(p.message, /^Another definition in the workspace is also named "tool"/);
    assert.equal(p.diagnostic.relatedInformation![0].location.uri, 'file:///w/b/tool.json');
  });

  it('duplicate-tool-name with thousands of namesakes lists 20 and gives the total', () => {
    let asked = 0;
    const workspace = {
      toolsNamed: (_name: string, _except: string, max: number) => {
        asked = max;
        const at = (i: number) => ({ uri: `file:///w/${i}.json`, line: 0, character: 0, message: 'also here' });
        return { shown: Array.from({ length: Math.min(max, 2000) }, (_, i) => at(i)), total: 2000 };
      },
    };
    const p = only(smartTool(), 'duplicate-tool-name', { workspace });
    assert.equal(asked, 20);
    assert.equal(p.diagnostic.relatedInformation!.length, 20);
    assert.match(p.message, /^2000 other definitions in the workspace are also named "tool"/);
  });
});

describe('rule severities', () => {
  it('a rule can be raised or silenced from settings', () => {
    const text = llmTool({ prompt: 'Just {{text}}' });
    const raised = problems(text, { settings: { knownModels: ['gpt-4'], rules: { 'unused-variable': 'error' } } });
    assert.equal(raised[0].diagnostic.severity, 1);
    assert.deepEqual(codes(text, { settings: { knownModels: ['gpt-4'], rules: { 'unused-variable': 'off' } } }), []);
  });
});
