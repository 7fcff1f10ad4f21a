/** The file name an upload's part carries: safe on every OS, named for the tool. */

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
  // The last segment of a path or URI, either separator (this module also runs in a browser: no node:path).
  let own = filePath ? (filePath.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() ?? '') : '';
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
