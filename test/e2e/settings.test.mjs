// The extension's settings in a real VS Code (code-server + headless Chromium, a remote window): Open
// Settings from a message shows the settings it names, on the tab that holds them (machine settings live
// on the Remote tab there; the User tab said "No Settings Found"), and each setting can be found.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { e2eSuite, notification, quickOpen, REPO, runFromPalette, screenshot, waitFor } from './codeServer.mjs';

const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const settings = Object.keys(manifest.contributes.configuration.properties);

const TOOL = {
  version: '1.0',
  model_prompt: 'Summarise {{text}}.',
  metadata: {
    prompt_name: 'Summariser',
    description: 'Summarises a text.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.1 },
    variables: [{ name: 'text', type: 'text', description: 'The text', default: 'Hello' }],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
  },
};

const workbenchTest = e2eSuite('settings');

workbenchTest(
  "Open Settings from Run LLM Tool's message shows the LLM settings, and every setting is found",
  { files: { 'summariser.json': TOOL } },
  async ({ page }) => {
    await quickOpen(page, 'summariser.json');
    await waitFor(async () => (await page.locator('.codelens-decoration', { hasText: 'Run LLM Tool' }).count()) > 0, {
      timeout: 90_000,
      what: 'the extension to be ready (its code lens)',
    });
    await runFromPalette(page, 'Tool Definition: Run LLM Tool');
    const open = notification(page, 'Running an LLM tool needs a model').getByRole('button', { name: 'Open Settings' });
    await open.waitFor({ timeout: 60_000 });
    await open.click();
    const item = (title) => page.locator('.settings-editor .setting-item-contents', { hasText: title });
    await item('Base Url').waitFor({ timeout: 30_000 });
    await item('Model Map').waitFor({ timeout: 30_000 });
    await screenshot(page, 'settings-01-llm');

    // Each setting, by its id, on the tab the command opened.
    const search = page.locator('.settings-editor .search-container textarea').first();
    for (const id of settings) {
      await search.fill(`@id:${id}`);
      await waitFor(async () => (await item(titleOf(id)).count()) > 0, {
        timeout: 15_000,
        what: `${id} in the settings editor`,
      });
    }
    assert.equal(await page.locator('.settings-editor .no-results-message:visible').count(), 0);
  },
);

/** How the settings editor titles a setting: `tooldef.llm.baseUrl` → `Base Url`. */
function titleOf(id) {
  const last = id.split('.').at(-1);
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}
