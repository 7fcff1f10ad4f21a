import type { validateForUpload } from '../engine/upload/validate';
import type { PythonFacts } from '../service/python/types';

/**
 * What the language server gets from where it runs: the same server runs in Node (the desktop, a
 * remote, code-server) and in a browser's web worker (vscode.dev, github.dev), where there is no disk.
 */
export interface ServerRuntime {
  /** This machine's disk; absent in a browser (the workspace's other files are then not scanned). */
  readonly disk?: Disk;
  /** The upload gate's validation; absent where nothing can be uploaded. */
  readonly validateForUpload?: typeof validateForUpload;
  /** Python analyses kept across sessions (see node/analysisCache.ts); absent where there is no storage. */
  readonly analysisCache?: AnalysisCache;
  /** Reports promises rejected with no handler (a bug), so that they are logged instead of lost. */
  onUnhandledRejection(listener: (reason: unknown) => void): void;
}

/** Analyses of Python sources by their text: what an open file's complete diagnostics can start from. */
export interface AnalysisCache {
  get(text: string): PythonFacts | undefined;
  put(text: string, facts: PythonFacts): void;
}

/** Files on disk, by `file:` URI. */
export interface Disk {
  readFile(uri: string): Promise<string>;
  /** Size and modification time; undefined when there is no such file. */
  stat(uri: string): Promise<{ readonly size: number; readonly mtimeMs: number } | undefined>;
  exists(uri: string): boolean;
  /** The names of the files in a folder; empty when there is no such folder. */
  fileNames(folderUri: string): Promise<string[]>;
  /**
   * The URIs of the `.json` files a scan of the folder finds (see workspace/jsonFiles.ts); a folder it
   * cannot read, or a link whose target is gone, is given to `onUnreadable` and passed over.
   */
  jsonFiles(folderUri: string, onUnreadable?: (uri: string) => void): AsyncIterable<string>;
}
