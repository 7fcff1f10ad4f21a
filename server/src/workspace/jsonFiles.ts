/** The search of a folder on disk for definitions: the CLI's directories and the server's workspace folders alike. */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isSkippedFolder } from './searched';

/**
 * The `.json` files under `dir`, depth first, in name order. Symbolic links are followed, each folder
 * searched once (a link back up the tree is no loop); sockets, devices and pipes are passed over. A
 * folder that cannot be read, or a link whose target is gone, is given to `onUnreadable` and skipped;
 * the search goes on.
 */
export function jsonFilesUnder(dir: string, onUnreadable?: (path: string) => void): AsyncGenerator<string> {
  return walk(dir, onUnreadable, new Set());
}

async function* walk(
  dir: string,
  onUnreadable: ((path: string) => void) | undefined,
  searched: Set<string>,
): AsyncGenerator<string> {
  let entries;
  try {
    const real = await fs.realpath(dir);
    if (searched.has(real)) return;
    searched.add(real);
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    onUnreadable?.(dir);
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = join(dir, e.name);
    let kind: 'folder' | 'file' | 'other' = e.isDirectory() ? 'folder' : e.isFile() ? 'file' : 'other';
    if (e.isSymbolicLink()) {
      try {
        const target = await fs.stat(path);
        kind = target.isDirectory() ? 'folder' : target.isFile() ? 'file' : 'other';
      } catch {
        onUnreadable?.(path); // a dangling link
        continue;
      }
    }
    if (kind === 'folder' && !isSkippedFolder(e.name)) yield* walk(path, onUnreadable, searched);
    else if (kind === 'file' && e.name.endsWith('.json')) yield path;
  }
}
