// A tests file in the editor: the server checks its cases against the definition beside it, whether
// that definition is open (its unsaved text counts) or only on disk, and rechecks them as it changes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { llmTool, messageOf } from '../helpers';
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
});
