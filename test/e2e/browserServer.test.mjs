// The language server's browser bundle (dist/web/server.js, the web extension's) in headless Chromium:
// a page starts it as a web worker and the test drives it with LSP messages, as VS Code for the Web does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { launchChromium, REPO } from './codeServer.mjs';
import { llmTool, smartTool } from '../../out/test/fixtures.js';

const PAGE = `<!doctype html><script>
  // The worker's messages, kept for the test to read; its errors too (a crash must fail the test).
  window.received = [];
  window.errors = [];
  window.worker = new Worker('/server.js');
  worker.onmessage = (e) => received.push(e.data);
  worker.onerror = (e) => errors.push(String(e.message));
</script>`;

describe('the language server in a browser (web worker)', () => {
  let http;
  let browser;
  let page;
  let nextId = 1;

  /** Sends a request and resolves with its response (any notifications meanwhile stay in `received`). */
  const request = async (method, params) => {
    const id = nextId++;
    await page.evaluate((m) => globalThis.worker.postMessage(m), { jsonrpc: '2.0', id, method, params });
    const handle = await page.waitForFunction((i) => globalThis.received.find((m) => m.id === i && !m.method), id, {
      timeout: 30_000,
    });
    return handle.jsonValue();
  };
  const notify = (method, params) =>
    page.evaluate((m) => globalThis.worker.postMessage(m), { jsonrpc: '2.0', method, params });
  /** The diagnostics the server published last for `uri` once `predicate` holds for them. */
  const diagnostics = async (uri, predicate) => {
    const handle = await page.waitForFunction(
      ([u, p]) => {
        const sets = globalThis.received.filter(
          (m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === u,
        );
        const last = sets.at(-1)?.params.diagnostics;
        return last && new Function('d', `return (${p})(d)`)(last) ? last : undefined;
      },
      [uri, predicate.toString()],
      { timeout: 30_000 },
    );
    return handle.jsonValue();
  };

  before(async () => {
    const bundle = readFileSync(join(REPO, 'dist/web/server.js'));
    http = createServer((req, res) => {
      if (req.url === '/server.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${http.address().port}/`);
    const init = await request('initialize', {
      processId: null,
      rootUri: null,
      capabilities: { textDocument: { publishDiagnostics: {} } },
      workspaceFolders: null,
    });
    assert.ok(init.result.capabilities.completionProvider, JSON.stringify(init));
    await notify('initialized', {});
  });

  after(async () => {
    const errors = page ? await page.evaluate(() => globalThis.errors) : [];
    await browser?.close();
    http?.close();
    assert.deepEqual(errors, [], 'the worker raised no error');
  });

  test("a smart tool's embedded Python is analysed: its syntax, execute and variables keys", async () => {
    const uri = 'vscode-vfs://github/acme/tools/weather.json';
    const text = smartTool({
      metadata: { tool_name: 'weather' },
      code: 'def execute(variables):\n    city = variables["nmae"]\n    return f"{city}"\n',
    });
    await notify('textDocument/didOpen', { textDocument: { uri, languageId: 'tooldef', version: 1, text } });
    const found = await diagnostics(uri, (d) => d.length > 0);
    assert.deepEqual(
      found.map((d) => d.code),
      ['unknown-variable-key', 'unused-variable'],
    );
    await notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: text.replace('def execute(variables):', 'def execute(variables)') }],
    });
    const broken = await diagnostics(uri, (d) => d.some((x) => x.code === 'python-syntax'));
    assert.match(broken.find((d) => d.code === 'python-syntax').message, /expected ':'/);
  });

  test('completion, hover and the outline of an LLM tool', async () => {
    const uri = 'untitled:Untitled-1';
    const text = llmTool({ metadata: { prompt_name: 'Summariser' } });
    await notify('textDocument/didOpen', { textDocument: { uri, languageId: 'tooldef', version: 1, text } });
    await diagnostics(uri, () => true);
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"model_prompt"'));
    const character = lines[line].indexOf('{{') + 2;
    const completion = await request('textDocument/completion', {
      textDocument: { uri },
      position: { line, character },
    });
    const items = Array.isArray(completion.result) ? completion.result : completion.result.items;
    assert.ok(items.length > 0, JSON.stringify(completion));
    const hover = await request('textDocument/hover', {
      textDocument: { uri },
      position: { line, character: lines[line].indexOf('"model_prompt"') + 2 },
    });
    assert.ok(hover.result?.contents, JSON.stringify(hover));
    const symbols = await request('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(symbols.result.length > 0, JSON.stringify(symbols));
  });
});
