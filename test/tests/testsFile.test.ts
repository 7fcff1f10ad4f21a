// The tests file as the language service reads it: cases, shape problems, and checks against the definition.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { parseJson } from '../../server/src/service/json/tree';
import { getLanguageService } from '../../server/src/service/languageService';
import { checkCasesAgainst } from '../../server/src/service/tests/againstDefinition';
import { addTestCase } from '../../server/src/service/tests/addCase';
import { definitionPathFor, goldenDirFor, goldenFileName, testsPathFor } from '../../server/src/service/tests/paths';
import { EXPECT_KEYS, readTestsFile } from '../../server/src/service/tests/testsFile';
import { llmTool, smartTool } from '../fixtures';
import { cursor } from '../helpers';

/** Each problem as `code text-it-covers`. */
function problems(tests: string, definition?: string): string[] {
  const file = readTestsFile(parseJson(tests));
  const out = [...file.problems];
  if (definition) {
    const model = getLanguageService().parse(TextDocument.create('file:///t/x.json', 'json', 1, definition));
    out.push(...checkCasesAgainst(file.cases, model));
  }
  return out.map((p) => `${p.code} ${tests.slice(p.offset, p.offset + p.length)}`);
}

describe('tests file', () => {
  test('paths: tests file, definition, golden folder and file names', () => {
    assert.equal(testsPathFor('/w/weather.json'), '/w/weather.tests.json');
    assert.equal(definitionPathFor('/w/weather.tests.json'), '/w/weather.json');
    assert.equal(goldenDirFor('/w/weather.json'), '/w/weather.golden');
    assert.equal(goldenFileName('Paris in metric'), 'Paris in metric.txt');
    assert.equal(goldenFileName('a/b: c?'), 'a_b_ c_.txt');
    assert.equal(goldenFileName(' ..hidden. '), 'hidden.txt');
    assert.equal(goldenFileName('...'), '_.txt');
  });

  test('reads cases with inputs and expectations', () => {
    const file = readTestsFile(
      parseJson(
        JSON.stringify({
          tests: [
            { name: 'one', inputs: { City: 'Paris', Tags: ['a', 'b'] }, expect: { contains: ['x'], golden: true } },
            { name: 'two', expect: { error: 'ValueError', max_seconds: 2 } },
          ],
        }),
      ),
    );
    assert.deepEqual(file.problems, []);
    assert.deepEqual(
      file.cases.map((c) => [c.name, Object.fromEntries([...c.inputs].map(([k, v]) => [k, v.value])), c.expect]),
      [
        ['one', { City: 'Paris', Tags: ['a', 'b'] }, { contains: ['x'], golden: true }],
        ['two', {}, { error: 'ValueError', max_seconds: 2 }],
      ],
    );
  });

  test('shape problems at the exact value, duplicate names, invalid regex', () => {
    const text = `{
  "tests": [
    { "name": "a", "expect": { "equal": "x", "matches": "(unclosed", "max_seconds": -1 } },
    { "name": "a", "inputs": { "n": 5 } },
    { "name": "A/b" }, { "name": "A_b" },
    { "expect": {} },
    "not a case"
  ],
  "extra": 1
}`;
    assert.deepEqual(problems(text), [
      'tests-shape "extra"',
      'tests-shape "equal"',
      'tests-invalid-regex "(unclosed"',
      'tests-shape -1',
      'tests-shape 5',
      'tests-duplicate-name "a"',
      'tests-duplicate-name "A_b"',
      'tests-shape { "expect": {} }',
      'tests-shape "not a case"',
    ]);
  });

  test('against the definition: unknown input, value not allowed, missing input without default', () => {
    const def = llmTool({
      prompt: '{{tone}} {{text}} {{tags}}',
      variables: [
        { name: 'tone', type: 'single-select', default: 'neutral', allowed_values: ['neutral', 'formal'] },
        { name: 'text', type: 'text' },
        { name: 'tags', type: 'multi-select', default: ['a'], allowed_values: ['a', 'b'] },
      ],
    });
    const tests = `{ "tests": [
  { "name": "ok", "inputs": { "text": "hi", "tone": "formal", "tags": ["a", "b"] } },
  { "name": "bad", "inputs": { "txet": "hi", "tone": "rude", "tags": ["c"] } },
  { "name": "wrong shape", "inputs": { "text": "hi", "tags": "a", "tone": ["formal"] } }
] }`;
    assert.deepEqual(problems(tests, def), [
      'tests-unknown-input "txet"',
      'tests-value-not-allowed "rude"',
      'tests-value-not-allowed "c"',
      'tests-missing-input "bad"',
      'tests-shape "a"',
      'tests-shape ["formal"]',
    ]);
  });

  test('a smart tool takes strings only', () => {
    const def = smartTool({ variables: [{ name: 'City', default: 'Oslo' }] });
    assert.deepEqual(problems('{ "tests": [ { "name": "x", "inputs": { "City": ["a"] } } ] }', def), [
      'tests-shape ["a"]',
    ]);
  });

  test('the schema in schemas/ lists the same expectations as the reader', () => {
    const schema = JSON.parse(readFileSync('schemas/tool-tests.schema.json', 'utf8'));
    assert.deepEqual(Object.keys(schema.definitions.expect.properties), [...EXPECT_KEYS]);
  });
});

describe('tests file features from the definition', () => {
  const service = getLanguageService();
  const definition = service.parse(
    TextDocument.create(
      'file:///t/x.json',
      'json',
      1,
      llmTool({
        variables: [
          { name: 'text', type: 'text', default: '' },
          { name: 'tags', type: 'multi-select', default: ['a'], allowed_values: ['a', 'b'] },
        ],
      }),
    ),
  );
  /** The completions at the fixture's `|`: each as `label → newText`. */
  const complete = (fixture: string): string[] => {
    const { text, offset } = cursor(fixture);
    const doc = TextDocument.create('file:///t/x.tests.json', 'json', 1, text);
    return service
      .doTestsComplete(doc, definition, doc.positionAt(offset))
      .items.map((i) => `${i.label} → ${i.textEdit && 'range' in i.textEdit ? i.textEdit.newText : ''}`);
  };

  test('a new input typed without quotes gets the whole property, an array for a multi-select', () => {
    assert.deepEqual(complete('{ "tests": [ { "name": "n", "inputs": { | } } ] }'), [
      'text → "text": "$1"',
      'tags → "tags": ["$1"]',
    ]);
  });

  test("a multi-select's element completes its allowed values; nothing outside inputs", () => {
    assert.deepEqual(complete('{ "tests": [ { "name": "n", "inputs": { "tags": ["|"] } } ] }'), ['a → "a"', 'b → "b"']);
    assert.deepEqual(complete('{ "tests": [ { "name": "|", "inputs": {} } ] }'), []);
    assert.deepEqual(complete('{ "tests": [ { "name": "n", "expect": { "|" } } ] }'), []);
    assert.deepEqual(complete('{ "inputs": { "|" } }'), []);
  });
});

describe('Save as Test Case', () => {
  const add = (text: string, name: string, inputs: Record<string, string | string[]> = { city: 'Paris' }) => {
    const r = addTestCase(text, parseJson(text), { name, inputs });
    if ('error' in r) return r;
    const { offset, length, newText } = r.edit;
    return { name: r.name, text: text.slice(0, offset) + newText + text.slice(offset + length) };
  };

  test('a new file gets the whole tests file; an existing one gets the case appended in its own indentation', () => {
    const created = add('', 'Paris');
    assert.ok(!('error' in created));
    assert.deepEqual(JSON.parse(created.text), {
      tests: [{ name: 'Paris', inputs: { city: 'Paris' }, expect: { golden: true } }],
    });
    assert.deepEqual(readTestsFile(parseJson(created.text)).problems, []);
    const existing = '{\n    "tests": [\n        { "name": "Oslo", "inputs": { "city": "Oslo" } }\n    ]\n}\n';
    const appended = add(existing, 'Paris', { tags: ['a', 'b'] });
    assert.ok(!('error' in appended));
    assert.match(appended.text, /\n {8}\{\n {12}"name": "Paris",\n {12}"inputs": \{ "tags": \["a", "b"\] \},/);
    assert.deepEqual(
      readTestsFile(parseJson(appended.text)).cases.map((c) => c.name),
      ['Oslo', 'Paris'],
    );
  });

  test('a name taken (also as a golden file name) gets a number; a file without "tests" gets one', () => {
    const text = '{ "tests": [ { "name": "Paris" }, { "name": "Paris (2)" }, { "name": "a/b" } ] }';
    assert.equal((add(text, 'Paris') as { name: string }).name, 'Paris (3)');
    assert.equal((add(text, 'a:b') as { name: string }).name, 'a:b (2)');
    const noTests = add('{ "$schema": "x" }', 'Paris');
    assert.ok(!('error' in noTests));
    assert.equal(JSON.parse(noTests.text).tests[0].name, 'Paris');
  });

  test('a file that is not a JSON object, or whose tests are not an array, is refused with what to do', () => {
    assert.match((add('{ "tests": [', 'x') as { error: string }).error, /not a valid JSON object/);
    assert.match((add('{ "tests": {} }', 'x') as { error: string }).error, /"tests" is not an array/);
  });
});
