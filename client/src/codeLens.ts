import * as vscode from 'vscode';
import { kindOf, LANGUAGE_ID } from './definitionDocuments';

/** "Run Smart Tool · Run with Defaults" above a smart tool, where the workspace allows running code. */
export class DefinitionCodeLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor() {
    vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (doc.languageId !== LANGUAGE_ID || kindOf(doc) !== 'smart' || !vscode.workspace.isTrusted) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, { title: '$(play) Run Smart Tool', command: 'tooldef.runSmartTool', arguments: [doc.uri] }),
      new vscode.CodeLens(top, { title: 'Run with Defaults', command: 'tooldef.runSmartToolWithDefaults', arguments: [doc.uri] }),
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerCodeLenses(): vscode.Disposable[] {
  const provider = new DefinitionCodeLenses();
  return [provider, vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, provider)];
}
