import { URI } from 'vscode-uri';

/**
 * One spelling of a URI per file, to tell whether two URIs name the same file (a map key): VS Code's
 * own, as vscode-uri writes it. Node's `pathToFileURL` (the workspace scan) leaves `@`, `+`, `,` and a
 * Windows drive's colon as they are and keeps the drive letter's case, where the editor encodes them
 * and lower-cases it.
 */
export function fileKey(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return URI.parse(uri).toString();
  } catch {
    return uri; // not a URI vscode-uri accepts: compare as written
  }
}

/** Whether the file with key `key` lies in the folder `folderUri` (at any depth). */
export function inFolder(key: string, folderUri: string): boolean {
  return key.startsWith(fileKey(folderUri).replace(/\/?$/, '/'));
}
