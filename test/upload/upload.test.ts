// uploadDefinition against a real HTTP server on 127.0.0.1 (node:http), the multipart body parsed for real.
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { after, describe, test } from 'node:test';
import { llmTool, smartTool } from '../helpers';
import { sanitizeFileName, uploadDefinition, uploadFileName } from '../../server/src/engine/upload';
import { validateForUpload } from '../../server/src/engine/upload/validate';
import type {
  UploadFailure,
  UploadOptions,
  UploadProgress,
  UploadResult,
  UploadSuccess,
} from '../../server/src/engine/upload';
import { json, parseMultipart, startServer, type Handler, type TestServer } from './server';

const TOKEN = 'tdk_live_Zx9Q2wE7rT4yU1iO-secret';

/** A valid smart tool as an editor on Windows saves it: a BOM, CRLF line ends, non-ASCII text. */
const GOOD = Buffer.concat([
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from(
    smartTool({ metadata: { tool_name: 'text_slugifier', description: 'Grüße — slugs “quoted”' } }).replace(
      /\n/g,
      '\r\n',
    ),
    'utf8',
  ),
]);
/** A smart tool without `tool_code`: a `missing-field` error. */
const BROKEN = Buffer.from(smartTool({ metadata: { tool_name: 'broken', tool_code: undefined } }), 'utf8');

/** Everything any hook, result or console/stdio write produced in this file: checked for the token at the end. */
const seen: string[] = [];

function capture(): {
  progress: UploadProgress[];
  logs: string[];
  hooks: { onProgress(p: UploadProgress): void; onLog(l: string): void };
} {
  const progress: UploadProgress[] = [];
  const logs: string[] = [];
  return {
    progress,
    logs,
    hooks: {
      onProgress: (p) => {
        progress.push(p);
        seen.push(JSON.stringify(p));
      },
      onLog: (l) => {
        logs.push(l);
        seen.push(l);
      },
    },
  };
}

/**
 * Records console calls and process stdio writes while `fn` runs. The upload module must not use the
 * console at all; stdio also carries the test runner's own events, so writes there are only checked for the token.
 */
async function recordingStdio<T>(fn: () => Promise<T>): Promise<{ value: T; consoleCalls: string[]; stdio: string[] }> {
  const consoleCalls: string[] = [];
  const stdio: string[] = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  const consoleMethods = ['log', 'error', 'warn', 'info', 'debug', 'trace'] as const;
  const saved = consoleMethods.map((k) => console[k]);
  const wrap = (original: typeof out, stream: NodeJS.WriteStream): typeof out =>
    function (this: unknown, chunk: unknown, ...rest: unknown[]) {
      stdio.push(Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk));
      return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
    } as typeof out;
  process.stdout.write = wrap(out, process.stdout);
  process.stderr.write = wrap(err, process.stderr);
  for (const k of consoleMethods)
    console[k] = (...args: unknown[]) => void consoleCalls.push(args.map(String).join(' '));
  try {
    return { value: await fn(), consoleCalls, stdio };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    consoleMethods.forEach((k, i) => (console[k] = saved[i]));
  }
}

async function up(opts: Partial<UploadOptions> & { url: string }) {
  const c = capture();
  const {
    value: result,
    consoleCalls,
    stdio,
  } = await recordingStdio(() =>
    uploadDefinition(
      {
        token: TOKEN,
        bytes: GOOD,
        filePath: '/tools/text_slugifier.json',
        validate: (bytes) => validateForUpload(bytes, { filePath: opts.filePath ?? '/tools/text_slugifier.json' }),
        retryBaseMs: 10,
        pollIntervalMs: 10,
        maxPollIntervalMs: 40,
        ...opts,
      },
      c.hooks,
    ),
  );
  seen.push(JSON.stringify(result), ...consoleCalls, ...stdio);
  assert.deepEqual(consoleCalls, [], 'the upload module never uses the console');
  for (const text of [JSON.stringify(result), ...c.logs, ...c.progress.map((p) => p.message)])
    assert.ok(!text.includes(TOKEN), `token leaked: ${text}`);
  return { result, ...c };
}

function ok(r: UploadResult): UploadSuccess {
  assert.equal(r.ok, true, `expected success, got ${JSON.stringify(r)}`);
  return r as UploadSuccess;
}
function failed(r: UploadResult, kind: UploadFailure['kind']): UploadFailure {
  assert.equal(r.ok, false, `expected failure ${kind}, got ${JSON.stringify(r)}`);
  assert.equal((r as UploadFailure).kind, kind, (r as UploadFailure).message);
  return r as UploadFailure;
}

const servers: TestServer[] = [];
async function server(handler: Handler): Promise<TestServer> {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  assert.ok(seen.length > 50, 'the captured output is not empty');
  for (const s of seen) assert.ok(!s.includes(TOKEN), `token leaked: ${s}`);
});

describe('upload: the request', () => {
  test('success: one POST, Bearer token, one multipart part "file" with the original bytes', async () => {
    const s = await server((_req, res) => json(res, 201, { id: 'abc' }));
    const { result, progress } = await up({ url: `${s.origin}/api/tools?team=a` });
    const r = ok(result);
    assert.equal(r.status, 'uploaded');
    assert.equal(r.httpStatus, 201);
    assert.equal(r.attempts, 1);
    assert.equal(r.polls, 0);
    assert.equal(r.fileName, 'text_slugifier.json');
    assert.equal(r.size, GOOD.length);
    assert.equal(r.forced, false);
    assert.equal(r.validation?.errors, 0);
    assert.ok(r.elapsedMs >= 0);
    assert.deepEqual([...new Set(progress.map((p) => p.phase))], ['validating', 'uploading', 'done']);

    assert.equal(s.received.length, 1);
    const req = s.received[0];
    assert.equal(req.method, 'POST');
    assert.equal(req.path, '/api/tools?team=a');
    assert.equal(req.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(req.headers['content-length'], String(req.body.length));
    const parts = parseMultipart(req.body, req.headers['content-type']);
    assert.equal(parts.length, 1);
    assert.equal(parts[0].name, 'file');
    assert.equal(parts[0].filename, 'text_slugifier.json');
    assert.equal(parts[0].contentType, 'application/json');
    assert.ok(parts[0].data.equals(GOOD), 'the part holds the file bytes exactly (BOM, CRLF, UTF-8)');
    assert.deepEqual([...parts[0].data.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.ok(parts[0].data.includes('\r\n'));
  });

  test('the part is named after prompt_name for an LLM tool, sanitised; else after the file', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const llm = Buffer.from(llmTool({ metadata: { prompt_name: 'Meeting / Notes: "Summariser"' } }));
    ok((await up({ url: s.origin, bytes: llm, filePath: '/x/whatever.json' })).result);
    assert.equal(
      parseMultipart(s.received[0].body, s.received[0].headers['content-type'])[0].filename,
      'Meeting _ Notes_ _Summariser_.json',
    );
    const nameless = Buffer.from(llmTool({ metadata: { prompt_name: undefined } }));
    const r = ok((await up({ url: s.origin, bytes: nameless, filePath: '/x/my prompt.json' })).result);
    assert.equal(r.fileName, 'my prompt.json');
    assert.equal(
      parseMultipart(s.received[1].body, s.received[1].headers['content-type'])[0].filename,
      'my prompt.json',
    );
  });

  test('a reply that is not JSON still counts as uploaded', async () => {
    const s = await server((_req, res) => res.writeHead(204).end());
    const r = ok((await up({ url: s.origin })).result);
    assert.equal(r.status, 'uploaded');
    assert.equal(r.httpStatus, 204);
  });
});

describe('upload: the service setup (statusUrl)', () => {
  test('polled (relative URL, same Authorization) through pending states to ready', async () => {
    const states = [
      { status: 'pending' },
      { status: 'installing', progress: 50, message: 'pip install requests' },
      { status: 'ready', message: 'tool live' },
    ];
    const s = await server((req, res, i) => {
      if (req.method === 'POST') return json(res, 202, { statusUrl: 'status/42?x=1' });
      json(res, 200, states[i - 1]);
    });
    const { result, progress } = await up({ url: `${s.origin}/api/tools` });
    const r = ok(result);
    assert.equal(r.status, 'ready');
    assert.equal(r.polls, 3);
    assert.equal(r.statusUrl, `${s.origin}/api/status/42`);
    assert.match(r.message, /ready: tool live/);
    const polls = s.received.slice(1);
    assert.deepEqual(
      polls.map((p) => [p.method, p.path]),
      [
        ['GET', '/api/status/42?x=1'],
        ['GET', '/api/status/42?x=1'],
        ['GET', '/api/status/42?x=1'],
      ],
    );
    for (const p of polls) assert.equal(p.headers.authorization, `Bearer ${TOKEN}`);
    const setup = progress.filter((p) => p.phase === 'setup');
    assert.ok(
      setup.some(
        (p) =>
          p.setupStatus === 'installing' &&
          p.percent === 50 &&
          /installing \(50%\): pip install requests/.test(p.message),
      ),
      JSON.stringify(setup),
    );
    assert.equal(progress.at(-1)?.phase, 'done');
  });

  test('polled to failed: a typed failure with the service message', async () => {
    const s = await server((req, res) => {
      if (req.method === 'POST') return json(res, 200, { statusUrl: `${s.origin}/s/1` });
      json(res, 200, { status: 'failed', error: { message: 'No matching distribution found for reqests' } });
    });
    const f = failed((await up({ url: s.origin })).result, 'setup-failed');
    assert.match(f.message, /setup of text_slugifier\.json failed: No matching distribution found for reqests/);
    assert.equal(f.polls, 1);
  });

  test('a Retry-After on a poll reply is honoured', async () => {
    const s = await server((req, res, i) => {
      if (req.method === 'POST') return json(res, 202, { statusUrl: '/s' });
      if (i === 1) return json(res, 200, { status: 'building' }, { 'retry-after': '1' });
      json(res, 200, { status: 'ready' });
    });
    ok((await up({ url: s.origin, pollIntervalMs: 10 })).result);
    const gap = s.received[2].at - s.received[1].at;
    assert.ok(gap >= 950, `polled again after ${gap} ms`);
  });

  test('the overall setup deadline ends polling with a timeout naming the last status', async () => {
    const s = await server((req, res) =>
      req.method === 'POST' ? json(res, 202, { statusUrl: '/s' }) : json(res, 200, { status: 'installing' }),
    );
    const f = failed((await up({ url: s.origin, setupTimeoutMs: 250, pollIntervalMs: 20 })).result, 'timeout');
    assert.match(f.message, /did not finish within 0\.25 s \(last status: installing\)/);
    assert.ok(f.polls >= 1, JSON.stringify(f));
  });

  test('a poll 5xx is retried; a status reply without "status" is a bad reply', async () => {
    const s = await server((req, res, i) => {
      if (req.method === 'POST') return json(res, 202, { statusUrl: '/s' });
      if (i === 1) return json(res, 503, {});
      if (i === 2) return json(res, 200, { status: 'ready' });
      json(res, 200, { state: 'ready' });
    });
    ok((await up({ url: s.origin })).result);
    failed((await up({ url: s.origin })).result, 'bad-reply');
  });

  test('a statusUrl on another origin is polled without the token', async () => {
    const other = await server((_req, res) => json(res, 200, { status: 'ready' }));
    const s = await server((_req, res) => json(res, 202, { statusUrl: `${other.origin}/status` }));
    const { result, logs } = await up({ url: s.origin });
    ok(result);
    assert.equal(other.received.length, 1);
    assert.equal(other.received[0].headers.authorization, undefined);
    assert.ok(logs.some((l) => /another origin/.test(l)));
  });

  test('an insecure statusUrl is not followed', async () => {
    const seenSockets = watchSockets();
    const s = await server((_req, res) => json(res, 202, { statusUrl: 'http://status.example.com/s' }));
    const f = failed((await up({ url: s.origin })).result, 'bad-reply');
    assert.match(f.message, /plain HTTP to status\.example\.com/);
    assert.equal(s.received.length, 1);
    assert.deepEqual(seenSockets.stop(), { sockets: 1, connects: 1 }, 'only the one connection to the loopback server');
  });
});

describe('upload: HTTP failures and retries', () => {
  for (const status of [401, 403]) {
    test(`${status}: an auth failure asking for a token, not retried`, async () => {
      const s = await server((_req, res) => json(res, status, { error: `token ${TOKEN} is not valid` }));
      const f = failed((await up({ url: s.origin })).result, 'auth');
      assert.equal(f.httpStatus, status);
      assert.equal(f.attempts, 1);
      assert.match(f.message, /refused the upload token .*Set a valid upload token/);
      assert.match(f.message, /token \[token\] is not valid/, 'a token echoed by the service is redacted');
    });
  }

  test('413: the file is too large, with its size', async () => {
    const s = await server((_req, res) => res.writeHead(413).end());
    const f = failed((await up({ url: s.origin })).result, 'too-large');
    assert.match(f.message, /too large for the service \(753 B; HTTP 413\)/);
    assert.equal(f.attempts, 1);
  });

  test('429 with Retry-After (seconds) then success: waits as asked', async () => {
    const s = await server((_req, res, i) =>
      i === 0 ? json(res, 429, { message: 'slow down' }, { 'retry-after': '1' }) : json(res, 200, {}),
    );
    const { result, progress } = await up({ url: s.origin });
    const r = ok(result);
    assert.equal(r.attempts, 2);
    const gap = s.received[1].at - s.received[0].at;
    assert.ok(gap >= 950, `retried after ${gap} ms`);
    assert.ok(
      progress.some((p) =>
        /limiting uploads \(HTTP 429: slow down\); retrying in 1 s \(attempt 2 of 5\)/.test(p.message),
      ),
    );
    assert.ok(
      parseMultipart(s.received[1].body, s.received[1].headers['content-type'])[0].data.equals(GOOD),
      'the retry sends the same bytes',
    );
  });

  test('500 then success (exponential backoff)', async () => {
    const s = await server((_req, res, i) => (i === 0 ? json(res, 500, {}) : json(res, 200, {})));
    const r = ok((await up({ url: s.origin })).result);
    assert.equal(r.attempts, 2);
  });

  test('5xx every time: gives up after the bounded retries', async () => {
    const s = await server((_req, res) => json(res, 502, { message: 'bad gateway' }));
    const f = failed((await up({ url: s.origin, maxRetries: 2, retryBaseMs: 5 })).result, 'server');
    assert.equal(f.attempts, 3);
    assert.equal(s.received.length, 3);
    assert.match(f.message, /HTTP 502: bad gateway\); gave up after 3 attempts/);
  });

  test('a Retry-After beyond the cap (HTTP date) ends the upload at once', async () => {
    // HTTP dates have whole seconds
    const later = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_601_000).toUTCString();
    const s = await server((_req, res) => json(res, 429, {}, { 'retry-after': later }));
    const f = failed((await up({ url: s.origin })).result, 'rate-limited');
    assert.equal(f.attempts, 1);
    assert.ok(f.retryAfterMs! > 3_500_000);
    assert.match(f.message, /asks to retry in 60 min( [12] s)?; try again later\./);
  });

  test('a server that never answers: timeout', async () => {
    const s = await server(() => undefined);
    const f = failed((await up({ url: s.origin, timeoutMs: 300 })).result, 'timeout');
    assert.ok(f.elapsedMs >= 280, String(f.elapsedMs));
    assert.match(f.message, /did not answer the upload within 0\.3 s/);
    assert.equal(s.received.length, 1, 'not retried: the service may have the file');
  });

  test('a server that sends headers but never finishes the body: timeout', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"statusUrl":');
    });
    failed((await up({ url: s.origin, timeoutMs: 300 })).result, 'timeout');
  });

  test('nothing listening: a network failure', async () => {
    const s = await startServer(() => undefined);
    await s.close();
    const f = failed((await up({ url: s.origin })).result, 'network');
    assert.match(f.message, /ECONNREFUSED/);
  });

  test('a redirect is not followed; another 4xx is a rejection with the service message', async () => {
    const s = await server((_req, res, i) =>
      i === 0
        ? res.writeHead(307, { location: 'https://elsewhere.example/upload?k=1' }).end()
        : json(res, 422, { detail: 'tool_name already taken' }),
    );
    const f = failed((await up({ url: s.origin })).result, 'bad-reply');
    assert.match(f.message, /redirected the upload \(HTTP 307 to https:\/\/elsewhere\.example\/upload\)/);
    assert.equal(s.received.length, 1);
    const g = failed((await up({ url: s.origin })).result, 'rejected');
    assert.match(g.message, /HTTP 422: tool_name already taken/);
  });
});

/** Counts outgoing connections while watching: sockets made by net.connect, and connects undici begins. */
function watchSockets(): { stop(): { sockets: number; connects: number } } {
  const counts = { sockets: 0, connects: 0 };
  const onSocket = (): void => void counts.sockets++;
  const onConnect = (): void => void counts.connects++;
  subscribe('net.client.socket', onSocket);
  subscribe('undici:client:beforeConnect', onConnect);
  return {
    stop: () => {
      unsubscribe('net.client.socket', onSocket);
      unsubscribe('undici:client:beforeConnect', onConnect);
      return counts;
    },
  };
}

describe('upload: URLs', () => {
  test('plain http:// to a non-loopback host is refused before any connection', async () => {
    const sockets = watchSockets();
    let fetched = 0;
    const spy: typeof fetch = async () => {
      fetched++;
      throw new Error('must not be called');
    };
    for (const url of [
      'http://example.com/upload',
      'http://10.0.0.8:8080/u',
      'http://[2001:db8::1]/u',
      'http://127.0.0.1.nip.io/u',
      'http://localhost.example.com/',
      'HTTP://0.0.0.0/',
    ]) {
      const f = failed((await up({ url, fetch: spy })).result, 'insecure-url');
      assert.match(f.message, /Refusing to send the upload token over plain HTTP/);
      assert.equal(f.attempts, 0);
    }
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/u', ''])
      failed((await up({ url, fetch: spy })).result, 'invalid-url');
    assert.equal(fetched, 0);
    assert.deepEqual(sockets.stop(), { sockets: 0, connects: 0 }, 'no connection was attempted');
  });
});

describe('upload: validation', () => {
  test('a file with errors is not sent', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const { result, progress } = await up({ url: s.origin, bytes: BROKEN, filePath: '/t/broken.json' });
    const f = failed(result, 'validation');
    assert.equal(s.received.length, 0);
    assert.ok(f.validation!.errors >= 1);
    assert.ok(f.validation!.diagnostics.some((d) => d.code === 'missing-field'));
    assert.match(f.message, /Not uploaded: the definition has \d+ errors?/);
    assert.deepEqual([...new Set(progress.map((p) => p.phase))], ['validating', 'done']);
  });

  test('a validation that fails to run blocks the upload, forced or not, saying why', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    for (const force of [false, true]) {
      const validate = () => Promise.reject(new Error('the language server is not running'));
      const f = failed((await up({ url: s.origin, validate, force })).result, 'validation');
      assert.equal(
        f.message,
        'Not uploaded: the definition could not be validated (the language server is not running).',
      );
    }
    assert.equal(s.received.length, 0);
  });

  test('… unless forced: then it is sent unchanged', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const r = ok((await up({ url: s.origin, bytes: BROKEN, filePath: '/t/broken.json', force: true })).result);
    assert.equal(r.forced, true);
    assert.ok(parseMultipart(s.received[0].body, s.received[0].headers['content-type'])[0].data.equals(BROKEN));
  });

  test('not a definition, or not UTF-8: blocked as validation failures', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    const f = failed((await up({ url: s.origin, bytes: Buffer.from('{"name": "settings"}') })).result, 'validation');
    assert.match(f.validation!.problems[0], /Not a tool definition/);
    const latin1 = Buffer.from(smartTool({ metadata: { description: 'café' } }), 'latin1');
    const g = failed((await up({ url: s.origin, bytes: latin1 })).result, 'validation');
    assert.match(g.validation!.problems.join(), /not valid UTF-8/);
    assert.equal(s.received.length, 0);
  });
});

describe('upload: the token', () => {
  test('a missing or unusable token fails before any request', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    failed((await up({ url: s.origin, token: '   ' })).result, 'auth');
    const f = failed((await up({ url: s.origin, token: `${TOKEN}\r\nX-Evil: 1` })).result, 'auth');
    assert.match(f.message, /cannot be sent in an HTTP header/);
    assert.equal(s.received.length, 0);
  });

  test('a token echoed where the message is clipped is redacted first: not one character of it shows', async () => {
    const s = await server((_req, res) => json(res, 403, { message: `${'x'.repeat(290)} ${TOKEN}` }));
    const f = failed((await up({ url: s.origin })).result, 'auth');
    assert.ok(!f.message.includes(TOKEN.slice(0, 8)), f.message);
    assert.match(f.message, /x \[token\]\)/);
  });

  test('a service echoing the token everywhere cannot make it appear in any output', async () => {
    const s = await server((req, res, i) => {
      if (req.method === 'POST') return json(res, 202, { statusUrl: `/s/${TOKEN}?t=${TOKEN}`, message: TOKEN });
      if (i === 1) return json(res, 200, { status: 'pending', message: `auth ${req.headers.authorization}` });
      if (i === 2) return json(res, 500, { message: `Bearer ${encodeURIComponent(TOKEN)}` });
      json(res, 200, { status: 'failed', error: `bad ${TOKEN}` });
    });
    const { result, progress, logs } = await up({ url: s.origin });
    const f = failed(result, 'setup-failed');
    assert.match(f.message, /failed: bad \[token\]/);
    assert.ok(progress.some((p) => p.message.includes('auth Bearer [token]')));
    assert.ok(logs.length > 0);
  });
});

describe('upload: cancellation', () => {
  // Each stop is made when the server sees the phase, so what is tested does not depend on the machine's speed.
  test('while a request is in flight', async () => {
    const stop = new AbortController();
    const s = await server(() => stop.abort());
    failed((await up({ url: s.origin, signal: stop.signal })).result, 'cancelled');
    assert.equal(s.received.length, 1);
  });

  test('while waiting to retry', async () => {
    const s = await server((_req, res) => json(res, 503, {}, { 'retry-after': '30' }));
    failed((await up({ url: s.origin, signal: AbortSignal.timeout(200) })).result, 'cancelled');
    assert.equal(s.received.length, 1, 'the 30 s wait was not sat out');
  });

  test('while the service sets up', async () => {
    const stop = new AbortController();
    let polls = 0;
    const s = await server((req, res) => {
      if (req.method === 'POST') return json(res, 202, { statusUrl: '/s' });
      if (++polls === 2) stop.abort(); // the second poll: one has been answered
      json(res, 200, { status: 'pending' });
    });
    const f = failed((await up({ url: s.origin, pollIntervalMs: 50, signal: stop.signal })).result, 'cancelled');
    assert.ok(f.polls >= 1, JSON.stringify(f));
  });

  test('already cancelled: nothing is sent', async () => {
    const s = await server((_req, res) => json(res, 200, {}));
    failed((await up({ url: s.origin, signal: AbortSignal.abort() })).result, 'cancelled');
    assert.equal(s.connections, 0);
  });
});

describe('upload: helpers', () => {
  test('file names are safe on every OS', () => {
    assert.equal(sanitizeFileName('weather_lookup'), 'weather_lookup');
    assert.equal(sanitizeFileName('../../etc/passwd'), '_.._etc_passwd');
    assert.equal(sanitizeFileName('a\r\nContent-Type: x\u0000'), 'a Content-Type_ x_');
    assert.equal(sanitizeFileName('  Grüße  \t tool. '), 'Grüße tool');
    assert.equal(sanitizeFileName('CON'), '_CON');
    assert.equal(sanitizeFileName('...'), 'tool');
    assert.equal(sanitizeFileName('x'.repeat(300)).length, 120);
    assert.equal(uploadFileName(undefined, 'file:///w/my%20tool.JSON'), 'my tool.json');
    assert.equal(uploadFileName('  ', 'C:\\tools\\t.json'), 't.json');
    assert.equal(uploadFileName(undefined, undefined), 'tool.json');
  });

  test('multipart: the bytes survive whatever they contain, on every attempt', async () => {
    // Boundary-like lines, a NUL and bytes that are not UTF-8, after a valid definition (forced: not JSON).
    const bytes = Buffer.concat([GOOD, Buffer.from('\r\n------formdata-undici-0\r\n--\r\n\r\n\u0000\xff"', 'latin1')]);
    let i = 0;
    const s = await server((_req, res) =>
      ++i === 1 ? json(res, 503, {}, { 'retry-after': '0' }) : json(res, 201, {}),
    );
    const r = ok((await up({ url: s.origin, bytes, force: true })).result);
    assert.equal(r.attempts, 2);
    for (const req of s.received) {
      const [part] = parseMultipart(req.body, req.headers['content-type']);
      assert.ok(part.data.equals(bytes));
      assert.equal(part.filename, 'text_slugifier.json');
      assert.equal(req.headers['content-length'], String(req.body.length));
    }
  });
});
