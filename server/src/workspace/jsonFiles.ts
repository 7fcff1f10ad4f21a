/** Where definitions are searched for on disk: the CLI's directories and the server's workspace folders alike. */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { fileKey, inFolder } from '../service/fileKey';

/** Dependencies, build output and virtual environments; hidden folders (`.git`, `.venv`, …) are skipped too. */
const SKIPPED = new Set(['node_modules', 'dist', 'out', 'venv', '__pycache__']);

export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || SKIPPED.has(name);
}

/**
 * The `.json` files under `dir`, depth first, in name order. A folder that cannot be read is given to
 * `onUnreadable` and skipped; the search goes on.
 */
export async function* jsonFilesUnder(dir: string, onUnreadable?: (dir: string) => void): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    onUnreadable?.(dir);
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && !isSkippedFolder(e.name)) yield* jsonFilesUnder(path, onUnreadable);
    else if (e.isFile() && e.name.endsWith('.json')) yield path;
  }
}

/**
 * Whether searching the folders `roots` reaches `uri` (a file, or a folder when `isFolder`): it lies in
 * one of them, with no skipped folder on the way. Files and folders reported by the editor's watcher
 * and file operations are checked here, so that they are taken in exactly where a scan would find them.
 */
export function isSearched(uri: string, roots: readonly string[], isFolder = false): boolean {
  const key = fileKey(uri);
  return roots.some((root) => {
    if (!inFolder(key, root)) return false;
    const segments = key.slice(fileKey(root).replace(/\/?$/, '/').length).split('/');
    const folders = isFolder ? segments : segments.slice(0, -1);
    return !folders.some((name) => isSkippedFolder(decodeURIComponent(name)));
  });
}
