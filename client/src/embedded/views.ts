import * as vscode from 'vscode';
import type { EmbeddedField, OffsetEdit } from '../../../server/src/protocol';
import type { DocumentQueries } from '../documentQueries';
import { findDocument } from '../openDocuments';
import { ViewLinks } from './links';

/** A UTF-16 surrogate without its pair: JSON can escape one, a UTF-8 file cannot hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The string fields of definition files as files of their own (Python for tool_code, Markdown for
 * model_prompt) under the extension's storage, so that every extension working on real files works
 * on them. Saving a view writes it back, escaped, as one undoable edit of the definition; changes of
 * the definition (typing in it, undo, a change on disk) reach its views at once: a clean view takes
 * them, a dirty one keeps its edits while its file changes, so that its next save is VS Code's save
 * conflict. Neither side's edits are lost.
 */
export class EmbeddedViews implements vscode.Disposable {
  readonly links: ViewLinks;
  /** What each view's file holds as far as we know: written here, or saved by the user. */
  private readonly written = new Map<string, string>();
  private readonly watchers = new Map<string, vscode.FileSystemWatcher>();
  /** Views being refreshed from their definition: their saves are not written back. */
  private readonly refreshing = new Set<string>();
  /** The field content each clean view was last refreshed from (see `update`). */
  private readonly refreshedFrom = new Map<string, string>();
  /** Writes of views' files, one after the other so that they land in order. */
  private queue: Promise<void> = Promise.resolve();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    readonly queries: DocumentQueries,
    storage: vscode.Uri,
    state?: vscode.Memento,
  ) {
    this.links = new ViewLinks(vscode.Uri.joinPath(storage, 'embedded'), state);
    this.subscriptions = [
      vscode.workspace.onDidSaveTextDocument((doc) => void this.writeBack(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && this.links.viewsOf(e.document.uri).length) this.follow(e.document.uri);
      }),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const f of e.files) this.links.renamed(f.oldUri, f.newUri);
        this.watchDefinitions();
      }),
      vscode.workspace.onDidOpenTextDocument((doc) => this.reopened(doc)),
    ];
    this.watchDefinitions();
    // Views restored with the window (or opened before activation) catch up with their definitions.
    for (const doc of vscode.workspace.textDocuments) this.reopened(doc);
  }

  /** Opens the view of `field` in `definition`, its file holding the field as it is now. */
  async open(definition: vscode.TextDocument, field: EmbeddedField): Promise<vscode.TextDocument | undefined> {
    const content = await this.contentOf(definition.uri, definition.getText(), field);
    if (content === undefined) return undefined;
    if (LONE_SURROGATE.test(content)) {
      void vscode.window.showWarningMessage(
        `${field} holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair), which a file cannot hold: saving from the view writes U+FFFD in its place.`,
      );
    }
    const view = this.links.viewFor(definition.uri, field);
    this.watchDefinitions();
    if (findDocument(view)) {
      await this.run(() => this.update(definition.uri, definition.getText()));
    } else {
      await this.run(async () => {
        await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(view, '..'));
        await this.write(view, content);
      });
    }
    return vscode.workspace.openTextDocument(view);
  }

  /** Whether `uri` is an embedded view. */
  isView(uri: vscode.Uri): boolean {
    return this.links.resolve(uri) !== undefined;
  }

  /**
   * The definition changed: its views follow at once (not debounced, so that a save of a dirty view
   * right after a change of the definition meets the changed file, VS Code's save conflict).
   */
  private follow(definition: vscode.Uri): void {
    void this.run(async () => {
      const doc = findDocument(definition);
      if (doc) await this.update(definition, doc.getText());
    });
  }

  private run(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task).catch((e: unknown) => {
      void vscode.window.showErrorMessage(
        `Could not update an embedded view: ${e instanceof Error ? e.message : String(e)}`,
      );
    });
    return this.queue;
  }

  /**
   * Brings the views of a definition whose content is `text` up to date. A clean open view gets the
   * field as an edit and is saved (VS Code does not reliably reload a file outside the workspace that
   * it saved itself); a dirty one keeps its edits while its file changes, so that its next save is VS
   * Code's save conflict; a view not open just has its file written.
   */
  private async update(definition: vscode.Uri, text: string): Promise<void> {
    for (const view of this.links.viewsOf(definition)) {
      const content = await this.contentOf(definition, text, this.links.resolve(view)!.field);
      const open = findDocument(view);
      if (content === undefined || (open ? open.getText() === content : this.written.get(view.toString()) === content))
        continue;
      // Already refreshed from this very content: what differs is what the user's save participants
      // (format on save, trimmed whitespace) made of it, not the definition; saving again would
      // only run them again, on every keystroke in the definition.
      if (open && !open.isDirty && this.refreshedFrom.get(view.toString()) === content) continue;
      if (open && !open.isDirty) await this.refresh(open, content);
      else await this.write(view, content);
    }
  }

  /** Replaces a clean view's text and saves it, without writing it back (it came from the definition). */
  private async refresh(view: vscode.TextDocument, content: string): Promise<void> {
    const key = view.uri.toString();
    const edit = new vscode.WorkspaceEdit();
    edit.replace(view.uri, new vscode.Range(view.positionAt(0), view.positionAt(view.getText().length)), content);
    this.refreshing.add(key);
    try {
      if (await vscode.workspace.applyEdit(edit)) await view.save();
      this.written.set(key, content);
      this.refreshedFrom.set(key, content);
    } finally {
      // The save event may arrive just after the save's answer.
      setTimeout(() => this.refreshing.delete(key), 0);
    }
  }

  private async write(view: vscode.Uri, content: string): Promise<void> {
    await vscode.workspace.fs.writeFile(view, Buffer.from(content, 'utf8'));
    this.written.set(view.toString(), content);
  }

  /**
   * A saved view goes into its definition. A definition shown in an editor keeps the edit unsaved
   * there, undoable like any other; one whose editor was closed is saved too, since nobody would see
   * (or save) an edit made to a file no editor shows.
   */
  private async writeBack(view: vscode.TextDocument): Promise<void> {
    const link = this.links.resolve(view.uri);
    if (!link || this.refreshing.has(view.uri.toString())) return;
    const { definition, field } = link;
    const content = view.getText();
    this.written.set(view.uri.toString(), content);
    this.refreshedFrom.delete(view.uri.toString());
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(definition);
    } catch {
      void vscode.window.showErrorMessage(
        `Could not write ${field} back: ${definition.fsPath} no longer exists. Your code is kept in ${view.uri.fsPath}.`,
      );
      return;
    }
    const edit = await this.editFor(doc, field, content);
    if (edit && doc.getText().slice(edit.offset, edit.offset + edit.length) === edit.newText) return;
    const workspaceEdit = new vscode.WorkspaceEdit();
    if (edit)
      workspaceEdit.replace(
        definition,
        new vscode.Range(doc.positionAt(edit.offset), doc.positionAt(edit.offset + edit.length)),
        edit.newText,
      );
    if (!edit || !(await vscode.workspace.applyEdit(workspaceEdit))) {
      void vscode.window.showErrorMessage(
        `Could not write ${field} back into ${definition.fsPath}: the field is no longer a string there.`,
      );
    } else if (!isInEditor(definition) && !(await doc.save())) {
      void vscode.window.showErrorMessage(
        `Wrote ${field} back into ${definition.fsPath}, but could not save it; open it to save.`,
      );
    }
  }

  private async contentOf(definition: vscode.Uri, text: string, field: EmbeddedField): Promise<string | undefined> {
    return (await this.queries.embedded(definition, text, field))?.content;
  }

  /** The edit that writes `content` into the definition's field, for the document's text as it is when it lands. */
  private async editFor(
    doc: vscode.TextDocument,
    field: EmbeddedField,
    content: string,
  ): Promise<OffsetEdit | undefined> {
    for (;;) {
      const version = doc.version;
      const edit = await this.queries.writeEmbedded(doc.uri, doc.getText(), field, content);
      // Typed into while the server answered: its offsets are for older text, ask again.
      if (doc.version === version) return edit ?? undefined;
    }
  }

  /**
   * A view opened again (Reopen Closed Editor, a restored window, Open Recent) shows the definition
   * as it is now: its file may predate changes made while VS Code was closed. The link and the file
   * outlive the view's editor for exactly this; while the extension runs, `update` keeps the file of
   * a closed view current, so this is usually a no-op.
   */
  private reopened(doc: vscode.TextDocument): void {
    const link = this.links.resolve(doc.uri);
    if (!link) return;
    void this.run(() => this.catchUp(link.definition));
  }

  /** Brings the views of `definition` up to date with its open document, else with its file (if still there). */
  private async catchUp(definition: vscode.Uri): Promise<void> {
    const text = findDocument(definition)?.getText() ?? (await readText(definition));
    if (text !== undefined) await this.update(definition, text); // else gone: the views keep their content
  }

  /**
   * Watches the linked definitions on disk: a change while no document holds the definition (its
   * editor closed) is not announced as a document change, but its views must follow it all the same.
   */
  private watchDefinitions(): void {
    const wanted = new Map(this.links.definitions().map((d) => [d.toString(), d]));
    for (const [key, watcher] of this.watchers) {
      if (!wanted.has(key)) {
        watcher.dispose();
        this.watchers.delete(key);
      }
    }
    for (const [key, definition] of wanted) {
      if (this.watchers.has(key) || definition.scheme !== 'file') continue;
      const name = definition.path.slice(definition.path.lastIndexOf('/') + 1);
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.joinPath(definition, '..'), name),
      );
      const changed = (): Promise<void> =>
        this.run(async () => {
          // An open document reloads and is followed as it changes.
          if (!findDocument(definition)) await this.catchUp(definition);
        });
      watcher.onDidChange(changed);
      watcher.onDidCreate(changed);
      this.watchers.set(key, watcher);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    for (const w of this.watchers.values()) w.dispose();
  }
}

/** A file's text, or undefined when it cannot be read (deleted, say). */
function readText(uri: vscode.Uri): Thenable<string | undefined> {
  return vscode.workspace.fs.readFile(uri).then(
    (b) => Buffer.from(b).toString('utf8'),
    () => undefined,
  );
}

function isInEditor(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) =>
    g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === key),
  );
}
