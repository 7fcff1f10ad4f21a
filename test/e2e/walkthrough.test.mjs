// The Get Started walkthrough in a real VS Code (code-server + headless Chromium): listed among the
// walkthroughs, its five steps shown, each step's page rendered from the packaged markdown.
import assert from 'node:assert/strict';
import { e2eSuite, runFromPalette, screenshot, waitFor } from './codeServer.mjs';

const STEPS = ['Create a tool', 'See what is wrong, as you type', 'Run it', 'Keep it working', 'Upload it'];

const workbenchTest = e2eSuite('walkthrough');

workbenchTest('Get Started: Tool Definition: five steps, each with its page', { files: {} }, async ({ page }) => {
  await runFromPalette(page, 'Welcome: Open Walkthrough...');
  const item = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started: Tool Definition' });
  await item.waitFor({ timeout: 60_000 });
  await item.click();
  const steps = page.locator('.getting-started-step .step-title');
  await waitFor(async () => (await steps.count()) === STEPS.length, { timeout: 60_000, what: 'the five steps' });
  assert.deepEqual(
    (await steps.allInnerTexts()).map((t) => t.trim()),
    STEPS,
  );
  // A step's page: its markdown, from the package.
  await page.locator('.getting-started-step', { hasText: 'Keep it working' }).click();
  // The page is a webview: frames inside frames.
  const shown = async () => {
    for (const frame of page.frames()) {
      const text = await frame
        .locator('body')
        .innerText({ timeout: 1000 })
        .catch(() => '');
      if (text.includes('Save as Test Case') && text.includes('Approve Output')) return true;
    }
    return false;
  };
  await waitFor(shown, { timeout: 30_000, what: "the step's page" });
  await screenshot(page, 'walkthrough-01-test-step');
});
