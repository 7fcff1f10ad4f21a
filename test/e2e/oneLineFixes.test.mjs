// Quick fixes on a smart tool's tool_code, which the JSON holds on one line: the light bulb at one
// problem offers that problem's fixes only, not those of the other problems on the line.
import assert from 'node:assert/strict';
import { e2eSuite, goTo, openProblems, quickOpen, readProblems, screenshot, waitFor } from './codeServer.mjs';

const CODE = 'import yaml\n\ndef execute(variables):\n    return yaml.dump(variables["nmae"])\n';
const TOOL = {
  version: '1.0',
  metadata: {
    tool_name: 'dumper',
    tool_code: CODE,
    description: 'Dumps a name.',
    usage_notes: 'Give a name.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: 'ann@example.com', organization: 'Acme' },
    variables: [{ name: 'name', description: 'A name', default: 'x' }],
    expected_output: { type: 'text' },
    avatar_type: 'base64',
    avatar: '',
    timestamp: '2026-01-01T00:00:00Z',
    requirements: '',
  },
};
const LINES = JSON.stringify(TOOL, null, 2).split('\n');
const CODE_LINE = LINES.findIndex((l) => l.includes('"tool_code"')) + 1;

const workbenchTest = e2eSuite('one-line-fixes');

workbenchTest(
  "the light bulb on one problem of a one-line tool_code offers that problem's fixes only",
  { files: { 'dumper.json': TOOL } },
  async ({ page }) => {
    await quickOpen(page, 'dumper.json');
    await openProblems(page);
    await waitFor(
      async () => {
        const problems = (await readProblems(page)).map((p) => p.text).join(' ');
        return problems.includes('unknown-variable-key') && problems.includes('missing-requirement');
      },
      { timeout: 90_000, what: 'both problems from the server' },
    );
    await page.locator('.editor-group-container.active .monaco-editor textarea').focus();
    const rows = page.locator('.action-widget .monaco-list-row');
    /**
     * The quick fixes offered with the cursor inside `needle` on the tool_code line. Ctrl+. is pressed
     * once the status bar shows the cursor there, and once per attempt (a second press while the
     * menu opens would act on it).
     */
    const fixesAt = async (needle, expected) => {
      const col = LINES[CODE_LINE - 1].indexOf(needle) + 3;
      await goTo(page, CODE_LINE, col);
      await waitFor(
        async () => (await page.locator('.statusbar').innerText()).includes(`Ln ${CODE_LINE}, Col ${col}`),
        {
          timeout: 10_000,
          what: `the cursor at ${CODE_LINE}:${col}`,
        },
      );
      const seen = [];
      for (let attempt = 0; attempt < 5; attempt++) {
        await page.keyboard.press('Control+.');
        const shown = await rows
          .first()
          .waitFor({ timeout: 10_000 })
          .then(
            () => true,
            () => false,
          );
        const titles = shown ? await rows.allInnerTexts() : [];
        seen.push(titles.join(' | '));
        if (shown) {
          await page.keyboard.press('Escape');
          await rows.first().waitFor({ state: 'detached', timeout: 10_000 });
        }
        if (titles.some((t) => t.includes(expected))) return titles.join(' | ');
      }
      throw new Error(`no fix "${expected}" at ${CODE_LINE}:${col}; menus seen: ${seen.join(' / ')}`);
    };
    const atKey = await fixesAt('nmae', 'Change to "name"');
    await screenshot(page, 'one-line-fixes');
    assert.ok(!atKey.includes('PyYAML'), `the import's fix offered at the key: ${atKey}`);
    const atImport = await fixesAt('yaml\\n', 'Add "PyYAML" to requirements');
    assert.ok(!atImport.includes('Change to'), `the key's fix offered at the import: ${atImport}`);
  },
);
