import { TextDocument } from 'vscode-languageserver-textdocument';
import { fileKey, inFolder } from '../service/fileKey';
import type { Disk } from './runtime';
import { mayBeDefinition } from '../service/kind';
import { ToolModel } from '../service/model';
import type { Namesakes, RelatedLocation, WorkspaceIndex } from '../service/validation/context';

/** A name in a definition: where its JSON string starts (0-based) and how long it is, quotes included. */
interface NameAt {
  readonly name: string;
  readonly line: number;
  readonly character: number;
  readonly length: number;
}

interface Entry extends NameAt {
  /** The URI as given (the maps are keyed by `fileKey`). */
  readonly uri: string;
  readonly kind: 'smart' | 'llm';
  /** Its variables' names, for workspace symbols. */
  readonly variables: readonly NameAt[];
}

/** A workspace symbol: a tool by its name, or a variable of one. */
export interface NamedSymbol extends NameAt {
  readonly uri: string;
  readonly what: 'tool' | 'variable';
  /** A variable's tool. */
  readonly container?: string;
}

/** A definition file on disk, with its last modification time. */
interface DiskEntry extends Entry {
  readonly modified: number;
}

const MAX_FILES = 20_000;
const MAX_VARIABLES = 200;
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

  /**
   * Tools and variables whose names hold the query's characters in order (any case), tools first, at
   * most `max`: Go to Symbol in Workspace (Ctrl+T).
   */
  symbols(query: string, max: number): NamedSymbol[] {
    const wanted = [...query.toLowerCase()].filter((c) => !/\s/.test(c));
    const matches = (name: string): boolean => {
      let i = 0;
      for (const c of name.toLowerCase()) if (c === wanted[i]) i++;
      return i === wanted.length;
    };
    const tools: NamedSymbol[] = [];
    const variables: NamedSymbol[] = [];
    const seen = new Set<string>();
    for (const [key, e] of [...this.open, ...this.onDisk]) {
      if (seen.has(key)) continue; // an open document stands for its file
      seen.add(key);
      if (!e) continue;
      if (matches(e.name)) tools.push({ ...e, what: 'tool' });
      for (const v of e.variables)
        if (matches(v.name)) variables.push({ ...v, uri: e.uri, what: 'variable', container: e.name });
      if (tools.length >= max) break;
    }
    const byName = (a: NamedSymbol, b: NamedSymbol): number =>
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.uri.localeCompare(b.uri);
    return [...tools.sort(byName), ...variables.sort(byName)].slice(0, max);
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

  /** Reads the definitions under `folders`; what cannot be read is given to `onUnreadable` and passed over. */
  async scanFolders(folders: readonly string[], onUnreadable?: (uri: string) => void): Promise<void> {
    if (!this.disk) return;
    let budget = MAX_FILES;
    for (const folder of folders) {
      for await (const uri of this.disk.jsonFiles(folder, onUnreadable)) {
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
  const at = (n: { offset: number; length: number }, name: string): NameAt => {
    const pos = model.positionAt(n.offset);
    return { name, line: pos.line, character: pos.character, length: n.length };
  };
  const variables = model.variables
    .flatMap((v) => (v.nameNode && v.name ? [at(v.nameNode, v.name)] : []))
    .slice(0, MAX_VARIABLES);
  return { ...at(node, node.value as string), uri: model.document.uri, kind: model.kind, variables };
}
