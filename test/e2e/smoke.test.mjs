// Smoke test of the packaged extension in a real VS Code (code-server + headless Chromium):
// its diagnostics reach the Problems view once each, and it leaves unrelated JSON alone.
// Needs dist/tooldef.vsix (`npm run package`), or TOOLDEF_VSIX pointing at another build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ensureCodeServer, startCodeServer, openWorkbench, quickOpen, openProblems, readProblems,
  screenshot, waitFor, makeTempDir, removeTempDir,
} from './codeServer.mjs';

const VSIX = resolve(process.env.TOOLDEF_VSIX ?? 'dist/tooldef.vsix');
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

// Installing code-server takes minutes on a fresh machine (instant afterwards), so it is a
// test of its own: node:test counts `before` hooks against the first test's timeout.
let entry;
test('prerequisites: packaged extension and code-server', { timeout: 15 * 60_000 }, async (t) => {
  assert.ok(existsSync(VSIX), `No packaged extension at ${VSIX}: run \`npm run package\` first ` +
    '(or set TOOLDEF_VSIX to a .vsix).');
  entry = await ensureCodeServer({ signal: t.signal });
});

/** Polls the Problems view until it stops changing for `quiet` ms, and returns it. */
async function settledProblems(page, quiet = 2000) {
  let last = JSON.stringify(await readProblems(page));
  let since = Date.now();
  return waitFor(async () => {
    await sleep(250);
    const now = JSON.stringify(await readProblems(page));
    if (now !== last) [last, since] = [now, Date.now()];
    return Date.now() - since >= quiet && JSON.parse(now);
  }, { timeout: 30_000, what: 'the Problems view to settle' });
}

test('diagnostics show up in real VS Code (code-server)', { timeout: 4 * 60_000 }, async (t) => {
  if (!entry) return t.skip('prerequisites failed');
  const folder = await makeTempDir('e2e-workspace-');
  let server, browser, page;
  try {
    await writeFile(join(folder, 'broken-llm.json'), JSON.stringify(BROKEN_LLM, null, 2) + '\n');
    await writeFile(join(folder, 'other.json'), OTHER_JSON);

    server = await startCodeServer({ vsix: VSIX, folder, entry });
    ({ browser, page } = await openWorkbench(server.url, folder));
    // On timeout, closing the browser makes every pending wait fail at once, so cleanup runs
    // now rather than after the remaining steps' own timeouts.
    const closeBrowser = () => browser.close().catch(() => {});
    if (t.signal.aborted) await closeBrowser();
    t.signal.addEventListener('abort', closeBrowser);
    await screenshot(page, '01-workbench');

    await quickOpen(page, 'broken-llm.json');
    await openProblems(page);
    const ours = (p) => p.file === 'broken-llm.json';
    await waitFor(async () => {
      const rows = (await readProblems(page)).filter(ours);
      return rows.some((r) => r.text.includes('unknown-placeholder')) &&
        rows.some((r) => r.text.includes('unused-variable'));
    }, { timeout: 90_000, what: 'unknown-placeholder and unused-variable in the Problems view' });
    let problems = await settledProblems(page);
    await screenshot(page, '02-broken-llm-problems');

    const withCode = (code) => problems.filter((p) => p.text.includes(code));
    assert.equal(withCode('unknown-placeholder').length, 1, fmt('one unknown-placeholder row', problems));
    assert.equal(withCode('unused-variable').length, 1, fmt('one unused-variable row', problems));
    assert.ok(withCode('unknown-placeholder').every(ours), fmt('unknown-placeholder on broken-llm.json', problems));
    assert.match(withCode('unused-variable')[0].text, /language/, fmt('unused-variable about `language`', problems));

    await quickOpen(page, 'other.json');
    await waitFor(async () => (await readProblems(page)).some((p) => p.file === 'other.json'),
      { timeout: 60_000, what: "VS Code's own JSON diagnostics for other.json" });
    problems = await settledProblems(page);
    await screenshot(page, '03-other-json');
    const foreign = problems.filter((p) => p.file === 'other.json' && !BUILTIN_JSON_ROW.test(p.text));
    assert.deepEqual(foreign, [], fmt("only VS Code's own JSON problems on other.json", problems));
  } catch (e) {
    if (page) await screenshot(page, '99-failure').catch(() => {});
    throw e;
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop();
    await removeTempDir(folder);
  }
});

function fmt(what, problems) {
  return `expected ${what}; Problems view:\n` + problems.map((p) => `  ${p.file}: ${p.text}`).join('\n');
}
