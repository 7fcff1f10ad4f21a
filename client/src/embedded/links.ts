import * as vscode from 'vscode';
import type { EmbeddedField } from './content';

export const EMBEDDED_SCHEME = 'tooldef-embedded';

const EXTENSION: Record<EmbeddedField, string> = { tool_code: 'py', model_prompt: 'md' };

export interface Link {
  /** The definition file the view edits now. */
  readonly definition: vscode.Uri;
  readonly field: EmbeddedField;
}

/**
 * Which definition each embedded view edits. A view's URI names the definition it was opened for
 * (`tooldef-embedded:/<definition path>/tool_code.py?<definition uri>`), but an open document's URI
 * cannot change: when the definition is renamed or moved in VS Code, the link follows it, so the view
 * keeps writing into the file wherever it now is instead of into a path that no longer exists.
 */
export class ViewLinks {
  private readonly links = new Map<string, Link>();

  /** The view of `field` in `definition`: the one already linked to it (even after a rename), else a new one. */
  viewFor(definition: vscode.Uri, field: EmbeddedField): vscode.Uri {
    for (const [view, link] of this.links) {
      if (link.field === field && link.definition.toString() === definition.toString()) return vscode.Uri.parse(view);
    }
    return vscode.Uri.from({ scheme: EMBEDDED_SCHEME, path: `${definition.path}/${field}.${EXTENSION[field]}`, query: definition.toString() });
  }

  /** What `view` edits; a view seen for the first time is linked to the definition its URI names. */
  resolve(view: vscode.Uri): Link {
    const known = this.links.get(view.toString());
    if (known) return known;
    const field = view.path.slice(view.path.lastIndexOf('/') + 1).replace(/\.\w+$/, '');
    if (field !== 'tool_code' && field !== 'model_prompt') throw vscode.FileSystemError.FileNotFound(view);
    const link = { definition: vscode.Uri.parse(view.query), field } as const;
    this.links.set(view.toString(), link);
    return link;
  }

  /** The linked views that edit `definition`. */
  viewsOf(definition: vscode.Uri): vscode.Uri[] {
    const key = definition.toString();
    return [...this.links].filter(([, link]) => link.definition.toString() === key).map(([view]) => vscode.Uri.parse(view));
  }

  /** Follows a rename of a file, or of a folder holding definitions. */
  renamed(from: vscode.Uri, to: vscode.Uri): void {
    const old = from.toString();
    for (const [view, link] of this.links) {
      const current = link.definition.toString();
      if (current === old) this.links.set(view, { ...link, definition: to });
      else if (current.startsWith(`${old}/`)) this.links.set(view, { ...link, definition: vscode.Uri.parse(to.toString() + current.slice(old.length)) });
    }
  }
}
