/**
 * Which files a search for definitions takes in: the rule the disk walk (jsonFiles.ts) follows, and the
 * server applies to the files and folders the editor reports (pure: it runs in the browser too).
 */
import { fileKey, inFolder } from '../service/fileKey';

/** Dependencies, build output and virtual environments; hidden folders (`.git`, `.venv`, …) are skipped too. */
const SKIPPED = new Set(['node_modules', 'dist', 'out', 'venv', '__pycache__']);

export function isSkippedFolder(name: string): boolean {
  return name.startsWith('.') || SKIPPED.has(name);
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
