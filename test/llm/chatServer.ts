/**
 * A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol for the tests: each test
 * installs a handler; every request is recorded with its parsed JSON body and headers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  /** The parsed JSON body (a string when it is not JSON). */
  readonly body: Record<string, unknown> | string;
  /** Resolves when the client goes away (connection closed or request aborted). */
  readonly closed: Promise<void>;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface ChatServer {
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startChatServer(): Promise<ChatServer> {
  let handler: Handler = (_req, res) => {
    res.writeHead(500).end('no handler');
  };
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    open.add(res);
    const closed = new Promise<void>((resolve) =>
      res.on('close', () => {
        open.delete(res);
        resolve();
      }),
    );
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: Record<string, unknown> | string = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the text
      }
      const rec: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, closed };
      requests.push(rec);
      Promise.resolve(handler(rec, res)).catch((e) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    handle(h) {
      handler = h;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One `data:` event of a streamed chat completion. */
export function chunk(
  delta: { content?: string; role?: string },
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'served-model', choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
}

export function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  res.flushHeaders();
}
