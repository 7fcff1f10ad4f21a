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
export async function* jsonFilesUnder(dir: string, onUnreadable?: (path: string) => void): AsyncGenerator<string> {
  let real: string;
  try {
    real = await fs.realpath(dir);
  } catch {
    onUnreadable?.(dir);
    return;
  }
  yield* walk(dir, real, onUnreadable, new Set());
}

/**
 * `real`: the folder's resolved path. A folder reached through a plain entry is its parent's resolved
 * path and its name, so only one reached through a link costs a `realpath`.
 */
async function* walk(
  dir: string,
  real: string,
  onUnreadable: ((path: string) => void) | undefined,
  searched: Set<string>,
): AsyncGenerator<string> {
  if (searched.has(real)) return;
  searched.add(real);
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
    let kind: 'folder' | 'file' | 'other' = e.isDirectory() ? 'folder' : e.isFile() ? 'file' : 'other';
    let target = join(real, e.name);
    if (e.isSymbolicLink()) {
      try {
        const stat = await fs.stat(path);
        kind = stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
        if (kind === 'folder') target = await fs.realpath(path);
      } catch {
        onUnreadable?.(path); // a dangling link
        continue;
      }
    }
    if (kind === 'folder' && !isSkippedFolder(e.name)) yield* walk(path, target, onUnreadable, searched);
    else if (kind === 'file' && e.name.endsWith('.json')) yield path;
  }
}
