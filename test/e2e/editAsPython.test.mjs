// Edit tool_code as Python in a real VS Code (code-server + headless Chromium): the code opens
// decoded in a Python editor, and saving it writes it back into the JSON string, escaped.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2eSuite, openProblems, quickOpen, readProblems, screenshot, waitFor } from './codeServer.mjs';
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

const workbenchTest = e2eSuite('edit');

workbenchTest(
  'Edit as Python opens the decoded code and a save writes it back into the JSON string',
  { files: { 'quoter.json': TOOL } },
  async ({ page, folder }) => {
    await quickOpen(page, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Edit tool_code as Python' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    const tab = page.locator('.tabs-container .tab.active', { hasText: 'tool_code.py' });
    await tab.waitFor({ timeout: 60_000 });
    const view = page.locator('.editor-group-container.active .view-lines');
    const text = async () => (await view.innerText()).replace(/\u00a0/g, ' ');
    await waitFor(async () => (await text()).includes('return "Hi \\"" + variables["name"]'), {
      timeout: 30_000,
      what: 'the decoded code',
    });
    await screenshot(page, 'edit-01-python-view');

    // Type a new last line and save: the definition file gets it, escaped.
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('# "done"\\t');
    await page.keyboard.press('Control+S');

    // The definition is now modified in its editor (one undoable edit); saving it writes the file.
    await page.locator('.tabs-container .tab', { hasText: 'quoter.json' }).click();
    await waitFor(async () => (await text()).includes('# \\"done\\"'), {
      timeout: 30_000,
      what: 'the escaped line in the definition',
    });
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();
    await page.keyboard.press('Control+S');
    const written = async () => JSON.parse(await readFile(join(folder, 'quoter.json'), 'utf8')).metadata.tool_code;
    await waitFor(async () => (await written()) === CODE + '# "done"\\t', {
      timeout: 30_000,
      what: 'the new line in the saved definition',
    });
    await screenshot(page, 'edit-02-written-back');
  },
);

workbenchTest(
  'the Python view\'s squiggles follow typing, before any save, and variables[" completes the variables',
  { files: { 'quoter.json': TOOL } },
  async ({ page }) => {
    await quickOpen(page, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Edit tool_code as Python' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    await page.locator('.tabs-container .tab.active', { hasText: 'tool_code.py' }).waitFor({ timeout: 60_000 });
    const editor = page.locator('.editor-group-container.active .monaco-editor');
    await editor.locator('textarea').focus();
    await page.keyboard.press('Control+End');
    // Completion after variables[": the definition's variables.
    await page.keyboard.type('x = variables["');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'name' });
    await suggestion.waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    // A key no variable has, not saved: the view shows the definition's unknown-variable-key at once.
    await page.keyboard.type('nmae"]');
    await editor.locator('.squiggly-error').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'edit-03-unsaved-squiggle');
  },
);

const MISTYPED = {
  ...TOOL,
  metadata: { ...TOOL.metadata, tool_code: CODE.replace('variables["name"]', 'variables["nmae"]') },
};

workbenchTest(
  'with the Python view open, a problem in tool_code is listed once, under the view',
  { files: { 'quoter.json': MISTYPED } },
  async ({ page }) => {
    await quickOpen(page, 'quoter.json');
    await openProblems(page);
    const keyProblems = async () => (await readProblems(page)).filter((p) => p.text.includes('unknown-variable-key'));
    const where = async () => {
      const rows = await page.locator('.markers-panel .monaco-list-row[aria-level="1"] .label-name').allInnerTexts();
      return { rows, problems: await keyProblems() };
    };
    await waitFor(async () => (await keyProblems()).length === 1, {
      timeout: 90_000,
      what: 'the problem under quoter.json',
    });
    assert.equal((await keyProblems())[0].file, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Edit tool_code as Python' });
    await lens.click();
    await page.locator('.tabs-container .tab.active', { hasText: 'tool_code.py' }).waitFor({ timeout: 60_000 });
    await waitFor(
      async () => {
        const found = await keyProblems();
        return found.length === 1 && found[0].file === 'quoter.tool_code.py';
      },
      { timeout: 30_000, what: `the problem under the view only (${JSON.stringify(await where())})` },
    );
    await screenshot(page, 'edit-04-problems-once');

    // The definition's quick fix, in the view: the key becomes the variable's name, in both files.
    await page.locator('.editor-group-container.active .view-lines span', { hasText: 'nmae' }).first().click();
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to' }).first();
    await fix.waitFor({ timeout: 30_000 });
    // The first fix is focused: Enter applies it (the widget re-renders too often to be clicked).
    await page.keyboard.press('Enter');
    const view = page.locator('.editor-group-container.active .view-lines');
    await waitFor(async () => (await view.innerText()).replace(/\u00a0/g, ' ').includes('variables["name"]'), {
      timeout: 30_000,
      what: 'the fixed key in the view',
    });
    await screenshot(page, 'edit-05-fixed-from-view');
  },
);
