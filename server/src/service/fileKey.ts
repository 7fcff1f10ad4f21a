/**
 * One spelling of a URI per file, to tell whether two URIs name the same file (a map key, not a URI):
 * VS Code percent-encodes more than Node's `pathToFileURL` (`@`, `+`, `,`, the colon of a Windows
 * drive) and lower-cases drive letters, so the workspace scan and the editor spell one file apart.
 */
export function fileKey(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  let path: string;
  try {
    path = decodeURIComponent(uri.slice('file:'.length));
  } catch {
    return uri; // a malformed escape: compare as written
  }
  return `file:${path.replace(/^(\/\/[^/]*)?\/([A-Za-z]):/, (_, authority: string | undefined, drive: string) => `${authority ?? ''}/${drive.toLowerCase()}:`)}`;
}

/** Whether the file with key `key` lies in the folder `folderUri` (at any depth). */
export function inFolder(key: string, folderUri: string): boolean {
  return key.startsWith(fileKey(folderUri).replace(/\/?$/, '/'));
}
