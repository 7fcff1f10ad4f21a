import type { validateForUpload } from '../engine/upload/validate';

/**
 * What the language server gets from where it runs: the same server runs in Node (the desktop, a
 * remote, code-server) and in a browser's web worker (vscode.dev, github.dev), where there is no disk.
 */
export interface ServerRuntime {
  /** This machine's disk; absent in a browser (the workspace's other files are then not scanned). */
  readonly disk?: Disk;
  /** The upload gate's validation; absent where nothing can be uploaded. */
  readonly validateForUpload?: typeof validateForUpload;
  /** Reports promises rejected with no handler (a bug), so that they are logged instead of lost. */
  onUnhandledRejection(listener: (reason: unknown) => void): void;
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
