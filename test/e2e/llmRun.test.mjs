// Run LLM Tool in a real VS Code (code-server + headless Chromium) against the unit tests' loopback
// chat-completions server: the key set through Set LLM API Key's input box, the variables asked for
// with an input box and a quick pick, the answer streamed into an editor tab and checked against
// expected_output.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { chunk, startChatServer, startStream } from '../../out/test/llm/chatServer.js';
import {
  answerInputBox,
  e2eSuite,
  notification,
  openProblems,
  quickOpen,
  readProblems,
  runFromPalette,
  screenshot,
  waitFor,
} from './codeServer.mjs';

const KEY = 'sk-e2e-7Hq1-secret';
const TOOL = {
  version: '1.0',
  model_prompt: 'Classify the tone of "{{text}}" as positive, negative or neutral, in a {{style}} way.',
  metadata: {
    prompt_name: 'Classifier',
    description: 'Classifies the tone of a text.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.1, max_tokens: 20 },
    variables: [
      { name: 'text', type: 'text', description: 'The text to classify', default: 'I like it' },
      {
        name: 'style',
        type: 'single-select',
        description: 'How to answer',
        allowed_values: ['terse', 'formal'],
        default: 'terse',
      },
    ],
    expected_output: { type: 'limited', allowed_values: ['positive', 'negative', 'neutral'] },
    timestamp: '2026-01-01T00:00:00Z',
  },
};

// The model streams the first words, then holds the rest back until the test has seen them in the tab.
const chat = await startChatServer();
after(() => chat.close());
let releaseRest;
const restReleased = new Promise((resolve) => (releaseRest = resolve));
chat.handle(async (_req, res) => {
  startStream(res);
  res.write(chunk({ role: 'assistant', content: '' }));
  res.write(chunk({ content: 'Mostly ' }));
  await restReleased;
  res.write(chunk({ content: 'positive, ' }));
  res.write(chunk({ content: 'I think.' }));
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
});

const workbenchTest = e2eSuite('llm');
const settings = { 'tooldef.llm.baseUrl': chat.baseUrl, 'tooldef.llm.modelMap': { 'gpt-4': 'e2e-model' } };

workbenchTest(
  'Run LLM Tool asks for the variables, streams the answer into a tab and flags an answer outside expected_output',
  { files: { 'classifier.json': TOOL }, settings },
  async ({ page }) => {
    await quickOpen(page, 'classifier.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Run LLM Tool' });
    await lens.waitFor({ timeout: 90_000 });

    await runFromPalette(page, 'Tool Definition: Set LLM API Key');
    await answerInputBox(page, KEY);
    await notification(page, 'API key saved.').waitFor({ timeout: 30_000 });

    await lens.click();
    // The text variable: an input box pre-filled with its default.
    const title = page.locator('.quick-input-widget .quick-input-title');
    const input = page.locator('.quick-input-widget .quick-input-box input.input');
    await waitFor(async () => (await title.innerText()) === 'Classifier (1/2): text', {
      timeout: 30_000,
      what: 'the input box for text',
    });
    assert.equal(await input.inputValue(), 'I like it');
    await screenshot(page, 'llm-01-variable');
    await answerInputBox(page, 'The service was wonderful');
    // The single-select variable: a quick pick of its allowed_values, the default first.
    await waitFor(async () => (await title.innerText()) === 'Classifier (2/2): style', {
      timeout: 30_000,
      what: 'the quick pick for style',
    });
    const rows = page.locator('.quick-input-list .monaco-list-row');
    assert.deepEqual(await rows.locator('.label-name').allInnerTexts(), ['terse', 'formal']);
    assert.equal(await rows.first().locator('.label-description').innerText(), 'default');
    await input.fill('formal');
    await page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'formal' })
      .waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');

    // The first words show in the answer tab while the rest is still on its way.
    const answerTab = page.locator('.tabs-container .tab', { hasText: 'Classifier answer' });
    await answerTab.waitFor({ timeout: 30_000 });
    const answer = page.locator('.editor-group-container.active .view-lines');
    const answerText = async () => (await answer.innerText()).replace(/\u00a0/g, ' ').trim();
    await waitFor(async () => (await answerText()) === 'Mostly', {
      timeout: 30_000,
      what: 'the first streamed words in the answer tab',
    });
    await screenshot(page, 'llm-02-streaming');
    releaseRest();
    await waitFor(async () => (await answerText()) === 'Mostly positive, I think.', {
      timeout: 30_000,
      what: 'the whole answer in the tab',
    });

    await notification(
      page,
      'The answer does not match expected_output: The answer "Mostly positive, I think." is not one of the allowed values',
    ).waitFor({ timeout: 30_000 });
    await openProblems(page);
    await waitFor(
      async () =>
        (await readProblems(page)).some((p) => p.file === 'Classifier answer' && p.text.includes('not-allowed-value')),
      { timeout: 30_000, what: 'not-allowed-value on the answer in the Problems view' },
    );
    await screenshot(page, 'llm-03-violation');

    assert.equal(chat.requests.length, 1);
    const [request] = chat.requests;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/v1/chat/completions');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.body.model, 'e2e-model');
    assert.equal(request.body.stream, true);
    assert.equal(request.body.temperature, 0.1);
    assert.equal(request.body.max_tokens, 20);
    assert.deepEqual(request.body.messages, [
      {
        role: 'user',
        content: 'Classify the tone of "The service was wonderful" as positive, negative or neutral, in a formal way.',
      },
    ]);
  },
);
