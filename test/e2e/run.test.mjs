// Run Smart Tool in a real VS Code (code-server + headless Chromium): the code lens runs the tool
// with its defaults in the integrated terminal and the returned string opens in an editor tab; in
// Restricted Mode running is disabled while diagnostics keep working.
import assert from 'node:assert/strict';
import { e2eSuite, quickOpen, openProblems, readProblems, screenshot, waitFor } from './codeServer.mjs';

const GREETER = {
  version: '1.0',
  metadata: {
    tool_name: 'greeter',
    tool_code:
      'import sys\n\ndef execute(variables):\n    print("working on it")\n    return "Hello, " + variables["name"] + "! \\u00e9"\n',
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

const workbenchTest = e2eSuite('run');

// The DOM renderer keeps the terminal's text readable from the page.
workbenchTest(
  'Run with Defaults from the code lens shows the returned string in a tab',
  { files: { 'greeter.json': GREETER }, settings: { 'terminal.integrated.gpuAcceleration': 'off' } },
  async ({ page }) => {
    await quickOpen(page, 'greeter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Run with Defaults' });
    await lens.waitFor({ timeout: 90_000 });
    await screenshot(page, 'run-01-code-lens');
    await lens.click();

    const resultTab = page.locator('.tabs-container .tab', { hasText: 'greeter result' });
    await resultTab.waitFor({ timeout: 120_000 });
    // Monaco renders spaces as no-break spaces.
    const editorText = async () =>
      (await page.locator('.editor-group-container.active .view-lines').innerText()).replace(/\u00a0/g, ' ');
    await waitFor(async () => (await editorText()).includes('Hello, World! é'), {
      timeout: 30_000,
      what: 'the returned string in the result tab',
    });
    assert.match(await resultTab.innerText(), /greeter result \(\d+(\.\d+)? (ms|s), \d+(\.\d)? MB\)/);
    const terminal = page.locator('.terminal-wrapper .xterm-rows');
    await waitFor(
      async () => (await terminal.innerText().catch(() => '')).replace(/\u00a0/g, ' ').includes('working on it'),
      { timeout: 30_000, what: "the tool's output in the terminal" },
    );
    await screenshot(page, 'run-02-result');
  },
);

const FAILING = {
  ...GREETER,
  metadata: {
    ...GREETER.metadata,
    tool_code: 'def execute(variables):\n    name = variables["name"]\n    raise ValueError("no " + name)\n',
  },
};

workbenchTest(
  "a traceback's tool_code line is a link in the terminal: it opens that line inside the JSON",
  { files: { 'greeter.json': FAILING }, settings: { 'terminal.integrated.gpuAcceleration': 'off' } },
  async ({ page }) => {
    await quickOpen(page, 'greeter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Run with Defaults' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    const frame = page.locator('.terminal-wrapper .xterm-rows span', { hasText: 'line 3' }).first();
    await frame.waitFor({ timeout: 120_000 });
    await screenshot(page, 'run-04-traceback');
    // The terminal re-renders its rows (the cursor blinks): clicked where the text is, not on the element.
    const box = await frame.boundingBox();
    assert.ok(box, 'the frame line on screen');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    // Hovered, the terminal shows the link with the provider's tooltip; Ctrl+click follows it.
    await page.getByText('Open line 3 of tool_code').first().waitFor({ timeout: 30_000 });
    await page.mouse.move(x, y);
    await page.keyboard.down('Control');
    await page.mouse.down();
    await page.mouse.up();
    await page.keyboard.up('Control');
    // Line 3 of tool_code starts inside the JSON string on the file's line 5, after `\n` escapes.
    const text = JSON.stringify(FAILING, null, 2);
    const row = text.split('\n').findIndex((l) => l.includes('"tool_code"'));
    const column = text.split('\n')[row].indexOf('    raise') + 1;
    await page.locator('.statusbar-item', { hasText: `Ln ${row + 1}, Col ${column}` }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'run-05-traceback-line');
  },
);

const broken = { ...GREETER, metadata: { ...GREETER.metadata, timestamp: 'yesterday' } };
workbenchTest(
  'in Restricted Mode running is disabled while diagnostics keep working',
  { files: { 'greeter.json': broken }, trust: true },
  async ({ page }) => {
    // The trust prompt: decline, which opens the folder in Restricted Mode.
    const decline = page.getByRole('button', { name: /No, I don.t trust the authors/ });
    await decline.waitFor({ timeout: 60_000 });
    await decline.click();

    await quickOpen(page, 'greeter.json');
    await openProblems(page);
    await waitFor(async () => (await readProblems(page)).some((p) => p.text.includes('invalid-timestamp')), {
      timeout: 90_000,
      what: 'invalid-timestamp in the Problems view',
    });
    const lenses = page.locator('.contentWidgets .codelens-decoration');
    await waitFor(async () => (await lenses.innerText().catch(() => '')).includes('Upload'), {
      timeout: 60_000,
      what: 'the Upload code lens',
    });
    assert.ok(
      !(await lenses.innerText()).includes('Run'),
      `no Run lens in Restricted Mode, got: ${await lenses.innerText()}`,
    );
    await screenshot(page, 'run-03-restricted');
  },
);
