import * as vscode from 'vscode';
import { readEmbedded, writeEmbedded, type EmbeddedField } from './content';
import { ViewLinks } from './links';

/**
 * A file system whose files are the string fields of open definition files: reading decodes the JSON
 * string, saving writes it back, escaped, as one undoable edit of the definition. Edits of the
 * definition (typing in it, or a change on disk) are announced as changes of the embedded file, so
 * VS Code reloads a clean view and reports a conflict for a dirty one instead of losing either side.
 * Renames of the definition in VS Code are followed (`ViewLinks`).
 */
export class EmbeddedFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  readonly links = new ViewLinks();
  private readonly mtimes = new Map<string, number>();
  /** The last mtime handed out: strictly increasing, so VS Code always sees a change as newer. */
  private clock = 0;
  /** Saved content not yet applied to the definition (the edit runs after the save returns). */
  private readonly pending = new Map<string, Uint8Array>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length) this.touch(e.document.uri);
      }),
      vscode.workspace.onDidRenameFiles((e) => e.files.forEach((f) => this.links.renamed(f.oldUri, f.newUri))),
    ];
  }

  /** Marks the embedded files of a definition as changed. */
  private touch(definition: vscode.Uri): void {
    const events: vscode.FileChangeEvent[] = [];
    for (const uri of this.links.viewsOf(definition)) {
      if (!this.mtimes.has(uri.toString())) continue;
      this.mtimes.set(uri.toString(), this.tick());
      events.push({ type: vscode.FileChangeType.Changed, uri });
    }
    if (events.length) this.changed.fire(events);
  }

  private tick(): number {
    return (this.clock = Math.max(Date.now(), this.clock + 1));
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const content = await this.readFile(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: this.mtimes.get(uri.toString()) ?? Date.now(), size: content.byteLength };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const waiting = this.pending.get(uri.toString());
    if (waiting) return waiting;
    const { definition, field } = this.links.resolve(uri);
    const doc = await vscode.workspace.openTextDocument(definition);
    const embedded = readEmbedded(definition.toString(), doc.getText(), field);
    if (!embedded) throw vscode.FileSystemError.FileNotFound(uri);
    if (!this.mtimes.has(uri.toString())) this.mtimes.set(uri.toString(), this.tick());
    return Buffer.from(embedded.text, 'utf8');
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const { definition, field } = this.links.resolve(uri);
    const doc = await vscode.workspace.openTextDocument(definition);
    if (!writeEmbedded(definition.toString(), doc.getText(), field, '')) {
      throw vscode.FileSystemError.Unavailable(`${field} is no longer a string in ${definition.fsPath}; its text was not written back.`);
    }
    // The workbench applies edits only once this save has finished, so the edit of the definition is
    // queued; until it lands, reads of this file answer the saved content.
    this.pending.set(uri.toString(), content);
    this.mtimes.set(uri.toString(), this.tick());
    setTimeout(() => void this.applyPending(uri, definition, field), 0);
  }

  /**
   * Applies a saved view to its definition. A definition shown in an editor keeps the edit unsaved
   * there, undoable like any other; one whose editor was closed is saved too, since nobody would see
   * (or save) an edit made to a file no editor shows.
   */
  private async applyPending(uri: vscode.Uri, definition: vscode.Uri, field: EmbeddedField): Promise<void> {
    const content = this.pending.get(uri.toString());
    if (!content) return;
    try {
      const doc = await vscode.workspace.openTextDocument(definition);
      const edit = writeEmbedded(definition.toString(), doc.getText(), field, Buffer.from(content).toString('utf8'));
      const workspaceEdit = new vscode.WorkspaceEdit();
      if (edit) workspaceEdit.replace(definition, new vscode.Range(doc.positionAt(edit.offset), doc.positionAt(edit.offset + edit.length)), edit.newText);
      if (!edit || !(await vscode.workspace.applyEdit(workspaceEdit))) {
        void vscode.window.showErrorMessage(`Could not write ${field} back into ${definition.fsPath}: the field is no longer a string there.`);
      } else if (!isInEditor(definition) && !(await doc.save())) {
        void vscode.window.showErrorMessage(`Wrote ${field} back into ${definition.fsPath}, but could not save it; open it to save.`);
      }
    } finally {
      this.pending.delete(uri.toString());
    }
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('Embedded fields have no directories.');
  }
  delete(): void {
    throw vscode.FileSystemError.NoPermissions('Remove the field in the definition file instead.');
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions('Embedded fields cannot be renamed.');
  }

  dispose(): void {
    this.changed.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function isInEditor(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key));
}
