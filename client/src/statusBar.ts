import * as vscode from 'vscode';
import { kindOf, LANGUAGE_ID } from './definitionDocuments';

/** "Smart tool · 2 problems" for the active definition file; a click runs it (smart) or shows problems. */
export function registerStatusBar(): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('tooldef.kind', vscode.StatusBarAlignment.Right, 100);
  item.name = 'Tool Definition';
  const update = (): void => {
    const doc = vscode.window.activeTextEditor?.document;
    const kind = doc?.languageId === LANGUAGE_ID ? kindOf(doc) : undefined;
    if (!doc || !kind) {
      item.hide();
      return;
    }
    const diagnostics = vscode.languages.getDiagnostics(doc.uri).filter((d) => d.source === 'tooldef');
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const label = kind === 'smart' ? 'Smart tool' : 'LLM tool';
    const problems = diagnostics.length ? ` · ${diagnostics.length} problem${diagnostics.length === 1 ? '' : 's'}` : '';
    item.text = `${errors ? '$(error)' : '$(tools)'} ${label}${problems}`;
    item.tooltip = kind === 'smart' && vscode.workspace.isTrusted ? 'Tool definition: click to run with defaults' : 'Tool definition: click to show problems';
    item.command = kind === 'smart' && vscode.workspace.isTrusted ? { title: 'Run', command: 'tooldef.runSmartToolWithDefaults', arguments: [doc.uri] } : 'workbench.actions.view.problems';
    item.show();
  };
  update();
  return [
    item,
    vscode.window.onDidChangeActiveTextEditor(update),
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (e.uris.some((u) => u.toString() === active)) update();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
  ];
}
