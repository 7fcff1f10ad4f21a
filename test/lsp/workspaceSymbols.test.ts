// Go to Symbol in Workspace (Ctrl+T) over stdio: tools by name, on disk and open (an open document's
// unsaved names count), and their variables with the tool as container.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { llmTool, smartTool } from '../helpers';
import { LspClient } from './lspClient';

test('workspace symbols: tools and variables whose names hold the query, on disk and open', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-symbols-'));
  const weather = smartTool({
    metadata: { tool_name: 'weather_lookup' },
    variables: [
      { name: 'city', description: 'City', default: 'Oslo' },
      { name: 'units', description: 'Units', default: 'metric' },
    ],
    code: 'def execute(variables):\n    return variables["city"] + variables["units"]\n',
  });
  writeFileSync(join(folder, 'weather_lookup.json'), weather);
  writeFileSync(join(folder, 'translator.json'), llmTool({ metadata: { prompt_name: 'Translator' } }));
  writeFileSync(join(folder, 'notes.json'), '{ "name": "weather notes" }');
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    const symbols = (query: string) =>
      client
        .request<SymbolInformation[]>('workspace/symbol', { query })
        .then((list) =>
          list.map(
            (s) => `${s.kind === 2 ? 'tool' : 'variable'} ${s.name}${s.containerName ? ` (${s.containerName})` : ''}`,
          ),
        );
    // The folder is scanned after start-up; then its smart tool is analysed ahead of opening, and says so.
    const scanned = () => client.log.some((l) => /^Analysed 1 smart tool .* of the workspace/.test(l.message));
    for (const deadline = Date.now() + 30_000; !scanned() && Date.now() < deadline;) await sleep(20);
    assert.ok(scanned(), client.log.map((l) => l.message).join('\n'));
    assert.deepEqual(await symbols('wthr'), ['tool weather_lookup']);
    assert.deepEqual(await symbols('CITY'), ['variable city (weather_lookup)']);
    assert.deepEqual((await symbols('t')).slice(0, 3), [
      'tool Translator',
      'tool weather_lookup',
      'variable city (weather_lookup)',
    ]);
    const [city] = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'city' });
    const doc = TextDocument.create(city.location.uri, 'json', 1, weather);
    assert.equal(city.location.uri, pathToFileURL(join(folder, 'weather_lookup.json')).href);
    assert.equal(doc.getText(city.location.range), '"city"');

    // An open document's unsaved text stands for its file.
    const uri = pathToFileURL(join(folder, 'weather_lookup.json')).href;
    await client.open(uri, weather.replace('weather_lookup', 'forecast'));
    assert.deepEqual(await symbols('wthr'), []);
    assert.deepEqual(await symbols('forecast'), ['tool forecast']);
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('the workspace scan says in the log what it cannot read, and goes on', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-unreadable-'));
  writeFileSync(join(folder, 'zz_tool.json'), smartTool({ metadata: { tool_name: 'after_the_link' } }));
  symlinkSync(join(folder, 'gone'), join(folder, 'aa_dangling'));
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    const scanned = () => client.log.some((l) => /^Analysed 1 smart tool .* of the workspace/.test(l.message));
    for (const deadline = Date.now() + 30_000; !scanned() && Date.now() < deadline;) await sleep(20);
    const warning = client.log.find((l) => l.message.startsWith('Cannot read '));
    assert.ok(warning, client.log.map((l) => l.message).join('\n'));
    assert.equal(warning.type, 2, 'a warning');
    assert.match(warning.message, /aa_dangling: definitions under it are not known/);
    // The file after the dangling link was still read.
    const found = await client.request<SymbolInformation[]>('workspace/symbol', { query: 'after_the_link' });
    assert.deepEqual(
      found.map((s) => s.name),
      ['after_the_link'],
    );
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});
