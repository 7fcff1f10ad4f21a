// The web extension (dist/web/) in code-server's web worker extension host, the host vscode.dev and
// github.dev run extensions in: installed from a location served over HTTP through code-server's port
// proxy (Developer: Install Extension from Location…, as a person would try a web extension), with no
// copy of the extension on the server. Its language server runs as a web worker: diagnostics reach the Problems view, and a
// command that needs the machine says it is absent here.
import assert from 'node:assert/strict';
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { llmTool } from '../../out/test/fixtures.js';
import {
  REPO,
  e2eSuite,
  notification,
  openProblems,
  quickOpen,
  readProblems,
  runFromPalette,
  answerInputBox,
  screenshot,
  waitFor,
} from './codeServer.mjs';

const TYPES = { '.js': 'text/javascript', '.json': 'application/json', '.md': 'text/markdown', '.png': 'image/png' };

/** This repository's files over HTTP on loopback (code-server proxies them to the workbench's origin). */
async function serveExtension() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://localhost').pathname)).replace(/^\/+/, '');
    const file = join(REPO, path);
    const headers = {};
    let ok = false;
    try {
      ok = !path.startsWith('..') && statSync(file).isFile();
    } catch {
      // missing: 404
    }
    if (!ok) return void res.writeHead(404, headers).end();
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => server.close() };
}

// A placeholder naming no variable: an error on line 3, at the placeholder.
const BROKEN_LLM = llmTool({ prompt: 'Summarise {{text}} in {{target langauge}}.' });
const COLUMN = BROKEN_LLM.split('\n')[2].indexOf('{{target langauge}}') + 1;

const workbenchTest = e2eSuite('web');

workbenchTest(
  'the web extension works in the web worker extension host',
  { files: { 'broken-llm.json': BROKEN_LLM }, installed: false },
  async ({ page }) => {
    // The web extension host reports its extensions' failures on the page's console.
    const consoleErrors = [];
    page.on('console', (m) => void (m.type() === 'error' && consoleErrors.push(m.text())));
    const extension = await serveExtension();
    try {
      await runFromPalette(page, 'Developer: Install Extension from Location...');
      // Through code-server's own proxy: the workbench fetches only from its origin (and https:).
      await answerInputBox(page, `${new URL(page.url()).origin}/proxy/${extension.port}/`);
      await screenshot(page, 'web-01-installed');

      await quickOpen(page, 'broken-llm.json');
      await openProblems(page);
      const problems = await waitFor(
        async () => {
          const rows = (await readProblems(page)).filter((p) => p.file === 'broken-llm.json');
          return rows.some((p) => p.text.includes('unknown-placeholder')) && rows;
        },
        { timeout: 60_000, what: "the web extension's diagnostics" },
      ).catch((e) => {
        e.message += `\nthe page's console errors:\n${consoleErrors.join('\n')}`;
        throw e;
      });
      await screenshot(page, 'web-02-problems');
      assert.ok(
        problems.some(
          (p) =>
            p.text.startsWith('No variable is named "target langauge". Did you mean "target language"?') &&
            p.text.endsWith(`tooldef unknown-placeholder [Ln 3, Col ${COLUMN}]`),
        ),
        JSON.stringify(problems),
      );

      // The browser build, not the desktop one: running a tool needs this machine.
      await runFromPalette(page, 'Tool Definition: Run LLM Tool');
      await notification(page, 'not available in VS Code for the Web').waitFor({ timeout: 30_000 });
      await screenshot(page, 'web-03-unavailable');
    } finally {
      extension.close();
    }
  },
);
