// Upload Tool Definition through the API against a loopback server: the file is validated as the
// editor validates it, with the user's rule severities, and its bytes are sent as saved.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { afterEach, before, describe, it } from 'mocha';
import { json, parseMultipart, startServer, type TestServer } from '../upload/server';
import { scriptAnswers } from './answers';
import { smartTool } from '../fixtures';
import { activeExtension, closeAll, openAs, writeFixture } from './workspace';

describe('Upload Tool Definition', () => {
  let server: TestServer | undefined;
  let restore: (() => void) | undefined;
  before(activeExtension);
  afterEach(async () => {
    restore?.();
    await server?.close();
    const cfg = vscode.workspace.getConfiguration('tooldef');
    for (const key of ['upload.url', 'rules']) await cfg.update(key, undefined, vscode.ConfigurationTarget.Global);
    await closeAll();
  });

  it("validates with the user's rule severities: an error turned off does not block the upload", async () => {
    server = await startServer((_req, res) => json(res, 201, { id: 't1' }));
    const cfg = vscode.workspace.getConfiguration('tooldef');
    await cfg.update('upload.url', `${server.origin}/api/tools`, vscode.ConfigurationTarget.Global);
    await cfg.update('rules', { 'invalid-timestamp': 'off' }, vscode.ConfigurationTarget.Global);
    const uri = await writeFixture(
      'upload_rules.json',
      smartTool({ metadata: { tool_name: 'upload_rules', timestamp: 'yesterday' } }),
    );
    await openAs(uri, 'tooldef');
    const script = scriptAnswers([{ input: 'secret-token' }]); // asked once: no token stored yet
    restore = script.restore;

    const result = await vscode.commands.executeCommand<{ ok: boolean; message: string }>('tooldef.upload', uri);
    assert.ok(result?.ok, JSON.stringify(result));
    assert.equal(server.received.length, 1);
    const [request] = server.received;
    assert.equal(request.headers.authorization, 'Bearer secret-token');
    const [part] = parseMultipart(request.body, request.headers['content-type']);
    assert.deepEqual(part.data, readFileSync(uri.fsPath), 'the saved bytes, as they are');
  });
});
