// A real HTTP server on 127.0.0.1 for the upload tests, and a strict multipart/form-data parser.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly at: number;
}

/** Answers request number `index` (0-based, over the server's life); may leave `res` unanswered. */
export type Handler = (req: Received, res: ServerResponse, index: number) => void;

export interface TestServer {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly received: Received[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
      };
      received.push(r);
      handler(r, res, received.length - 1);
    });
  });
  const state: TestServer = {
    origin: '',
    received,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  (state as { origin: string }).origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export interface Part {
  readonly headers: Record<string, string>;
  readonly name: string | undefined;
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

/** Parses a multipart/form-data body (RFC 7578) exactly: throws on anything malformed. */
export function parseMultipart(body: Buffer, contentType: string | undefined): Part[] {
  const m = /^multipart\/form-data;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  if (!m) throw new Error(`not multipart/form-data: ${contentType}`);
  const boundary = m[1] ?? m[2];
  const delimiter = Buffer.from(`--${boundary}`);
  const next = Buffer.from(`\r\n--${boundary}`);
  if (!body.subarray(0, delimiter.length).equals(delimiter)) throw new Error('body does not start with the boundary');
  const parts: Part[] = [];
  let pos = delimiter.length;
  for (;;) {
    const after = body.subarray(pos, pos + 2).toString('latin1');
    if (after === '--') {
      const rest = body.subarray(pos + 2).toString('latin1');
      if (rest !== '\r\n' && rest !== '') throw new Error(`junk after the closing boundary: ${JSON.stringify(rest)}`);
      return parts;
    }
    if (after !== '\r\n') throw new Error('boundary not followed by CRLF');
    pos += 2;
    const headerEnd = body.indexOf('\r\n\r\n', pos);
    if (headerEnd < 0) throw new Error('part headers never end');
    const headers: Record<string, string> = {};
    for (const line of body.subarray(pos, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`bad part header line: ${JSON.stringify(line)}`);
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const dataStart = headerEnd + 4;
    const dataEnd = body.indexOf(next, dataStart);
    if (dataEnd < 0) throw new Error('part never ends');
    const disposition = headers['content-disposition'] ?? '';
    if (!/^form-data(;|$)/i.test(disposition)) throw new Error(`bad Content-Disposition: ${disposition}`);
    parts.push({
      headers,
      name: /;\s*name="([^"]*)"/i.exec(disposition)?.[1],
      filename: /;\s*filename="([^"]*)"/i.exec(disposition)?.[1],
      contentType: headers['content-type'],
      data: body.subarray(dataStart, dataEnd),
    });
    pos = dataEnd + next.length;
  }
}
