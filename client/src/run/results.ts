import * as vscode from 'vscode';

export const RESULT_SCHEME = 'tooldef-result';
const OUTPUT_LANGUAGE = 'tooldef-output';

/**
 * Read-only documents holding what a run returned (or its traceback). The tab title carries the
 * outcome, elapsed time and peak memory; the content is exactly the returned string.
 */
export class ResultDocuments implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** The document last shown for each owner (a tool): the next one takes its tab's place. */
  private readonly shownFor = new Map<string, vscode.Uri>();

  /**
   * Shows `content` in a read-only tab titled `title`, beside the editor; `owner` (a tool's file): its
   * previous tab is closed and the new one opens in its place, so each tool has one result tab.
   */
  async show(title: string, content: string, owner?: string): Promise<vscode.TextEditor> {
    const safe = title.replace(/[\\/:*?"<>|]/g, '-');
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${safe}`, query: String(++this.counter) });
    this.contents.set(uri.toString(), content);
    let viewColumn = vscode.ViewColumn.Beside;
    const previous = owner === undefined ? undefined : this.shownFor.get(owner);
    if (previous) {
      const tabs = vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === previous.toString());
      if (tabs[0]) viewColumn = tabs[0].group.viewColumn;
      await vscode.window.tabGroups.close(tabs, true);
      this.contents.delete(previous.toString());
    }
    if (owner !== undefined) this.shownFor.set(owner, uri);
    // Its own language, so that long lines (a prompt, an answer) wrap (package.json's configurationDefaults).
    const doc = await vscode.languages.setTextDocumentLanguage(
      await vscode.workspace.openTextDocument(uri),
      OUTPUT_LANGUAGE,
    );
    return vscode.window.showTextDocument(doc, { preview: false, viewColumn });
  }

  /** The owner (a tool's file) a result document was shown for. */
  ownerOf(uri: vscode.Uri): string | undefined {
    const key = uri.toString();
    for (const [owner, shown] of this.shownFor) if (shown.toString() === key) return owner;
    return undefined;
  }

  /** Replaces a shown document's content (a streamed answer growing). */
  update(uri: vscode.Uri, content: string): void {
    this.contents.set(uri.toString(), content);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
