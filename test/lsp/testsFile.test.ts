// A tests file in the editor: the server checks its cases against the definition beside it, whether
// that definition is open (its unsaved text counts) or only on disk, and rechecks them as it changes.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type {
  CodeAction,
  CompletionList,
  Diagnostic,
  Hover,
  Location,
  Position,
  Range,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TestSuiteRequest, ValidateJsonRequest, type TestSuiteAnswer } from '../../server/src/protocol';
import { cursor, llmTool, messageOf } from '../helpers';
import { LspClient } from './lspClient';

const TESTS = `{ "tests": [
  { "name": "ok", "inputs": { "text": "hi", "target language": "French" } },
  { "name": "ok", "inputs": { "txet": "hi", "target language": "Klingon" }, "expect": { "matches": "(" } }
] }`;

const summary = (ds: Diagnostic[], text: string, doc: { offsetAt(p: Diagnostic['range']['start']): number }) =>
  ds.map((d) => `${String(d.code)} ${text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end))}`);

describe('tests files in the editor', () => {
  let client: LspClient;
  const dir = mkdtempSync(join(tmpdir(), 'tooldef-lsp-tests-'));
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('cases are checked against the definition on disk, then against its open, unsaved text', async () => {
    writeFileSync(join(dir, 'summariser.json'), llmTool());
    const uri = pathToFileURL(join(dir, 'summariser.tests.json')).toString();
    const doc = await client.open(uri, TESTS, 'json');
    const onDisk = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    assert.deepEqual(summary(onDisk, TESTS, doc), [
      'tests-duplicate-name "ok"',
      'tests-unknown-input "txet"',
      'tests-value-not-allowed "Klingon"',
      'tests-invalid-regex "("',
    ]);
    assert.match(messageOf(onDisk[1]), /did you mean "text"\?/);
    // The definition opened, then edited (unsaved): Klingon becomes allowed, and the tests file is checked again.
    const defUri = pathToFileURL(join(dir, 'summariser.json')).toString();
    await client.open(defUri, llmTool());
    await client.waitForDiagnostics(defUri);
    await client.change(
      defUri,
      llmTool({
        variables: [
          { name: 'text', type: 'text', default: '' },
          { name: 'target language', type: 'single-select', default: 'French', allowed_values: ['French', 'Klingon'] },
        ],
      }),
    );
    const edited = await client.waitForDiagnostics(uri, (d) => d.length === 3);
    assert.deepEqual(summary(edited, TESTS, doc), [
      'tests-duplicate-name "ok"',
      'tests-unknown-input "txet"',
      'tests-invalid-regex "("',
    ]);
    await client.close(defUri);
    await client.close(uri);
  });

  test('an approved output no golden case owns is reported on "tests", with a fix that deletes it', async () => {
    writeFileSync(join(dir, 'golden.json'), llmTool());
    mkdirSync(join(dir, 'golden.golden'));
    writeFileSync(join(dir, 'golden.golden', 'kept.txt'), 'A summary.');
    const uri = pathToFileURL(join(dir, 'golden.tests.json')).toString();
    const text = '{ "tests": [ { "name": "kept", "inputs": { "text": "x" }, "expect": { "golden": true } } ] }';
    const doc = await client.open(uri, text, 'json');
    await client.waitForDiagnostics(uri, (d) => d.length === 0);
    // A case renamed: its approved output is left behind.
    const old = join(dir, 'golden.golden', 'old name.txt');
    writeFileSync(old, 'A summary.');
    await client.notify('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(old).toString(), type: 1 }],
    });
    const [orphan] = await client.waitForDiagnostics(uri, (d) => d.length === 1);
    assert.equal(orphan.code, 'tests-orphan-golden');
    assert.equal(
      messageOf(orphan),
      'No golden case of golden.golden owns old name.txt: delete it, or name a case after it.',
    );
    assert.equal(doc.getText(orphan.range), '"tests"');
    const [fix] = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: orphan.range,
      context: { diagnostics: [orphan] },
    });
    assert.equal(fix.title, 'Delete old name.txt');
    assert.deepEqual(fix.edit?.documentChanges, [
      { kind: 'delete', uri: pathToFileURL(old).toString(), options: { ignoreIfNotExists: true } },
    ]);
    await client.close(uri);
  });

  test('the Test Explorer asks for a suite: cases with their ranges and inputs, the runnable tool, the errors', async () => {
    writeFileSync(join(dir, 'suite.json'), llmTool());
    const uri = pathToFileURL(join(dir, 'suite.tests.json')).toString();
    const text = [
      '{ "tests": [',
      '  { "name": "French", "inputs": { "target language": "French" },',
      '    "expect": { "json": { "type": "object" } } },',
      '  { "name": "Klingon", "inputs": { "target language": "Klingon" } }',
      '] }',
    ].join('\n');
    writeFileSync(join(dir, 'suite.tests.json'), text);
    const doc = TextDocument.create(uri, 'json', 1, text);
    const suite = await client.request<TestSuiteAnswer>(TestSuiteRequest.method, { uri });
    assert.equal(suite.definitionUri, pathToFileURL(join(dir, 'suite.json')).toString());
    assert.equal(suite.goldenDirUri, pathToFileURL(join(dir, 'suite.golden')).toString());
    assert.equal(suite.tool?.kind, 'llm');
    assert.deepEqual(
      suite.cases.map((c) => [
        c.name,
        doc.getText(c.nameRange),
        c.inputs,
        c.expectRanges.json && doc.getText(c.expectRanges.json),
      ]),
      [
        ['French', '"French"', [['target language', 'French']], '"json"'],
        ['Klingon', '"Klingon"', [['target language', 'Klingon']], undefined],
      ],
    );
    assert.equal(
      doc.getText(suite.cases[1].range),
      '{ "name": "Klingon", "inputs": { "target language": "Klingon" } }',
    );
    assert.deepEqual(
      suite.errors.map((e) => [e.code, doc.getText(e.range)]),
      [['tests-value-not-allowed', '"Klingon"']],
    );
    assert.equal(
      await client.request(TestSuiteRequest.method, { uri: pathToFileURL(join(dir, 'none.tests.json')).toString() }),
      null,
    );
    // The `json` expectation's schema, checked by the server.
    assert.deepEqual(await client.request(ValidateJsonRequest.method, { schema: { type: 'object' }, value: {} }), []);
    assert.deepEqual(await client.request(ValidateJsonRequest.method, { schema: { type: 'object' }, value: 1 }), [
      'the value must be object',
    ]);
    const [notSchema] = await client.request<string[]>(ValidateJsonRequest.method, { schema: { type: 12 }, value: 1 });
    assert.match(notSchema, /^Not a valid JSON schema: /);
  });

  test('a tests file without a definition says so', async () => {
    const uri = pathToFileURL(join(dir, 'nothing.tests.json')).toString();
    await client.open(uri, '{ "tests": [] }', 'json');
    const ds = await client.waitForDiagnostics(uri, (d) => d.length > 0);
    assert.deepEqual(
      ds.map((d) => d.code),
      ['tests-no-definition'],
    );
    assert.match(messageOf(ds[0]), /No definition nothing\.json beside this tests file/);
  });

  describe("an input's name is the definition's variable", () => {
    const FIXTURE = `{ "tests": [
  { "name": "French", "inputs": { "text": "hi", "target language": "French" } }
] }`;
    let uri: string;
    let defUri: string;
    let doc: TextDocument;
    const at = (fixture: string): Position => {
      const { offset } = cursor(fixture);
      return doc.positionAt(offset);
    };
    const textOf = (d: TextDocument, r: Range): string => d.getText(r);
    before(async () => {
      writeFileSync(join(dir, 'translate.json'), llmTool());
      defUri = pathToFileURL(join(dir, 'translate.json')).toString();
      uri = pathToFileURL(join(dir, 'translate.tests.json')).toString();
      doc = await client.open(uri, FIXTURE, 'json');
    });

    test("completion: the variables a case does not give yet, and a select variable's allowed values", async () => {
      const keyFixture = FIXTURE.replace('{ "text": "hi", ', '{ "text": "hi", "|", ');
      const keyDoc = TextDocument.create(uri, 'json', 2, keyFixture.replace('|', ''));
      await client.change(uri, keyDoc.getText());
      const keys = await client.request<CompletionList>('textDocument/completion', {
        textDocument: { uri },
        position: keyDoc.positionAt(cursor(keyFixture).offset),
      });
      assert.deepEqual(
        keys.items.map((i) => i.label),
        [],
        'both variables are given already',
      );
      const emptyFixture = FIXTURE.replace('{ "text": "hi", "target language": "French" }', '{ "|" }');
      const emptyDoc = TextDocument.create(uri, 'json', 3, emptyFixture.replace('|', ''));
      await client.change(uri, emptyDoc.getText());
      const all = await client.request<CompletionList>('textDocument/completion', {
        textDocument: { uri },
        position: emptyDoc.positionAt(cursor(emptyFixture).offset),
      });
      assert.deepEqual(
        all.items.map((i) => [i.label, i.textEdit && 'range' in i.textEdit ? i.textEdit.newText : undefined]),
        [
          ['text', '"text"'],
          ['target language', '"target language"'],
        ],
      );
      const valueFixture = FIXTURE.replace('"French" }', '"Fr|" }');
      const valueDoc = TextDocument.create(uri, 'json', 4, valueFixture.replace('|', ''));
      await client.change(uri, valueDoc.getText());
      const values = await client.request<CompletionList>('textDocument/completion', {
        textDocument: { uri },
        position: valueDoc.positionAt(cursor(valueFixture).offset),
      });
      assert.deepEqual(
        values.items.map((i) => i.label),
        ['English', 'French'],
      );
      await client.change(uri, FIXTURE);
    });

    test('hover shows the variable; go to definition jumps to its declaration', async () => {
      const hover = await client.request<Hover>('textDocument/hover', {
        textDocument: { uri },
        position: at(FIXTURE.replace('"target language"', '"target lan|guage"')),
      });
      const value = (hover.contents as { value: string }).value;
      assert.match(value, /Variable `target language`/);
      assert.match(value, /Allowed values: `English`, `French`/);
      const [location] = await client.request<Location[]>('textDocument/definition', {
        textDocument: { uri },
        position: at(FIXTURE.replace('"text"', '"te|xt"')),
      });
      assert.equal(location.uri, defUri);
      const definition = TextDocument.create(defUri, 'json', 1, llmTool());
      assert.equal(textOf(definition, location.range), '"text"');
    });

    test('renaming an input renames the variable in the definition, and the reverse', async () => {
      const fromTests = await client.request<WorkspaceEdit>('textDocument/rename', {
        textDocument: { uri },
        position: at(FIXTURE.replace('"text"', '"te|xt"')),
        newName: 'body',
      });
      assert.deepEqual(Object.keys(fromTests.changes ?? {}).sort(), [defUri, uri].sort());
      assert.deepEqual(
        fromTests.changes![uri].map((e) => [textOf(doc, e.range), e.newText]),
        [['text', 'body']],
      );
      // The definition (on disk) renames its declaration and its placeholder.
      assert.equal(fromTests.changes![defUri].length, 2);

      const definition = await client.open(defUri, llmTool());
      const name = llmTool().indexOf('{{target language}}') + 3;
      const fromDefinition = await client.request<WorkspaceEdit>('textDocument/rename', {
        textDocument: { uri: defUri },
        position: definition.positionAt(name),
        newName: 'language',
      });
      assert.deepEqual(
        fromDefinition.changes![uri].map((e) => [textOf(doc, e.range), e.newText]),
        [['target language', 'language']],
      );
      await client.close(defUri);
    });
  });
});
