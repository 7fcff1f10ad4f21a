/** The search of a folder on disk for definitions: the CLI's directories and the server's workspace folders alike. */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isSkippedFolder } from './searched';

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
