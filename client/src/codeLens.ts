import * as vscode from 'vscode';
import { LANGUAGE_ID } from './definitionDocuments';
import type { DocumentQueries } from './documentQueries';

/** The file's actions above its first line: run (where the workspace allows code to run), preview, upload. */
export class DefinitionCodeLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly queries: DocumentQueries) {
    vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire());
  }

  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const kind = doc.languageId === LANGUAGE_ID ? await this.queries.kindOf(doc) : undefined;
    if (!kind) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lens = (title: string, command: string): vscode.CodeLens =>
      new vscode.CodeLens(top, { title, command, arguments: [doc.uri] });
    const upload = lens('$(cloud-upload) Upload', 'tooldef.upload');
    if (kind === 'llm')
      return [
        lens('$(open-preview) Preview Prompt', 'tooldef.previewPrompt'),
        lens('$(play) Run LLM Tool', 'tooldef.runLlmTool'),
        upload,
        lens('$(edit) Edit model_prompt', 'tooldef.editModelPrompt'),
      ];
    const edit = lens('$(edit) Edit tool_code as Python', 'tooldef.editToolCode');
    if (!vscode.workspace.isTrusted) return [upload, edit];
    return [
      lens('$(play) Run Smart Tool', 'tooldef.runSmartTool'),
      lens('Run with Defaults', 'tooldef.runSmartToolWithDefaults'),
      upload,
      edit,
    ];
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerCodeLenses(queries: DocumentQueries): vscode.Disposable[] {
  const provider = new DefinitionCodeLenses(queries);
  return [provider, vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, provider)];
}
