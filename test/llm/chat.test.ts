import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  ChatError,
  chatCompletionsUrl,
  requestParameters,
  resolveModel,
  streamChat,
  type ChatOptions,
} from '../../server/src/engine/llm/chat';
import { chunk, sleep, startChatServer, startStream, type ChatServer } from './chatServer';

const KEY = 'sk-test-SECRET-0123456789abcdef';

async function rejection(p: Promise<unknown>): Promise<ChatError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ChatError, `expected a ChatError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the promise to reject');
}

describe('streamChat against a loopback chat-completions server', () => {
  let server: ChatServer;
  const logs: string[] = [];
  const errors: ChatError[] = [];
  const opts = (extra: Partial<ChatOptions> = {}): ChatOptions => ({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    model: 'm',
    messages: [{ role: 'user', content: 'Say hi' }],
    timeoutMs: 2000,
    log: (l) => logs.push(l),
    ...extra,
  });
  const fail = async (p: Promise<unknown>): Promise<ChatError> => {
    const e = await rejection(p);
    errors.push(e);
    return e;
  };

  before(async () => {
    server = await startChatServer();
  });
  after(async () => {
    await server.close();
    // The key never appears in any error or log line of the whole suite.
    for (const e of errors) {
      assert.ok(!`${e.message} ${e.serverMessage ?? ''} ${e.stack ?? ''}`.includes(KEY), `key leaked in: ${e.message}`);
      assert.ok(!JSON.stringify(e).includes(KEY));
    }
    assert.ok(logs.length > 0);
    for (const l of logs) assert.ok(!l.includes(KEY), `key leaked in log: ${l}`);
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('sends model, messages, parameters, stream: true and the bearer key, and streams the deltas as they arrive', async () => {
    let firstDeltaSeen!: () => void;
    const firstDelta = new Promise<void>((r) => (firstDeltaSeen = r));
    server.handle(async (_req, res) => {
      startStream(res);
      res.write(': keep-alive\r\n\r\n');
      res.write(chunk({ role: 'assistant', content: '' }));
      res.write(chunk({ content: 'Hel' }));
      await firstDelta; // the client has the first piece before the rest is even sent
      res.write(chunk({ content: 'lo, ' }).replace(/\n/g, '\r\n'));
      await sleep(30);
      // "wörld 🌍" with the ö and the globe split across writes
      const bytes = Buffer.from(chunk({ content: 'wörld 🌍' }), 'utf8');
      const o = bytes.indexOf(Buffer.from('ö')) + 1;
      const g = bytes.indexOf(Buffer.from('🌍')) + 2;
      res.write(bytes.subarray(0, o));
      await sleep(20);
      res.write(bytes.subarray(o, g));
      await sleep(20);
      res.write(bytes.subarray(g));
      res.write(chunk({}, 'stop'));
      res.write(
        `data: ${JSON.stringify({ id: 'x', choices: [], usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
    const deltas: string[] = [];
    const result = await streamChat(
      opts({
        model: { modelIds: ['gpt-9', 'gpt-4', 'claude'], map: { claude: 'local-claude', 'gpt-4': 'local-gpt' } },
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Grüße {{x}}' },
        ],
        parameters: { temperature: 0.2, max_tokens: 64, top_p: 0.9, frequency_penalty: 0.1, presence_penalty: -0.5 },
      }),
      (d) => {
        deltas.push(d);
        if (d === 'Hel') firstDeltaSeen();
      },
    );
    assert.deepEqual(deltas.slice(0, 2), ['Hel', 'lo, ']);
    assert.equal(deltas.join(''), 'Hello, wörld 🌍');
    assert.deepEqual(result, {
      text: 'Hello, wörld 🌍',
      finishReason: 'stop',
      usage: { prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 },
      model: 'local-gpt',
      modelId: 'gpt-4',
      responseModel: 'served-model',
      complete: true,
    });
    assert.equal(server.requests.length, 1);
    const req = server.requests[0];
    assert.equal(req.method, 'POST');
    assert.equal(req.url, '/v1/chat/completions');
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    assert.match(String(req.headers['content-type']), /^application\/json/);
    assert.deepEqual(req.body, {
      model: 'local-gpt',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Grüße {{x}}' },
      ],
      temperature: 0.2,
      max_tokens: 64,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.5,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends no Authorization header without a key, and can leave out stream_options and rename max_tokens', async () => {
    server.handle((_req, res) => {
      startStream(res);
      res.end(chunk({ content: 'ok' }, 'length') + 'data: [DONE]\n\n');
    });
    const r = await streamChat(
      opts({ apiKey: '', includeUsage: false, maxTokensField: 'max_completion_tokens', parameters: { max_tokens: 5 } }),
    );
    assert.equal(r.finishReason, 'length');
    assert.equal(server.requests[0].headers.authorization, undefined);
    const body = server.requests[0].body as Record<string, unknown>;
    assert.deepEqual(body.max_completion_tokens, 5);
    assert.equal('stream_options' in body, false);
  });

  it('accepts a server that ignores stream: true and answers with one JSON completion', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          model: 'x',
          choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
          usage: { total_tokens: 3 },
        }),
      );
    });
    const deltas: string[] = [];
    const r = await streamChat(opts(), (d) => deltas.push(d));
    assert.deepEqual([r.text, r.finishReason, r.usage?.total_tokens, deltas], ['whole', 'stop', 3, ['whole']]);
  });

  it('reports a stream that ends without [DONE] or finish_reason as incomplete', async () => {
    server.handle((_req, res) => {
      startStream(res);
      res.end(chunk({ content: 'partial' }));
    });
    const r = await streamChat(opts());
    assert.deepEqual([r.text, r.complete, r.finishReason], ['partial', false, null]);
  });

  it('401: an auth error with the server message, a hint, and the echoed key redacted', async () => {
    server.handle((req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      const sent = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      res.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${sent || 'none'}.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
    const e = await fail(streamChat(opts()));
    assert.equal(e.kind, 'auth');
    assert.equal(e.status, 401);
    assert.equal(e.serverMessage, 'Incorrect API key provided: [API key].');
    assert.match(e.message, /401 Unauthorized\): Incorrect API key provided: \[API key\]\. Check the API key/);
    const noKey = await fail(streamChat(opts({ apiKey: undefined })));
    assert.match(noKey.message, /No API key is set/);
  });

  it('a key echoed where the message is clipped is redacted first: not one character of it shows', async () => {
    const long = `${'x'.repeat(290)} ${KEY}`;
    server.handle((_req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: long } }));
    });
    const e = await fail(streamChat(opts()));
    for (const text of [e.message, e.serverMessage ?? '']) assert.ok(!text.includes(KEY.slice(0, 8)), text);
    assert.match(e.serverMessage ?? '', /x \[API key\]$/);
    server.handle((_req, res) => {
      startStream(res);
      res.end(`event: error\ndata: ${long}\n\n`);
    });
    const mid = await fail(streamChat(opts()));
    assert.equal(mid.kind, 'server');
    assert.ok(!mid.message.includes(KEY.slice(0, 8)), mid.message);
  });

  it('404: names the model and the URL', async () => {
    server.handle((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'The model `m` does not exist' } }));
    });
    const e = await fail(streamChat(opts()));
    assert.equal(e.kind, 'model-not-found');
    assert.match(
      e.message,
      /404 Not Found for model "m" at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: The model `m` does not exist/,
    );
  });

  it('429: rate limit with Retry-After in seconds or as a date', async () => {
    server.handle((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '7' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached' } }));
    });
    const e = await fail(streamChat(opts()));
    assert.deepEqual(
      [e.kind, e.status, e.retryAfterMs, e.serverMessage],
      ['rate-limit', 429, 7000, 'Rate limit reached'],
    );
    assert.match(e.message, /Retry after 7 s/);
  });

  it('500 / 503 and other 4xx: typed errors with the server text', async () => {
    server.handle((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>Internal   error</h1></body></html>');
    });
    const e = await fail(streamChat(opts()));
    assert.deepEqual([e.kind, e.status, e.serverMessage], ['server', 500, 'Internal error']);
    server.handle((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ detail: 'temperature must be <= 2' }));
    });
    const bad = await fail(streamChat(opts()));
    assert.deepEqual([bad.kind, bad.status], ['http', 400]);
    assert.match(bad.message, /400 Bad Request\): temperature must be <= 2/);
  });

  it('does not follow redirects (the prompt and key go only to the configured URL)', async () => {
    server.handle((req, res) => {
      if (req.url === '/v1/chat/completions')
        res.writeHead(307, { Location: 'http://example.com/v1/chat/completions?token=abc' }).end();
      else res.writeHead(500).end();
    });
    const e = await fail(streamChat(opts()));
    assert.deepEqual([e.kind, e.status], ['http', 307]);
    assert.match(
      e.message,
      /redirected the request \(307\) to http:\/\/example\.com\/v1\/chat\/completions; redirects are not followed/,
    );
    assert.equal(server.requests.length, 1);
  });

  it('an error event in the middle of the stream', async () => {
    server.handle((_req, res) => {
      startStream(res);
      res.write(chunk({ content: 'so far' }));
      res.end(`data: ${JSON.stringify({ error: { message: 'overloaded' } })}\n\n`);
    });
    const e = await fail(streamChat(opts()));
    assert.deepEqual([e.kind, e.serverMessage, e.partialText], ['server', 'overloaded', 'so far']);
  });

  it('a stream event that is not JSON is a protocol error', async () => {
    server.handle((_req, res) => {
      startStream(res);
      res.end('data: hello\n\n');
    });
    const e = await fail(streamChat(opts()));
    assert.equal(e.kind, 'protocol');
  });

  it('times out on a server that never answers, and on a stream that stalls', async () => {
    server.handle(() => undefined); // accepts the request, never answers
    const e = await fail(streamChat(opts({ timeoutMs: 300 })));
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /sent nothing for 0\.3 s while waiting for the response/);
    await server.requests[0].closed; // the connection is released

    server.handle((_req, res) => {
      startStream(res);
      res.write(chunk({ content: 'first' }));
    });
    const stalled = await fail(streamChat(opts({ timeoutMs: 300 })));
    assert.deepEqual([stalled.kind, stalled.partialText], ['timeout', 'first']);
    await server.requests[1].closed;
  });

  it('keeps going while the server keeps streaming (the timeout is for inactivity), unless a total timeout is set', async () => {
    server.handle(async (_req, res) => {
      startStream(res);
      for (let i = 0; i < 6; i++) {
        res.write(chunk({ content: String(i) }));
        await sleep(60);
      }
      res.end('data: [DONE]\n\n');
    });
    const r = await streamChat(opts({ timeoutMs: 500 }));
    assert.equal(r.text, '012345', 'the whole stream (longer than the timeout) arrived');
    const e = await fail(streamChat(opts({ timeoutMs: 500, totalTimeoutMs: 150 })));
    assert.equal(e.kind, 'timeout');
    assert.match(e.message, /longer than 0\.15 s in all/);
    assert.ok(e.partialText !== '012345' && '012345'.startsWith(e.partialText));
  });

  it('cancellation mid-stream rejects with the partial text and closes the connection', async () => {
    server.handle(async (req, res) => {
      startStream(res);
      res.write(chunk({ content: 'one ' }));
      await sleep(50);
      res.write(chunk({ content: 'two ' }));
      await req.closed; // never sends the rest
    });
    const ac = new AbortController();
    const deltas: string[] = [];
    const e = await fail(
      streamChat(opts({ signal: ac.signal }), (d) => {
        deltas.push(d);
        if (d === 'two ') setTimeout(() => ac.abort(), 20);
      }),
    );
    assert.deepEqual([e.kind, e.partialText, deltas], ['cancelled', 'one two ', ['one ', 'two ']]);
    await server.requests[0].closed;
  });

  it('an already aborted signal, an unmapped model and a non-loopback http URL are refused before connecting', async () => {
    let calls = 0;
    const spy = (async () => {
      calls++;
      throw new Error('must not be called');
    }) as unknown as typeof fetch;
    const ac = new AbortController();
    ac.abort();
    assert.equal((await fail(streamChat(opts({ signal: ac.signal, fetch: spy })))).kind, 'cancelled');
    const noModel = await fail(
      streamChat(
        opts({
          fetch: spy,
          model: { modelIds: ['gpt-4', 'claude'], map: { 'gpt-3.5': 'x' }, setting: 'tooldef.llm.models' },
        }),
      ),
    );
    assert.equal(noModel.kind, 'no-model');
    assert.match(noModel.message, /"gpt-4", "claude".*"tooldef\.llm\.models"/);
    for (const baseUrl of [
      'http://example.com/v1',
      'http://10.0.0.1/v1',
      'http://127.example.com/v1',
      'http://localhost.example.com/v1',
    ]) {
      const e = await fail(streamChat(opts({ fetch: spy, baseUrl })));
      assert.equal(e.kind, 'insecure-url', baseUrl);
      assert.match(e.message, /https:\/\//);
    }
    for (const baseUrl of ['ftp://example.com', 'not a url', `https://user:${KEY}@example.com/v1`]) {
      assert.equal((await fail(streamChat(opts({ fetch: spy, baseUrl })))).kind, 'invalid-url', baseUrl);
    }
    const badKey = await fail(streamChat(opts({ fetch: spy, apiKey: `${KEY}\nX-Evil: 1` })));
    assert.equal(badKey.kind, 'auth');
    assert.equal(calls, 0);
    assert.equal(server.requests.length, 0);
  });

  it('a port where nothing listens is a network error', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const e = await fail(streamChat(opts({ baseUrl: `http://127.0.0.1:${port}/v1` })));
    assert.equal(e.kind, 'network');
    assert.match(e.message, /ECONNREFUSED/);
  });
});

describe('chat helpers', () => {
  it('resolveModel picks the first mapped id of model_version, then "*"', () => {
    assert.deepEqual(resolveModel(['a', 'b', 'c'], { c: 'C', b: 'B' }), { id: 'b', model: 'B' });
    assert.deepEqual(resolveModel(['a'], new Map([['*', 'any']])), { id: 'a', model: 'any' });
    assert.deepEqual(
      resolveModel(['a', 'b'], { a: '  ', b: 'B' }),
      { id: 'b', model: 'B' },
      'blank names do not count',
    );
    assert.throws(
      () => resolveModel([], {}),
      (e: ChatError) => e.kind === 'no-model' && /lists no model_version ids.*tooldef\.llm\.modelMap/.test(e.message),
    );
    assert.throws(
      () => resolveModel(['constructor'], {}),
      (e: ChatError) => e.kind === 'no-model',
    );
  });

  it('requestParameters keeps the five sampling parameters that are finite numbers', () => {
    assert.deepEqual(
      requestParameters({
        temperature: 0,
        max_tokens: 10,
        top_p: NaN,
        presence_penalty: 1,
        ...({ seed: 1 } as object),
      }),
      { temperature: 0, max_tokens: 10, presence_penalty: 1 },
    );
  });

  it('chatCompletionsUrl appends the path and keeps the query', () => {
    assert.equal(chatCompletionsUrl('https://api.example.com/v1/').href, 'https://api.example.com/v1/chat/completions');
    assert.equal(
      chatCompletionsUrl('https://h/openai/deployments/x?api-version=1').href,
      'https://h/openai/deployments/x/chat/completions?api-version=1',
    );
    assert.equal(chatCompletionsUrl('http://[::1]:8080/v1').href, 'http://[::1]:8080/v1/chat/completions');
  });
});
