import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseDecoder, SseParser, type SseEvent } from '../../server/src/engine/llm/sse';

/**
 * A recorded chat-completions stream with everything a parser can trip over: a BOM, comments,
 * CRLF / LF / CR line ends, a multi-line `data`, an `event:` and `id:` field, a field without a
 * value, 2-, 3- and 4-byte UTF-8 characters, and a final event with no blank line after it.
 */
const RECORDED = [
  '\uFEFF: keep-alive comment\r\n',
  '\r\n',
  'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\r\n\r\n',
  'id: 7\n',
  'data: {"choices":[{"index":0,"delta":{"content":"Grüße "}}]}\n\n',
  ':another comment\n',
  'data:{"choices":[{"index":0,"delta":{"content":"日本語 "}}]}\r\r',
  'event: note\r\n',
  'data: line one\r\n',
  'data\r\n',
  'data:  two spaces\r\n',
  '\r\n',
  'data: {"choices":[{"index":0,"delta":{"content":"🎉 ok"},"finish_reason":"stop"}]}\n\n',
  'retry: 100\n',
  'data: [DONE]',
].join('');

const EXPECTED: SseEvent[] = [
  { event: 'message', data: '{"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}', id: undefined },
  { event: 'message', data: '{"choices":[{"index":0,"delta":{"content":"Grüße "}}]}', id: '7' },
  { event: 'message', data: '{"choices":[{"index":0,"delta":{"content":"日本語 "}}]}', id: '7' },
  { event: 'note', data: 'line one\n\n two spaces', id: '7' },
  { event: 'message', data: '{"choices":[{"index":0,"delta":{"content":"🎉 ok"},"finish_reason":"stop"}]}', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

function decodeChunks(chunks: Uint8Array[]): SseEvent[] {
  const d = new SseDecoder();
  const out: SseEvent[] = [];
  for (const c of chunks) out.push(...d.push(c));
  out.push(...d.end());
  return out;
}

describe('SSE parsing', () => {
  const bytes = new TextEncoder().encode(RECORDED);

  it('parses the recorded stream in one piece', () => {
    assert.deepEqual(decodeChunks([bytes]), EXPECTED);
  });

  it('gives the same events for a split at every byte position (inside CRLFs and multi-byte characters too)', () => {
    assert.ok(bytes.length > RECORDED.length, 'the recording holds multi-byte characters');
    for (let i = 0; i <= bytes.length; i++) {
      assert.deepEqual(decodeChunks([bytes.subarray(0, i), bytes.subarray(i)]), EXPECTED, `split at byte ${i}`);
    }
  });

  it('gives the same events for every pair of split positions, and byte by byte', () => {
    for (let i = 0; i <= bytes.length; i += 1) {
      for (let j = i; j <= bytes.length; j += 3) {
        const got = decodeChunks([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
        if (JSON.stringify(got) !== JSON.stringify(EXPECTED))
          assert.deepEqual(got, EXPECTED, `splits at ${i} and ${j}`);
      }
    }
    assert.deepEqual(decodeChunks([...bytes].map((b) => Uint8Array.of(b))), EXPECTED);
  });

  it('treats a CRLF split across two pushes as one line end (no early dispatch of a multi-line event)', () => {
    const p = new SseParser();
    assert.deepEqual(p.push('data: a\r'), []);
    assert.deepEqual(p.push('\ndata: b\r'), []);
    assert.deepEqual(p.push('\n\r'), [{ event: 'message', data: 'a\nb', id: undefined }]);
    assert.deepEqual(p.push('\n'), [], 'the LF of the final CRLF is not an extra blank line');
    assert.deepEqual(p.push('data: c\n\n'), [{ event: 'message', data: 'c', id: undefined }]);
  });

  it('ignores comments and events without data, resets the event type after each event', () => {
    const p = new SseParser();
    assert.deepEqual(p.push(': ping\n\nevent: x\n\ndata: y\n\n'), [{ event: 'message', data: 'y', id: undefined }]);
  });

  it('drops nothing at the end: an unterminated last line and a pending event are dispatched by end()', () => {
    const p = new SseParser();
    assert.deepEqual(p.push('data: {"a":1}\ndata: [DO'), []);
    assert.deepEqual(p.push('NE]'), []);
    assert.deepEqual(p.end(), [{ event: 'message', data: '{"a":1}\n[DONE]', id: undefined }]);
  });
});
