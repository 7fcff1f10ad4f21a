// A file with a huge number of problems over stdio: a generated prompt with 300,000 undeclared
// placeholders gets the first 5,000 diagnostics, the last saying how many more there are, and the
// server keeps answering (hover) instead of building and sending them all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Hover } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { llmTool, messageOf } from '../helpers';
import { LspClient } from './lspClient';

test('300,000 undeclared placeholders: 5,000 diagnostics, the last one counting the rest; hover answers', async () => {
  const prompt = Array.from({ length: 300_000 }, (_, i) => `word {{undeclared${i}}}`).join(' ');
  const text = llmTool({ prompt });
  const client = await LspClient.start();
  try {
    const uri = 'file:///many/problems.json';
    await client.open(uri, text);
    const ds = await client.waitForDiagnostics(uri, (d) => d.length > 0, 120_000);
    assert.equal(ds.length, 5000);
    const doc = TextDocument.create(uri, 'json', 1, text);
    assert.deepEqual([...new Set(ds.map((d) => d.code))], ['unknown-placeholder']);
    assert.equal(doc.getText(ds[0].range), '{{undeclared0}}');
    assert.equal(doc.getText(ds[4999].range), '{{undeclared4999}}');
    // The other 295,000 placeholders, and the two declared variables no placeholder uses.
    assert.match(messageOf(ds[4999]), /\(295,002 more problems in this file are not shown: fix these first\.\)$/);
    assert.doesNotMatch(messageOf(ds[4998]), /not shown/);
    const hover = await client.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: doc.positionAt(text.indexOf('"version"') + 2),
    });
    assert.ok(hover, 'the hover is answered');
  } finally {
    await client.dispose();
  }
});
