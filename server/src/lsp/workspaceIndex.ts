import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileKey, inFolder } from '../service/fileKey';
import type { Disk } from './runtime';
import { mayBeDefinition } from '../service/kind';
import { ToolModel } from '../service/model';
import type { Namesakes, RelatedLocation, WorkspaceIndex } from '../service/validation/context';

interface Entry {
  /** The URI as given (the maps are keyed by `fileKey`). */
  readonly uri: string;
  readonly kind: 'smart' | 'llm';
  readonly name: string;
  readonly line: number;
  readonly character: number;
}

/** A definition file on disk, with its last modification time. */
interface DiskEntry extends Entry {
  readonly modified: number;
}

const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Tool names of the definition files in the workspace folders, for `duplicate-tool-name`.
 * Open documents override what is on disk. Files are keyed by `fileKey`: the editor and the scan
 * spell some URIs differently.
 */
export class DefinitionIndex implements WorkspaceIndex {
  private readonly onDisk = new Map<string, DiskEntry>();
  private readonly open = new Map<string, Entry | null>();

  /** `disk`: where the workspace's files are read; without one only open documents are known. */
  constructor(private readonly disk: Disk | undefined) {}

  toolsNamed(name: string, exceptUri: string, max: number): Namesakes {
    const shown: RelatedLocation[] = [];
    let total = 0;
    const except = fileKey(exceptUri);
    const seen = new Set<string>();
    const consider = (key: string, e: Entry | null | undefined): void => {
      if (seen.has(key)) return;
      seen.add(key);
      if (!e || e.name !== name || key === except) return;
      if (total++ < max)
        shown.push({ uri: e.uri, line: e.line, character: e.character, message: `also named "${name}" here` });
    };
    for (const [key, e] of this.open) consider(key, e);
    for (const [key, e] of this.onDisk) {
      // A deleted folder is reported as the folder alone, which the `**/*.json` watcher does not
      // match (microsoft/vscode#109754, as designed): a namesake on disk is checked to still be
      // there before it is reported.
      if (e.name === name && !this.open.has(key) && !this.disk?.exists(e.uri)) this.onDisk.delete(key);
      else consider(key, e);
    }
    return { shown, total };
  }

  /** Records an open document's current name; returns true when the name changed. */
  setOpen(model: ToolModel): boolean {
    const key = fileKey(model.document.uri);
    const entry = entryOf(model);
    const before = this.open.get(key) ?? this.onDisk.get(key);
    this.open.set(key, entry);
    return before?.name !== entry?.name;
  }

  /** Whether any definition on disk is a smart tool (worth warming the Python analysis up for). */
  hasSmartTools(): boolean {
    for (const e of this.onDisk.values()) if (e.kind === 'smart') return true;
    return false;
  }

  /** The smart tools on disk, most recently modified first (the likeliest to be opened next). */
  smartToolsOnDisk(): string[] {
    const smart = [...this.onDisk.values()].filter((e) => e.kind === 'smart');
    return smart.sort((a, b) => b.modified - a.modified).map((e) => e.uri);
  }

  closeDocument(uri: string): void {
    this.open.delete(fileKey(uri));
  }

  async scanFolders(folders: readonly string[]): Promise<void> {
    if (!this.disk) return;
    let budget = MAX_FILES;
    for (const folder of folders) {
      for await (const uri of this.disk.jsonFiles(folder)) {
        if (budget-- <= 0) return;
        await this.updateFile(uri);
      }
    }
  }

  async updateFile(uri: string): Promise<void> {
    const key = fileKey(uri);
    if (!this.disk) return;
    try {
      const stat = await this.disk.stat(uri);
      if (!stat) return void this.onDisk.delete(key);
      if (stat.size > MAX_FILE_BYTES) return;
      const text = await this.disk.readFile(uri);
      const entry = mayBeDefinition(text) ? entryOf(new ToolModel(TextDocument.create(uri, 'json', 0, text))) : null;
      if (entry) this.onDisk.set(key, { ...entry, modified: stat.mtimeMs });
      else this.onDisk.delete(key);
    } catch {
      this.onDisk.delete(key);
    }
  }

  /** Forgets the files on disk under a folder removed from the workspace. */
  forgetFolder(folderUri: string): void {
    for (const key of [...this.onDisk.keys()]) if (inFolder(key, folderUri)) this.onDisk.delete(key);
  }

  deleteFile(uri: string): void {
    this.onDisk.delete(fileKey(uri));
  }
}

function entryOf(model: ToolModel): Entry | null {
  const node = model.toolNameNode;
  if (!model.kind || !node || !node.value) return null;
  const pos = model.document.positionAt(node.offset);
  return {
    uri: model.document.uri,
    kind: model.kind,
    name: node.value as string,
    line: pos.line,
    character: pos.character,
  };
}
