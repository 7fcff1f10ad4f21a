import { existsSync, promises as fs } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateForUpload } from '../engine/upload/validate';
import type { Disk, ServerRuntime } from '../lsp/runtime';
import { jsonFilesUnder } from '../workspace/jsonFiles';

/** The language server's runtime in Node: the disk, the upload gate, the process's rejection events. */
export function nodeRuntime(): ServerRuntime {
  return {
    disk: nodeDisk,
    validateForUpload,
    onUnhandledRejection: (listener) => void process.on('unhandledRejection', listener),
  };
}

const nodeDisk: Disk = {
  readFile: (uri) => fs.readFile(fileURLToPath(uri), 'utf8'),
  async stat(uri) {
    try {
      const s = await fs.stat(fileURLToPath(uri));
      return s.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
    } catch {
      return undefined;
    }
  },
  exists: (uri) => existsSync(fileURLToPath(uri)),
  async fileNames(folderUri) {
    try {
      const entries = await fs.readdir(fileURLToPath(folderUri), { withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => e.name);
    } catch {
      return [];
    }
  },
  async *jsonFiles(folderUri, onUnreadable) {
    // Folders of other schemes (remote, virtual) are not on this machine's disk.
    if (!folderUri.startsWith('file:')) return;
    const unreadable = onUnreadable && ((path: string) => onUnreadable(pathToFileURL(path).toString()));
    for await (const path of jsonFilesUnder(fileURLToPath(folderUri), unreadable)) yield pathToFileURL(path).toString();
  },
};
