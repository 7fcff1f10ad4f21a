// `tooldef upload` in-process through runCli (so the COMMANDS wiring is tested too), and once as dist/cli.js.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../server/src/cli/cli';
import { smartTool } from '../helpers';
import { json, parseMultipart, startServer, type Handler, type TestServer } from './server';

const TOKEN = 'cli_tok_8LmN3pQ5rS7tU9vW';
const dir = mkdtempSync(join(tmpdir(), 'tooldef-upload-cli-'));
const GOOD = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(smartTool({ metadata: { tool_name: 'weather' } }).replace(/\n/g, '\r\n')),
]);
writeFileSync(join(dir, 'weather.json'), GOOD);
writeFileSync(join(dir, 'broken.json'), smartTool({ metadata: { tool_name: 'broken', tool_code: undefined } }));

const servers: TestServer[] = [];
async function server(handler: Handler): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}
const outputs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
  for (const o of outputs) assert.ok(!o.includes(TOKEN), `token leaked: ${o}`);
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string | undefined> = { TOOLDEF_TOKEN: TOKEN }): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['upload', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd: dir,
    env,
  });
  outputs.push(stdout, stderr);
  assert.ok(!stdout.includes(TOKEN) && !stderr.includes(TOKEN), 'the token is never printed');
  return { code, stdout, stderr };
}
const CLI_PATH = resolve(__dirname, '../../../dist/cli.js');
const show = (r: Run): string => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

describe('tooldef upload', () => {
  test('success: exit 0, the result on stdout, progress on stderr, the file bytes sent', async () => {
    const s = await server((_req, res) => json(res, 201, {}));
    const r = await cli(['weather.json', '--url', `${s.origin}/up`]);
    assert.equal(r.code, 0, show(r));
    assert.equal(r.stdout, 'Uploaded weather.json (HTTP 201).\n');
    assert.match(
      r.stderr,
      /tooldef: Validating weather\.json…\ntooldef: Uploading weather\.json \(\d+ B\) to http:\/\/127\.0\.0\.1:\d+\/up…\n/,
    );
    assert.equal(s.received[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.match(String(s.received[0].headers['user-agent']), /^tooldef-cli\//);
    assert.ok(parseMultipart(s.received[0].body, s.received[0].headers['content-type'])[0].data.equals(GOOD));
  });

  test('setup: ready → 0, failed → 1', async () => {
    let final = 'ready';
    const s = await server((req, res) =>
      req.method === 'POST'
        ? json(res, 202, { statusUrl: '/s' })
        : json(res, 200, { status: final, message: 'pip said no' }),
    );
    const ok = await cli(['weather.json', '--url', s.origin, '--quiet']);
    assert.equal(ok.code, 0, show(ok));
    assert.equal(ok.stderr, '');
    final = 'failed';
    const bad = await cli(['weather.json', '--url', s.origin]);
    assert.equal(bad.code, 1, show(bad));
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /tooldef: The service's setup of weather\.json failed: pip said no\.\n$/);
  });

  test('validation errors: exit 1 and nothing sent, unless --force', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const r = await cli(['broken.json', '--url', s.origin]);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /broken\.json:\d+:\d+ error missing-field /);
    assert.match(r.stderr, /Not uploaded: the definition has 1 error\. .*--force uploads it anyway/);
    assert.equal(s.received.length, 0);
    const forced = await cli(['broken.json', '--url', s.origin, '--force']);
    assert.equal(forced.code, 0, show(forced));
    assert.equal(s.received.length, 1);
  });

  test('--json: the result object on stdout, for success and failure', async () => {
    const s = await server((_req, res, i) =>
      i === 0
        ? json(res, 202, { statusUrl: 'status' })
        : i === 1
          ? json(res, 200, { status: 'ready' })
          : json(res, 401, {}),
    );
    const r = await cli(['--json', 'weather.json', `--url=${s.origin}/api/`]);
    assert.equal(r.code, 0, show(r));
    const o = JSON.parse(r.stdout);
    assert.equal(o.ok, true);
    assert.equal(o.status, 'ready');
    assert.equal(o.kind, null);
    assert.equal(o.httpStatus, 200);
    assert.equal(o.fileName, 'weather.json');
    assert.equal(o.size, GOOD.length);
    assert.equal(o.attempts, 1);
    assert.equal(o.polls, 1);
    assert.equal(o.statusUrl, `${s.origin}/api/status`);
    assert.equal(o.validation.errors, 0);
    assert.equal(typeof o.elapsedMs, 'number');
    const f = await cli(['weather.json', '--url', s.origin, '--json']);
    assert.equal(f.code, 1, show(f));
    const g = JSON.parse(f.stdout);
    assert.deepEqual([g.ok, g.status, g.kind, g.httpStatus], [false, null, 'auth', 401]);
    assert.match(f.stderr, /Set TOOLDEF_TOKEN to a valid token\./);
  });

  test('a server that never answers: --timeout, exit 1', async () => {
    const s = await server(() => undefined);
    const r = await cli(['weather.json', '--url', s.origin, '--timeout', '0.3']);
    assert.equal(r.code, 1, show(r));
    assert.match(r.stderr, /did not answer the upload within 0\.3 s/);
  });

  test('bad usage: exit 2', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const cases: [string[], RegExp, Record<string, string | undefined>?][] = [
      [['weather.json'], /documents no upload API: upload the file in your workspace's UI .* give it with --url URL/],
      [['--url', s.origin], /Name the tool definition file to upload/],
      [['weather.json', '--url', s.origin, '--timeout', '0'], /--timeout must be a positive number of seconds/],
      [['weather.json', '--url', s.origin, '--token', 'x'], /not accepted on the command line/],
      [['weather.json', '--url', s.origin, '--bogus'], /Unknown option --bogus/],
      [['weather.json', '--url', s.origin, '--force=yes'], /--force takes no value/],
      [['weather.json', 'other.json', '--url', s.origin], /Name one file to upload/],
      [['weather.json', '--url'], /--url needs a value/],
      [['weather.json', '--url', s.origin, '--token=x'], /not accepted on the command line/],
      [['weather.json', '--url', s.origin], /no upload token: set the environment variable TOOLDEF_TOKEN/, {}],
      [['weather.json', '--url', s.origin], /no upload token/, { TOOLDEF_TOKEN: '  ' }],
      [['missing.json', '--url', s.origin], /cannot read missing\.json/],
      [['.', '--url', s.origin], /cannot read \./],
      [
        ['weather.json', '--url', 'http://uploads.example.com/x'],
        /Refusing to send the upload token over plain HTTP to uploads\.example\.com/,
      ],
      [['weather.json', '--url', 'ftp://x/'], /must start with https:\/\//],
    ];
    for (const [args, message, env] of cases) {
      const r = await cli(args, env);
      assert.equal(r.code, 2, `${args.join(' ')}\n${show(r)}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
    assert.equal(s.connections, 0);
  });

  test('--help and the top-level usage list upload', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: tooldef upload --url URL/);
    assert.match(r.stdout, /Exit status: 0 uploaded/);
    let top = '';
    await runCli(['--help'], { stdout: { write: (s: string) => (top += s) }, stderr: { write: () => true }, cwd: dir });
    assert.match(top, /Usage: tooldef upload/);
  });

  test('the built CLI (dist/cli.js) uploads with TOOLDEF_TOKEN from its environment', async () => {
    assert.ok(existsSync(CLI_PATH), 'npm test builds dist/cli.js first');
    const s = await server((_req, res) => json(res, 200, {}));
    const child = spawn(process.execPath, [CLI_PATH, 'upload', 'weather.json', '--url', s.origin, '--json'], {
      cwd: dir,
      env: { ...process.env, TOOLDEF_TOKEN: TOKEN },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    outputs.push(stdout, stderr);
    assert.equal(code, 0, `${stdout}\n${stderr}`);
    assert.equal(JSON.parse(stdout).status, 'uploaded');
    assert.equal(s.received[0].headers.authorization, `Bearer ${TOKEN}`);
  });

  test('Ctrl-C while the service has the upload: cancelled, exit 130', async () => {
    let arrived!: () => void;
    const uploading = new Promise<void>((resolve) => (arrived = resolve));
    const s = await server(() => arrived()); // never answers
    const child = spawn(process.execPath, [CLI_PATH, 'upload', 'weather.json', '--url', s.origin], {
      cwd: dir,
      env: { ...process.env, TOOLDEF_TOKEN: TOKEN },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const closed = new Promise<number | null>((done) => child.on('close', done));
    await uploading;
    child.kill('SIGINT');
    const code = await closed;
    outputs.push(stderr);
    assert.equal(code, 130, stderr);
    assert.match(stderr, /Upload cancelled\./);
  });
});
