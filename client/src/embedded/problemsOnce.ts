import type * as vscode from 'vscode';
import { findDocument } from '../openDocuments';
import type { EmbeddedViews } from './views';

/**
 * Each problem once in the Problems panel and the status bar's count: while a definition's tool_code
 * (or model_prompt) view is open, the definition's problems inside that field are shown by the view
 * only (at its own lines), not also by the definition. The server's diagnostics pass through here
 * (the language client's middleware), and are kept as published for the views to mirror.
 */
export class ProblemsOnce {
  private readonly published = new Map<string, vscode.Diagnostic[]>();
  private views: EmbeddedViews | undefined;
  private collection: () => vscode.DiagnosticCollection | undefined = () => undefined;
  /** The latest publication per definition: an older one answered late is dropped. */
  private readonly generation = new Map<string, number>();

  /** The definition's diagnostics as the server published them, the field's included. */
  publishedFor(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.published.get(uri.toString()) ?? [];
  }

  /** The views, and the client's collection to show the rest in (the client's, once it has started). */
  attach(views: EmbeddedViews, collection: () => vscode.DiagnosticCollection | undefined): void {
    this.views = views;
    this.collection = collection;
  }

  /** The language client's middleware: a definition's diagnostics, on their way to the editor. */
  readonly handleDiagnostics = (
    uri: vscode.Uri,
    diagnostics: vscode.Diagnostic[],
    next: (uri: vscode.Uri, diagnostics: vscode.Diagnostic[]) => void,
  ): void => {
    this.published.set(uri.toString(), diagnostics);
    void this.show(uri, next);
  };

  /** A view of `definition` opened or closed: its problems move between it and the view. */
  refresh(definition: vscode.Uri): void {
    const collection = this.collection();
    if (collection && this.published.has(definition.toString()))
      void this.show(definition, (uri, list) => collection.set(uri, list));
  }

  private async show(
    uri: vscode.Uri,
    next: (uri: vscode.Uri, diagnostics: vscode.Diagnostic[]) => void,
  ): Promise<void> {
    const key = uri.toString();
    const mine = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, mine);
    const all = this.published.get(key) ?? [];
    const inViews = await this.insideOpenViews(uri, all);
    if (this.generation.get(key) !== mine) return;
    next(
      uri,
      all.filter((_, i) => !inViews[i]),
    );
  }

  /** Which of a definition's diagnostics lie inside a field whose view is open. */
  private async insideOpenViews(uri: vscode.Uri, all: readonly vscode.Diagnostic[]): Promise<boolean[]> {
    const inside = all.map(() => false);
    const views = this.views;
    const doc = findDocument(uri);
    if (!views || !doc || !all.length) return inside;
    const ranges = all.map((d): [number, number] => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]);
    for (const view of views.links.viewsOf(uri)) {
      if (!findDocument(view)) continue;
      const field = views.links.resolve(view)!.field;
      const placed = (await views.queries.embedded(uri, doc.getText(), field, ranges))?.ranges ?? [];
      placed.forEach((p, i) => (inside[i] ||= p !== null));
    }
    return inside;
  }
}
