// Completion, hover and a quick fix in a real VS Code (code-server + headless Chromium).
import assert from 'node:assert/strict';
import { e2eSuite, goTo, quickOpen, openProblems, readProblems, screenshot, waitFor } from './codeServer.mjs';
const TOOL = {
  version: '1.0',
  model_prompt: 'Summarise {{text}} in {{langauge}}. ',
  metadata: {
    prompt_name: 'Summariser',
    description: 'Summarises text',
    usage_notes: 'Paste text.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.2 },
    variables: [
      { name: 'text', type: 'text', description: 'The text to summarise', default: '' },
      { name: 'language', type: 'text', description: 'Language of the summary', default: 'English' },
    ],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
  },
};
// Line 3 of the pretty-printed file is the prompt: `  "model_prompt": "Summarise {{text}} in {{langauge}}. ",`
const PROMPT_LINE = 3;
const column = (needle) => JSON.stringify(TOOL, null, 2).split('\n')[PROMPT_LINE - 1].indexOf(needle) + 1;

const workbenchTest = e2eSuite('features');

workbenchTest(
  'completion after {{, hover on a placeholder and a quick fix work in real VS Code',
  { files: { 'summariser.json': TOOL } },
  async ({ page }) => {
    await quickOpen(page, 'summariser.json');
    await openProblems(page);
    await waitFor(async () => (await readProblems(page)).some((p) => p.text.includes('unknown-placeholder')), {
      timeout: 90_000,
      what: 'diagnostics from the server',
    });
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();

    // Hover on {{text}}: the variable and its description.
    await goTo(page, PROMPT_LINE, column('{{text}}') + 3);
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
    const hover = page.locator('.monaco-hover-content');
    await waitFor(async () => (await hover.innerText().catch(() => '')).includes('The text to summarise'), {
      timeout: 30_000,
      what: 'the hover of {{text}}',
    });
    await screenshot(page, 'features-01-hover');
    await page.keyboard.press('Escape');

    // Completion: type `{{` at the end of the prompt.
    await goTo(page, PROMPT_LINE, column('. "') + 2);
    await page.keyboard.type('{{');
    const suggestions = page.locator('.suggest-widget.visible .monaco-list-row');
    await waitFor(
      async () => {
        const labels = await suggestions.allInnerTexts().catch(() => []);
        return labels.some((l) => l.includes('text')) && labels.some((l) => l.includes('language'));
      },
      { timeout: 30_000, what: 'the variable names in the suggestions' },
    );
    await screenshot(page, 'features-02-completion');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');

    // Quick fix on {{langauge}}: Change to "language" fixes the prompt and clears the problem.
    await goTo(page, PROMPT_LINE, column('{{langauge}}') + 3);
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Change to "language"' });
    await fix.waitFor({ timeout: 30_000 });
    await screenshot(page, 'features-03-quick-fix');
    // Choose it with the keyboard, as the menu's rows sit under an overlay for the mouse.
    const focused = page.locator('.action-widget .monaco-list-row.focused');
    await waitFor(
      async () => {
        if ((await focused.innerText().catch(() => '')).includes('Change to "language"')) return true;
        await page.keyboard.press('ArrowDown');
        return false;
      },
      { timeout: 10_000, what: 'the fix to be focused' },
    );
    await page.keyboard.press('Enter');
    await waitFor(async () => !(await readProblems(page)).some((p) => p.text.includes('unknown-placeholder')), {
      timeout: 30_000,
      what: 'the unknown placeholder to be fixed',
    });
    const text = (await page.locator('.editor-group-container.active .view-lines').innerText()).replace(/\u00a0/g, ' ');
    assert.ok(text.includes('{{language}}'), text.slice(0, 300));
  },
);
