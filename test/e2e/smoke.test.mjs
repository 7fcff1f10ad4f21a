// Smoke test of the packaged extension in a real VS Code (code-server + headless Chromium):
// its diagnostics reach the Problems view once each, and it leaves unrelated JSON alone.
// Needs dist/tooldef.vsix (`npm run package`), or TOOLDEF_VSIX pointing at another build.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { e2eSuite, quickOpen, openProblems, readProblems, screenshot, waitFor } from './codeServer.mjs';

// How a row from VS Code's built-in JSON support reads: `Trailing comma json 519 [Ln 4, Col 32]`.
const BUILTIN_JSON_ROW = / json( \d+)? \[Ln \d+, Col \d+\]$/;

const BROKEN_LLM = {
  version: '1.0',
  model_prompt: 'Summarise {{text}} in {{langauge}}.',
  metadata: {
    prompt_name: 'Summariser',
    description: 'Summarises text',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.2 },
    variables: [
      { name: 'text', type: 'text', description: 'Text', default: '' },
      { name: 'language', type: 'text', description: 'Language', default: 'English' },
    ],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
  },
};
// Not a tool definition; the trailing comma makes VS Code's own JSON support report an error,
// which tells us diagnostics for this file have been computed.
const OTHER_JSON = '{\n  "name": "other",\n  "version": "1.0.0",\n  "scripts": { "build": "tsc" },\n}\n';

const workbenchTest = e2eSuite('smoke');

/** Polls the Problems view until it stops changing for `quiet` ms, and returns it. */
async function settledProblems(page, quiet = 2000) {
  let last = JSON.stringify(await readProblems(page));
  let since = Date.now();
  return waitFor(
    async () => {
      await sleep(250);
      const now = JSON.stringify(await readProblems(page));
      if (now !== last) [last, since] = [now, Date.now()];
      return Date.now() - since >= quiet && JSON.parse(now);
    },
    { timeout: 30_000, what: 'the Problems view to settle' },
  );
}

workbenchTest(
  'diagnostics show up in real VS Code (code-server)',
  { files: { 'broken-llm.json': BROKEN_LLM, 'other.json': OTHER_JSON } },
  async ({ page, userData }) => {
    await screenshot(page, '01-workbench');

    await quickOpen(page, 'broken-llm.json');
    await openProblems(page);
    const ours = (p) => p.file === 'broken-llm.json';
    await waitFor(
      async () => {
        const rows = (await readProblems(page)).filter(ours);
        return (
          rows.some((r) => r.text.includes('unknown-placeholder')) &&
          rows.some((r) => r.text.includes('unused-variable'))
        );
      },
      { timeout: 90_000, what: 'unknown-placeholder and unused-variable in the Problems view' },
    );
    let problems = await settledProblems(page);
    await screenshot(page, '02-broken-llm-problems');

    const withCode = (code) => problems.filter((p) => p.text.includes(code));
    assert.equal(withCode('unknown-placeholder').length, 1, fmt('one unknown-placeholder row', problems));
    assert.equal(withCode('unused-variable').length, 1, fmt('one unused-variable row', problems));
    assert.ok(withCode('unknown-placeholder').every(ours), fmt('unknown-placeholder on broken-llm.json', problems));
    assert.match(withCode('unused-variable')[0].text, /language/, fmt('unused-variable about `language`', problems));

    // The client gave the server a code cache directory in the extension's global storage, and the
    // server wrote its cache there a second after it started (server/src/boot.ts); the Python
    // analysis's, if a smart tool was analysed by then, beside it.
    const cacheDir = join(userData, 'User', 'globalStorage', 'tooldef.tooldef', 'code-cache');
    const cached = await waitFor(
      async () => {
        const names = existsSync(cacheDir) ? readdirSync(cacheDir) : [];
        return names.some((n) => /^server-main-[0-9a-f]{16}-.+\.cache$/.test(n)) && names;
      },
      { timeout: 30_000, what: `the server's code cache in ${cacheDir}` },
    );
    assert.deepEqual(
      cached.filter((n) => !/^(server-main|python)-[0-9a-f]{16}-.+\.cache$/.test(n)),
      [],
      cached.join(', '),
    );

    await quickOpen(page, 'other.json');
    await waitFor(async () => (await readProblems(page)).some((p) => p.file === 'other.json'), {
      timeout: 60_000,
      what: "VS Code's own JSON diagnostics for other.json",
    });
    problems = await settledProblems(page);
    await screenshot(page, '03-other-json');
    const foreign = problems.filter((p) => p.file === 'other.json' && !BUILTIN_JSON_ROW.test(p.text));
    assert.deepEqual(foreign, [], fmt("only VS Code's own JSON problems on other.json", problems));
  },
);

function fmt(what, problems) {
  return `expected ${what}; Problems view:\n` + problems.map((p) => `  ${p.file}: ${p.text}`).join('\n');
}
