import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { EmbeddedField } from '../../../server/src/protocol';

const EXTENSION: Record<EmbeddedField, string> = { tool_code: 'py', model_prompt: 'md' };
const STATE_KEY = 'tooldef.embeddedViews';

export interface Link {
  /** The definition file the view edits now. */
  readonly definition: vscode.Uri;
  readonly field: EmbeddedField;
}

type Stored = [view: string, definition: string, field: EmbeddedField];

/**
 * Which definition each embedded view edits. A view is a real file (so Pylance, linters and
 * formatters, which only serve `file` documents, work on it) under the extension's storage, one
 * folder per definition: `<storage>/embedded/<hash of the definition's URI>/<name>.tool_code.py`.
 * The link outlives renames of the definition in VS Code (it follows them) and window reloads (it is
 * kept in the workspace state), so a view keeps writing into the file wherever it now is.
 */
export class ViewLinks {
  private readonly links = new Map<string, Link>();

  constructor(
    private readonly root: vscode.Uri,
    private readonly state?: vscode.Memento,
  ) {
    for (const [view, definition, field] of state?.get<Stored[]>(STATE_KEY) ?? []) {
      this.links.set(view, { definition: vscode.Uri.parse(definition), field });
    }
  }

  /** The folder holding every view; documents below it are candidates for `resolve`. */
  get folder(): vscode.Uri {
    return this.root;
  }

  /** The view of `field` in `definition`: the one already linked to it (even after a rename), else a new link. */
  viewFor(definition: vscode.Uri, field: EmbeddedField): vscode.Uri {
    for (const [view, link] of this.links) {
      if (link.field === field && link.definition.toString() === definition.toString()) return vscode.Uri.parse(view);
    }
    const hash = createHash('sha256').update(definition.toString()).digest('hex').slice(0, 16);
    const stem = definition.path.slice(definition.path.lastIndexOf('/') + 1).replace(/\.json$/i, '') || 'definition';
    const view = vscode.Uri.joinPath(this.root, hash, `${stem}.${field}.${EXTENSION[field]}`);
    this.links.set(view.toString(), { definition, field });
    this.save();
    return view;
  }

  /** What `view` edits, if it is a view. */
  resolve(view: vscode.Uri): Link | undefined {
    return this.links.get(view.toString());
  }

  /** The linked views that edit `definition`. */
  viewsOf(definition: vscode.Uri): vscode.Uri[] {
    const key = definition.toString();
    return [...this.links]
      .filter(([, link]) => link.definition.toString() === key)
      .map(([view]) => vscode.Uri.parse(view));
  }

  /** Every linked definition. */
  definitions(): vscode.Uri[] {
    const seen = new Map<string, vscode.Uri>();
    for (const { definition } of this.links.values()) seen.set(definition.toString(), definition);
    return [...seen.values()];
  }

  /** Follows a rename of a file, or of a folder holding definitions. */
  renamed(from: vscode.Uri, to: vscode.Uri): void {
    const old = from.toString();
    for (const [view, link] of this.links) {
      const current = link.definition.toString();
      if (current === old) this.links.set(view, { ...link, definition: to });
      else if (current.startsWith(`${old}/`))
        this.links.set(view, { ...link, definition: vscode.Uri.parse(to.toString() + current.slice(old.length)) });
    }
    this.save();
  }

  private save(): void {
    const stored: Stored[] = [...this.links].map(([view, l]) => [view, l.definition.toString(), l.field]);
    void this.state?.update(STATE_KEY, stored);
  }
}
