// Tool tests in a real VS Code (code-server + headless Chromium): the Test Explorer lists a definition's
// cases, a run shows a golden case's new output side by side with the (missing) approved one, Approve
// Output writes the golden file, and the case turns green.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  answerInputBox,
  e2eSuite,
  notification,
  quickOpen,
  runFromPalette,
  screenshot,
  waitFor,
} from './codeServer.mjs';

const GREETER = {
  version: '1.0',
  metadata: {
    tool_name: 'greeter',
    tool_code: 'def execute(variables):\n    return "Hello, " + variables["name"] + "!"\n',
    description: 'Greets someone.',
    usage_notes: 'Enter a name.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    variables: [{ name: 'name', description: 'Who to greet', default: 'World' }],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
    requirements: '',
  },
};

const TESTS = {
  tests: [
    { name: 'greets the world', inputs: {}, expect: { equals: 'Hello, World!' } },
    { name: 'greets Ann', inputs: { name: 'Ann' }, expect: { golden: true } },
  ],
};

const workbenchTest = e2eSuite('tool-tests');

workbenchTest(
  'a golden case fails with the diff, Approve Output writes it and the case passes',
  { files: { 'greeter.json': GREETER, 'greeter.tests.json': TESTS } },
  async ({ page, folder }) => {
    await quickOpen(page, 'greeter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Run 2 tests' });
    await lens.waitFor({ timeout: 90_000 });
    await screenshot(page, 'tool-tests-01-lens');
    await lens.click();

    // The Test Explorer: the definition and its two cases, one passed and one failed.
    await runFromPalette(page, 'View: Show Testing');
    const row = (name) => page.locator('.test-explorer .monaco-list-row', { hasText: name });
    await waitFor(async () => (await row('greets Ann').count()) > 0 || (await expandAll(page)), {
      timeout: 60_000,
      what: 'the cases in the Test Explorer',
    });
    await waitFor(async () => (await stateOf(row('greets Ann'))) === 'failed', {
      timeout: 120_000,
      what: 'the golden case to fail (no approved output yet)',
    });
    assert.equal(await stateOf(row('greets the world')), 'passed');
    await screenshot(page, 'tool-tests-02-explorer');

    // The failure's peek: the approved output (none yet) and the actual one side by side.
    await row('greets Ann').dblclick();
    const peek = page.locator('.test-output-peek');
    await peek.waitFor({ timeout: 30_000 });
    const diff = peek.locator('.monaco-diff-editor');
    await diff.waitFor({ timeout: 30_000 });
    await waitFor(async () => (await diff.innerText()).replace(/\u00a0/g, ' ').includes('Hello, Ann!'), {
      timeout: 30_000,
      what: 'the actual output in the diff',
    });
    await screenshot(page, 'tool-tests-03-diff');

    // The peek's own button for messages of this context value (package.json's testing/message/content).
    const approve = peek.locator('.floating-click-widget', { hasText: 'Approve Output' });
    await approve.waitFor({ timeout: 30_000 });
    await approve.click();
    await waitFor(async () => (await stateOf(row('greets Ann'))) === 'passed', {
      timeout: 120_000,
      what: 'the golden case to pass once approved',
    });
    assert.equal(await readFile(join(folder, 'greeter.golden', 'greets Ann.txt'), 'utf8'), 'Hello, Ann!');
    await screenshot(page, 'tool-tests-04-green');
  },
);

workbenchTest(
  'Save as Test Case after a run adds a golden case, which the definition then runs as a test',
  { files: { 'greeter.json': GREETER } },
  async ({ page, folder }) => {
    await quickOpen(page, 'greeter.json');
    const lens = (title) => page.locator('.contentWidgets .codelens-decoration a', { hasText: title });
    await lens('Run with Defaults').waitFor({ timeout: 90_000 });
    await lens('Run with Defaults').click();
    const save = notification(page, 'greeter returned').getByRole('button', { name: 'Save as Test Case' });
    await save.waitFor({ timeout: 120_000 });
    await save.click();
    await answerInputBox(page, 'the world');
    await notification(page, /Saved "the world" in greeter\.tests\.json/).waitFor({ timeout: 30_000 });
    assert.deepEqual(JSON.parse(await readFile(join(folder, 'greeter.tests.json'), 'utf8')), {
      tests: [{ name: 'the world', inputs: { name: 'World' }, expect: { golden: true } }],
    });
    assert.equal(await readFile(join(folder, 'greeter.golden', 'the world.txt'), 'utf8'), 'Hello, World!');
    // The definition, still open beside the result, gains the lens once the explorer reads the new file.
    await lens('Run 1 test').waitFor({ timeout: 30_000 });
    await screenshot(page, 'tool-tests-05-saved');
  },
);

/** A row's state as the explorer's icon shows it (`passed`, `failed`, …), from its codicon class. */
async function stateOf(row) {
  const icon = await row
    .first()
    .locator('.computed-state')
    .getAttribute('class', { timeout: 1000 })
    .catch(() => '');
  return /testing-(passed|failed|error|skipped|queued|running|unset)/.exec(icon ?? '')?.[1];
}

/** Expands every collapsed row of the explorer; false so that waitFor keeps polling. */
async function expandAll(page) {
  for (const twistie of await page.locator('.test-explorer .monaco-tl-twistie.collapsed').all())
    await twistie.click().catch(() => {});
  return false;
}
