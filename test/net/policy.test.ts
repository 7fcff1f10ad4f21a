// The engine's one network policy (server/src/engine/net), and the upload and the LLM client agreeing on it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  backoffDelay,
  checkUrl,
  displayUrl,
  isLoopbackHost,
  networkReason,
  oneLine,
  parseRetryAfter,
  readLimited,
  redirectTarget,
  secretRedactor,
  serviceMessage,
} from '../../server/src/engine/net';
import { type ChatError, chatCompletionsUrl } from '../../server/src/engine/llm/chat';
import { checkUploadUrl } from '../../server/src/engine/upload';

const ROLE = { what: 'test URL', sends: 'the secret', credentialsIn: 'use the header' };

/** What the LLM client decides for a base URL: `ok` or the ChatError's kind. */
function llmVerdict(url: string): string {
  try {
    chatCompletionsUrl(url);
    return 'ok';
  } catch (e) {
    return (e as ChatError).kind;
  }
}

function uploadVerdict(url: string): string {
  const r = checkUploadUrl(url);
  return r.ok ? 'ok' : r.kind;
}

describe('net: which URLs may carry a secret', () => {
  const cases: [string, string][] = [
    ['https://example.com/v1', 'ok'],
    ['http://localhost:1/', 'ok'],
    ['http://LOCALHOST:1/', 'ok'],
    ['http://127.0.0.1/', 'ok'],
    ['http://127.255.3.4/', 'ok'],
    ['http://127.1/', 'ok'],
    ['http://0x7f.1/', 'ok'],
    ['http://[::1]:8080/', 'ok'],
    ['http://[0:0:0:0:0:0:0:1]/', 'ok'],
    ['http://[::ffff:127.0.0.1]/', 'ok'],
    // Whether these reach loopback depends on the resolver: refused by both.
    ['http://localhost./', 'insecure-url'],
    ['http://foo.localhost/', 'insecure-url'],
    ['http://localhost.example.com/', 'insecure-url'],
    ['http://127.0.0.1.nip.io/', 'insecure-url'],
    ['http://example.com/', 'insecure-url'],
    ['http://10.0.0.8:8080/', 'insecure-url'],
    ['http://[::2]/', 'insecure-url'],
    ['http://[::ffff:a00:1]/', 'insecure-url'],
    ['HTTP://0.0.0.0/', 'insecure-url'],
    ['ftp://example.com/x', 'invalid-url'],
    ['not a url', 'invalid-url'],
    ['', 'invalid-url'],
    ['https://user:pw@example.com/u', 'invalid-url'],
  ];

  test('the upload and the LLM client give the same answer for every URL', () => {
    for (const [url, expected] of cases) {
      assert.equal(uploadVerdict(url), expected, `upload: ${url}`);
      assert.equal(llmVerdict(url), expected, `llm: ${url}`);
    }
  });

  test('isLoopbackHost reads WHATWG host names', () => {
    for (const h of ['localhost', '127.0.0.1', '127.9.9.9', '[::1]', '[::ffff:7f00:1]'])
      assert.ok(isLoopbackHost(h), h);
    for (const h of ['localhost.', 'foo.localhost', '128.0.0.1', '10.127.0.1', '[::2]', '[::ffff:a00:1]', '0.0.0.0'])
      assert.equal(isLoopbackHost(h), false, h);
  });

  test('refusals name the URL, what would be sent and what to do', () => {
    const insecure = checkUrl('http://example.com/x', ROLE);
    assert.ok(!insecure.ok);
    assert.equal(
      insecure.message,
      'Refusing to send the secret over plain HTTP to example.com: use an https:// URL (http:// is allowed only for loopback hosts: localhost, 127.0.0.0/8, ::1).',
    );
    const credentials = checkUrl('https://me:pw@example.com/', ROLE);
    assert.ok(!credentials.ok);
    assert.equal(credentials.message, 'The test URL must not contain a user name or password: use the header.');
    const invalid = checkUrl('no url?key=SECRET', ROLE);
    assert.ok(!invalid.ok);
    assert.equal(invalid.message, 'The test URL is not a valid absolute URL: "no url".', 'the query is not shown');
  });

  test('relative URLs resolve against a base; the fragment is dropped, the query kept', () => {
    const r = checkUrl('/status/1?x=1#f', ROLE, new URL('https://h.example/upload'));
    assert.ok(r.ok);
    assert.equal(r.url.href, 'https://h.example/status/1?x=1');
    assert.equal(displayUrl('https://u:p@h.example:8443/p?key=1#f'), 'https://h.example:8443/p');
    assert.equal(displayUrl('::'), '(invalid URL)');
  });
});

describe('net: waiting', () => {
  const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
  const h = (o: Record<string, string>): Headers => new Headers(o);

  test('Retry-After as seconds or an HTTP date, retry-after-ms first, at most a year', () => {
    assert.equal(parseRetryAfter(h({ 'retry-after': '120' }), now), 120_000);
    assert.equal(parseRetryAfter(h({ 'retry-after': ' 0 ' }), now), 0);
    assert.equal(parseRetryAfter(h({ 'retry-after': '1.5' }), now), 1500);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'Wed, 21 Oct 2015 07:28:30 GMT' }), now), 30_000);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'Wednesday, 21-Oct-15 07:28:10 GMT' }), now), 10_000);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'Wed Oct 21 07:28:05 2015' }), now) !== undefined, true);
    assert.equal(parseRetryAfter(h({ 'retry-after': 'Tue, 20 Oct 2015 07:28:00 GMT' }), now), 0);
    assert.equal(parseRetryAfter(h({ 'retry-after-ms': '1500', 'retry-after': '9' }), now), 1500);
    assert.equal(parseRetryAfter(h({ 'retry-after': String(10 ** 12) }), now), 365 * 24 * 3600 * 1000);
    for (const bad of ['-3', 'soon', '', '1e3'])
      assert.equal(parseRetryAfter(h({ 'retry-after': bad }), now), undefined, bad);
    assert.equal(parseRetryAfter(h({}), now), undefined);
  });

  test('backoff doubles, is capped, and jitters within its upper half', () => {
    assert.equal(
      backoffDelay(0, 1000, 60_000, () => 0),
      500,
    );
    assert.equal(
      backoffDelay(0, 1000, 60_000, () => 1),
      1000,
    );
    assert.equal(
      backoffDelay(3, 1000, 60_000, () => 1),
      8000,
    );
    assert.equal(
      backoffDelay(20, 1000, 60_000, () => 1),
      60_000,
    );
    for (const r of [0, 0.25, 0.5, 0.999]) {
      const d = backoffDelay(2, 1000, 60_000, () => r);
      assert.ok(d >= 2000 && d <= 4000, String(d));
    }
  });
});

describe('net: what a reply says', () => {
  test("the service's own message, from JSON or a short text", () => {
    const table: [string, string, string | undefined][] = [
      ['{"error":{"message":"Incorrect API key"}}', 'application/json', 'Incorrect API key'],
      ['{"error":"quota exceeded"}', 'application/json', 'quota exceeded'],
      ['{"message":"too big","error":{"code":1}}', 'application/json', 'too big'],
      ['{"detail":[{"loc":["body"],"msg":"bad"}]}', 'application/json', '[{"loc":["body"],"msg":"bad"}]'],
      ['{"title":"Bad Request"}', 'application/problem+json', 'Bad Request'],
      ['{"status":"ready"}', 'application/json', undefined],
      ['{"error":"  "}', 'application/json', undefined],
      ['Service\r\n unavailable\u0000', 'text/plain', 'Service unavailable'],
      ['<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html', '502 Bad Gateway'],
      ['plain words', '', 'plain words'],
      ['\u0089PNG', 'image/png', undefined],
      ['{"broken json', 'application/json', undefined],
      ['', 'text/plain', undefined],
    ];
    for (const [body, type, expected] of table) assert.equal(serviceMessage(body, type), expected, body);
    assert.equal(serviceMessage(`{"message":"${'x'.repeat(1000)}"}`)?.length, 300, 'clipped');
  });

  test('oneLine flattens control characters and line separators and clips with an ellipsis', () => {
    assert.equal(oneLine('a\u2028b\r\n\tc\u0007'), 'a b c');
    assert.equal(oneLine('abcdef', 4), 'abc…');
  });

  test("a redirect's target is shown without credentials or query", () => {
    const base = new URL('https://api.example/v1');
    const r = (location?: string): { headers: Headers } => ({
      headers: new Headers(location === undefined ? {} : { location }),
    });
    assert.equal(redirectTarget(r('https://u:p@x.example/y?k=1'), base), ' to https://x.example/y');
    assert.equal(redirectTarget(r('/z'), base), ' to https://api.example/z');
    assert.equal(redirectTarget(r('http://[bad'), base), '');
    assert.equal(redirectTarget(r(), base), '');
  });

  test('a network failure in the words of the system', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    });
    assert.equal(networkReason(refused), 'connect ECONNREFUSED 127.0.0.1:9');
    const coded = new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'X' }) });
    assert.equal(networkReason(coded), 'X (socket hang up)');
    assert.equal(networkReason(new Error('plain')), 'plain');
    assert.equal(networkReason('a string'), 'a string');
  });
});

describe('net: bounded bodies, from a real server', () => {
  let server: Server;
  let origin: string;
  let sent = 0;
  before(async () => {
    server = createServer((_req, res) => {
      // An endless body: only what readLimited asks for may be read.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const write = (): void => {
        while (sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 64 * 1024 * 1024) res.once('drain', write);
        else res.end();
      };
      write();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test('readLimited reads at most the limit and stops the download', async () => {
    let chunks = 0;
    const text = await readLimited(await fetch(origin), 100_000, () => chunks++);
    assert.equal(text.length, 100_000);
    assert.ok(chunks > 0);
    assert.ok(sent < 64 * 1024 * 1024, 'the rest of the body was never sent');
  });

  test('a multi-byte character cut at the limit becomes one replacement character', async () => {
    const bytes = new TextEncoder().encode('aé'); // 3 bytes
    const text = await readLimited(new Response(bytes), 2);
    assert.equal(text, 'a\ufffd');
    assert.equal(await readLimited(new Response(bytes), 3), 'aé');
    assert.equal(await readLimited(new Response(null), 3), '');
  });
});

describe('net: secrets are never shown', () => {
  const TOKEN = 'tdk_live_Zx9Q2wE7rT4yU1iO-secret';

  test('the secret as given, trimmed and URL-encoded, and any Bearer credential', () => {
    const redact = secretRedactor(` ${TOKEN}/+ `, 'token');
    assert.equal(
      redact(`a:${TOKEN}/+,b:${encodeURIComponent(`${TOKEN}/+`)},c: ${TOKEN}/+ .`),
      'a:[token],b:[token],c:[token].',
    );
    assert.equal(redact('Authorization: Bearer other-credential'), 'Authorization: Bearer [token]');
  });

  test('short or missing secrets do not blank out words', () => {
    assert.equal(secretRedactor('ab', 'API key')('ab cab'), 'ab cab');
    assert.equal(secretRedactor(undefined, 'API key')('nothing to hide'), 'nothing to hide');
  });
});
