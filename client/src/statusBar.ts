import * as vscode from 'vscode';
import type { Kind } from '../../server/src/protocol';
import { LANGUAGE_ID } from './definitionDocuments';
import type { DocumentQueries } from './documentQueries';

/** What a click on the item does: run a smart tool (where running is allowed), preview an LLM tool's prompt. */
export function clickAction(
  kind: Kind,
  trusted: boolean,
  uri: vscode.Uri,
): { tooltip: string; command: vscode.Command | string } {
  if (kind === 'llm')
    return {
      tooltip: 'LLM tool: click to preview the prompt',
      command: { title: 'Preview', command: 'tooldef.previewPrompt', arguments: [uri] },
    };
  if (trusted)
    return {
      tooltip: 'Smart tool: click to run with defaults',
      command: { title: 'Run', command: 'tooldef.runSmartToolWithDefaults', arguments: [uri] },
    };
  return {
    tooltip: 'Smart tool (running is disabled in Restricted Mode): click to show problems',
    command: 'workbench.actions.view.problems',
  };
}

/** "Smart tool · 2 problems" for the active definition file; a click runs it (smart) or previews it (LLM). */
export function registerStatusBar(queries: DocumentQueries): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('tooldef.kind', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Tool Definition';
  const update = async (): Promise<void> => {
    const doc = vscode.window.activeTextEditor?.document;
    const kind = doc?.languageId === LANGUAGE_ID ? await queries.kindOf(doc) : undefined;
    if (doc !== vscode.window.activeTextEditor?.document) return; // another editor's update follows
    if (!doc || !kind) {
      item.hide();
      return;
    }
    const diagnostics = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'tooldef');
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const label = kind === 'smart' ? 'Smart tool' : 'LLM tool';
    const problems = diagnostics.length ? ` · ${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'}` : '';
    item.text = `${errors ? '$(error)' : '$(tools)'} ${label}${problems}`;
    ({ tooltip: item.tooltip, command: item.command } = clickAction(kind, vscode.workspace.isTrusted, doc.uri));
    item.show();
  };
  void update();
  return [
    item,
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (e.uris.some((u) => u.toString() === active)) void update();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void update()),
  ];
}
