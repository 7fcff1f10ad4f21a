// Edit tool_code as Python in a real VS Code (code-server + headless Chromium): the code opens
// decoded in a Python editor, and saving it writes it back into the JSON string, escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureCodeServer, startCodeServer, openWorkbench, quickOpen, screenshot, waitFor, makeTempDir, removeTempDir } from './codeServer.mjs';

const VSIX = resolve(process.env.TOOLDEF_VSIX ?? 'dist/tooldef.vsix');
const CODE = 'def execute(variables):\n    return "Hi \\"" + variables["name"] + "\\""\n';
const TOOL = {
  version: '1.0',
  metadata: {
    tool_name: 'quoter',
    tool_code: CODE,
    description: 'Quotes a name.',
    usage_notes: '',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    variables: [{ name: 'name', description: 'A name', default: 'World' }],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
  },
};

let entry;
test('prerequisites: packaged extension and code-server', { timeout: 15 * 60_000 }, async (t) => {
  assert.ok(existsSync(VSIX), `No packaged extension at ${VSIX}: run \`npm run package\` first.`);
  entry = await ensureCodeServer({ signal: t.signal });
});

test('Edit as Python opens the decoded code and a save writes it back into the JSON string', { timeout: 4 * 60_000 }, async (t) => {
  if (!entry) return t.skip('prerequisites failed');
  const folder = await makeTempDir('e2e-edit-');
  let server, browser, page;
  try {
    await writeFile(join(folder, 'quoter.json'), JSON.stringify(TOOL, null, 2) + '\n');
    server = await startCodeServer({ vsix: VSIX, folder, entry });
    ({ browser, page } = await openWorkbench(server.url, folder));
    t.signal.addEventListener('abort', () => browser.close().catch(() => {}));

    await quickOpen(page, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Edit as Python' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    const tab = page.locator('.tabs-container .tab.active', { hasText: 'tool_code.py' });
    await tab.waitFor({ timeout: 60_000 });
    const view = page.locator('.editor-group-container.active .view-lines');
    const text = async () => (await view.innerText()).replace(/\u00a0/g, ' ');
    await waitFor(async () => (await text()).includes('return "Hi \\"" + variables["name"]'), { timeout: 30_000, what: 'the decoded code' });
    await screenshot(page, 'edit-01-python-view');

    // Type a new last line and save: the definition file gets it, escaped.
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# "done"\\t');
    await page.keyboard.press('Control+S');
    await waitFor(async () => !(await page.locator('.tabs-container .tab.active.dirty').count()), { timeout: 30_000, what: 'the embedded view to be saved' });

    // The definition is now modified in its editor (one undoable edit); saving it writes the file.
    const definitionTab = page.locator('.tabs-container .tab', { hasText: 'quoter.json' });
    await definitionTab.click();
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();
    await page.keyboard.press('Control+S');
    const written = async () => JSON.parse(await readFile(join(folder, 'quoter.json'), 'utf8')).metadata.tool_code;
    await waitFor(async () => (await written()) === CODE + '# "done"\\t', { timeout: 30_000, what: 'the new line in the saved definition' });
    await screenshot(page, 'edit-02-written-back');
  } catch (e) {
    if (page) await screenshot(page, 'edit-99-failure').catch(() => {});
    throw e;
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop();
    await removeTempDir(folder);
  }
});
