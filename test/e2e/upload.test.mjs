// Upload Tool Definition in a real VS Code (code-server + headless Chromium) against the unit tests'
// loopback upload server: the token set through Set Upload Token's input box, the upload started
// from the code lens, the service's setup followed with progress to the success notification.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { smartTool } from '../../out/test/fixtures.js';
import { json, parseMultipart, startServer } from '../../out/test/upload/server.js';
import {
  answerInputBox,
  e2eSuite,
  notification,
  paletteTitles,
  quickOpen,
  runFromPalette,
  screenshot,
  waitFor,
} from './codeServer.mjs';

const TOKEN = 'tdk_e2e_9fQ2-secret';
// CRLF, tabs and non-ASCII: any re-serialisation of the file on its way would change these bytes.
const FILE =
  JSON.stringify(
    JSON.parse(
      smartTool({
        code: 'def execute(variables):\n    return "« " + variables["name"] + " »"\n',
        metadata: { tool_name: 'quoter', description: 'Quotes a name — nicely.' },
      }),
    ),
    null,
    '\t',
  ).replace(/\n/g, '\r\n') + '\r\n';

// The service accepts the file, reports its setup under way once, then ready.
const service = await startServer((req, res, index) => {
  if (req.method === 'POST')
    return json(res, 202, { status: 'queued', statusUrl: `${service.origin}/status/quoter` }, { 'retry-after': '1' });
  if (index === 1) return json(res, 200, { status: 'installing requirements', progress: 40 });
  return json(res, 200, { status: 'ready' });
});
after(() => service.close());

const workbenchTest = e2eSuite('upload');

workbenchTest(
  'Upload from the code lens sends the original bytes with the token and follows the setup',
  { files: { 'quoter.json': FILE }, settings: { 'tooldef.upload.url': `${service.origin}/upload` } },
  async ({ page, userData, serverLog }) => {
    await quickOpen(page, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Upload' });
    await lens.waitFor({ timeout: 90_000 });

    // The palette offers a smart tool's commands, not an LLM tool's.
    const titles = await paletteTitles(page, 'Tool Definition: ');
    for (const title of ['Upload Tool Definition', 'Set Upload Token', 'Run Smart Tool', 'Edit tool_code as Python']) {
      assert.ok(
        titles.some((t) => t.endsWith(title)),
        `"${title}" in the palette: ${titles.join(' | ')}`,
      );
    }
    for (const title of ['Run LLM Tool', 'Preview LLM Prompt', 'Edit model_prompt']) {
      assert.ok(
        !titles.some((t) => t.endsWith(title)),
        `no "${title}" in the palette for a smart tool: ${titles.join(' | ')}`,
      );
    }

    await runFromPalette(page, 'Tool Definition: Set Upload Token');
    await answerInputBox(page, TOKEN);
    await notification(page, 'Upload token saved in secret storage.').waitFor({ timeout: 30_000 });

    await lens.click();
    const setup = notification(page, /Uploading tool definition.*installing requirements \(40%\)/s);
    await setup.waitFor({ timeout: 30_000 });
    await screenshot(page, 'upload-01-setup-progress');
    await notification(page, "Uploaded quoter.json; the service's setup finished: ready").waitFor({ timeout: 30_000 });
    await sleep(500); // the toast slides in
    await screenshot(page, 'upload-02-done');

    const [post, ...polls] = service.received;
    assert.equal(post.method, 'POST');
    assert.equal(post.path, '/upload');
    assert.equal(post.headers.authorization, `Bearer ${TOKEN}`);
    const [part] = parseMultipart(post.body, post.headers['content-type']);
    assert.equal(part.name, 'file');
    assert.equal(part.filename, 'quoter.json');
    assert.ok(part.data.equals(Buffer.from(FILE, 'utf8')), 'the file as saved, byte for byte');
    assert.deepEqual(
      polls.map((p) => [p.method, p.path, p.headers.authorization]),
      [
        ['GET', '/status/quoter', `Bearer ${TOKEN}`],
        ['GET', '/status/quoter', `Bearer ${TOKEN}`],
      ],
    );

    // The token is in no log: not the extension's output channel (which did log the upload), not the
    // workbench's or the extension host's logs, not code-server's own output.
    await runFromPalette(page, 'Tool Definition: Show Log');
    await sleep(1500); // log files are flushed asynchronously
    const logs = [...filesUnder(join(userData, 'logs')), serverLog];
    const ours = logs.filter((f) => f.endsWith('Tool Definition.log'));
    assert.ok(
      ours.some((f) => readFileSync(f, 'utf8').includes('POST ')),
      `the extension's log records the upload: ${ours.join(', ')}`,
    );
    for (const file of logs) assert.ok(!readFileSync(file, 'utf8').includes(TOKEN), `the token appears in ${file}`);
  },
);

function* filesUnder(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

// Without an upload endpoint (the service documents no upload API): the exact file is prepared and the
// workspace's page opened, its address asked for once and kept in the user's settings.
const workspace = await startServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Workspace</title><h1>Custom tools</h1>');
});
after(() => workspace.close());

workbenchTest(
  'Upload with no upload endpoint prepares the exact file and opens the workspace page',
  { files: { 'quoter.json': FILE } },
  async ({ page, userData }) => {
    await quickOpen(page, 'quoter.json');
    const lens = page.locator('.contentWidgets .codelens-decoration a', { hasText: 'Upload' });
    await lens.waitFor({ timeout: 90_000 });
    await lens.click();
    const opened = page.context().waitForEvent('page', { timeout: 60_000 });
    await answerInputBox(page, `${workspace.origin}/workspace`);
    // VS Code may ask before opening a link to a domain it does not trust yet (loopback it trusts).
    const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    void open.click({ timeout: 60_000 }).catch(() => {});
    const tab = await opened;
    // code-server opens a loopback address through its own port proxy (`/proxy/<port>/`).
    const port = new URL(workspace.origin).port;
    await waitFor(() => tab.url() === `${workspace.origin}/workspace` || tab.url().includes(`/proxy/${port}/`), {
      timeout: 30_000,
      what: `the workspace page to open (at ${tab.url()})`,
    });

    const ready = notification(page, 'quoter.json is ready to upload');
    await ready.waitFor({ timeout: 30_000 });
    const path = /its path is copied: (.+?\.json)\)/.exec(await ready.innerText())?.[1];
    assert.ok(path, await ready.innerText());
    assert.ok(path.startsWith(userData), `${path} in the extension's storage`);
    assert.equal(readFileSync(path, 'utf8'), FILE, 'the exact bytes of the saved file');
    // Kept in the user's settings: a remote window's (code-server's) are those of its machine.
    const settings = JSON.parse(readFileSync(join(userData, 'Machine', 'settings.json'), 'utf8'));
    assert.equal(settings['tooldef.workspaceUrl'], `${workspace.origin}/workspace`);
    await screenshot(page, 'upload-05-prepared');
  },
);
