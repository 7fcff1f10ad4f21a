// Kept Python analyses (server/src/node/analysisCache.ts) across server processes: a smart tool
// opened in a new server (a new window) gets its complete diagnostics first, from the cache, the
// same as a cold analysis gives; the tree is built behind them, so that edits stay incremental; a
// damaged entry is a miss.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { smartTool, until } from '../helpers';
import { LspClient } from './lspClient';

/** Long enough to be kept (MIN_KEPT_LENGTH): 400 functions, an unused import and a misspelt name. */
const CODE =
  'import os\n\n' +
  Array.from({ length: 400 }, (_, i) => `def helper_${i}(x):\n    return x * ${i} + len(str(x))\n`).join('\n') +
  '\ndef execute(variables):\n    return str(lenn(variables["name"]))\n';
const TEXT = smartTool({ code: CODE });

/** The JSON files under the cache folder (one per kept analysis). */
function entries(dir: string): string[] {
  const out: string[] = [];
  for (const build of readdirSync(dir))
    for (const name of readdirSync(join(dir, build))) if (name.endsWith('.json')) out.push(join(dir, build, name));
  return out;
}

const codes = (ds: readonly Diagnostic[]) => ds.map((d) => d.code).sort();

describe('kept Python analyses across servers', () => {
  let dir: string;
  let workspace: string;
  let env: NodeJS.ProcessEnv;
  const clients: LspClient[] = [];
  const start = async () => {
    const c = await LspClient.start({ env });
    clients.push(c);
    return c;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tooldef-analysis-'));
    workspace = mkdtempSync(join(tmpdir(), 'tooldef-ws-'));
    env = { ...process.env, TOOLDEF_ANALYSIS_CACHE: dir };
  });
  after(async () => {
    for (const c of clients) await c.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  test('a file opened in a new server is complete at once, as its first analysis was', async () => {
    const uri = pathToFileURL(join(workspace, 'tool.json')).toString();
    const first = await start();
    await first.open(uri, TEXT);
    const cold = await first.waitForDiagnostics(uri);
    assert.deepEqual(codes(cold), ['undefined-name', 'unused-import']);
    await until(() => readdirSync(dir).length > 0 && entries(dir).length === 1, 30_000);

    const second = await start();
    await second.open(uri, TEXT);
    const firstSet = await second.waitForFirstDiagnostics(uri);
    assert.equal(firstSet.partial, undefined, 'the kept analysis is complete: no partial set first');
    assert.deepEqual(firstSet.diagnostics, cold);

    // The syntax tree is built behind: an edit fixing the name is analysed as usual.
    const line = TEXT.split('\n').findIndex((l) => l.includes('lenn('));
    const character = TEXT.split('\n')[line].indexOf('lenn(') + 3;
    await second.change(uri, [
      { range: { start: { line, character }, end: { line, character: character + 1 } }, text: '' },
    ]);
    const fixed = await second.waitForDiagnostics(uri, (ds) => !ds.some((d) => d.code === 'undefined-name'));
    assert.deepEqual(codes(fixed), ['unused-import']);
  });

  test('a damaged entry is a miss: the file is analysed as if it had none', async () => {
    for (const file of entries(dir)) writeFileSync(file, '{"problems": [');
    const uri = pathToFileURL(join(workspace, 'again', 'tool.json')).toString();
    const client = await start();
    await client.open(uri, TEXT);
    const firstSet = await client.waitForFirstDiagnostics(uri);
    assert.equal(firstSet.partial, true, 'a cold analysis publishes the other problems first');
    assert.deepEqual(codes(await client.waitForDiagnostics(uri)), ['undefined-name', 'unused-import']);
  });
});
