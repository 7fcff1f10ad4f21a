/** The multipart/form-data body of an upload, built by hand so the file's bytes go out untouched. */
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';

export interface MultipartBody {
  readonly body: Buffer;
  /** The Content-Type header value, with the boundary. */
  readonly contentType: string;
}

/**
 * One file part: `Content-Disposition: form-data; name="<field>"; filename="<fileName>"` with the given
 * content type, the bytes verbatim (a BOM, CRLF line ends, anything). The file name is written as
 * UTF-8 with `"`, CR and LF percent-encoded, as browsers do (RFC 7578 §4.2, WHATWG).
 */
export function buildMultipart(field: string, fileName: string, contentType: string, bytes: Uint8Array): MultipartBody {
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let boundary: string;
  do boundary = `----tooldef-${randomBytes(12).toString('hex')}`;
  while (content.includes(boundary));
  const escape = (s: string): string => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${escape(field)}"; filename="${escape(fileName)}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    'utf8',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  return { body: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
const MAX_NAME = 120;

/**
 * A tool name made safe as a file name on every OS: no path separators, control characters or
 * `<>:"/\|?*`, no leading/trailing dots or spaces, no Windows device names, at most 120 characters;
 * `tool` when nothing is left. Spaces and non-ASCII letters are kept (NFC).
 */
export function sanitizeFileName(name: string): string {
  let s = name
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cc}<>:"/\\|?*]/gu, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const chars = Array.from(s);
  if (chars.length > MAX_NAME)
    s = chars
      .slice(0, MAX_NAME)
      .join('')
      .replace(/[\s.]+$/, '');
  if (WINDOWS_RESERVED.test(s)) s = `_${s}`;
  return s || 'tool';
}

/**
 * The part's file name: `<tool name>.json` (`tool_name` of a smart tool, `prompt_name` of an LLM
 * tool), else the file's own name; always sanitised and ending in `.json`.
 */
export function uploadFileName(toolName: string | undefined, filePath: string | undefined): string {
  const name = toolName?.trim();
  if (name) return `${sanitizeFileName(name)}.json`;
  let own = filePath ? basename(filePath.replace(/\\/g, '/')) : '';
  if (filePath && /^[a-z][a-z0-9+.-]+:\/\//i.test(filePath)) {
    try {
      own = decodeURIComponent(own); // a file:// or vscode-remote:// URI
    } catch {
      // keep it encoded
    }
  }
  own = own.replace(/\.json$/i, '');
  return `${sanitizeFileName(own || 'tool')}.json`;
}
