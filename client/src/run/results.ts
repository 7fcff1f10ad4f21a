import * as vscode from 'vscode';

export const RESULT_SCHEME = 'tooldef-result';

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

  async show(title: string, content: string): Promise<vscode.TextEditor> {
    const safe = title.replace(/[\\/:*?"<>|]/g, '-');
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/${safe}`, query: String(++this.counter) });
    this.contents.set(uri.toString(), content);
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
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
