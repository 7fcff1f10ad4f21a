import { existsSync, statSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { validateForUpload } from '../engine/upload/validate';
import type { AnalysisCache, Disk, ServerRuntime } from '../lsp/runtime';
import { analysisCache } from './analysisCache';
import { jsonFilesUnder } from '../workspace/jsonFiles';

/** The language server's runtime in Node: the disk, the upload gate, the process's rejection events. */
export function nodeRuntime(): ServerRuntime {
  const kept = keptAnalyses();
  return {
    disk: nodeDisk,
    validateForUpload,
    ...(kept ? { analysisCache: kept } : {}),
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

/**
 * The analysis cache in $TOOLDEF_ANALYSIS_CACHE (the client names a folder of the extension's storage),
 * for the analyser beside this bundle: its build is told by the size and time of this file, dist/python.js
 * and the parse tables (a stat each, where reading them would cost the first open milliseconds).
 */
function keptAnalyses(): AnalysisCache | undefined {
  const dir = process.env.TOOLDEF_ANALYSIS_CACHE;
  if (!dir) return undefined;
  return analysisCache(dir, () =>
    [__filename, join(__dirname, 'python.js'), join(__dirname, 'python-tables.grammar-data')]
      .map((file) => {
        try {
          const s = statSync(file);
          return `${file}:${s.size}:${s.mtimeMs}`;
        } catch {
          return `${file}:none`; // bundled into this file (a test build)
        }
      })
      .join('\n'),
  );
}
