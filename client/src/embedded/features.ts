import * as vscode from 'vscode';
import { LineIndex } from '../../../server/src/service/positions';
import { LANGUAGE_ID, modelOf } from '../definitionDocuments';
import { readEmbedded, type EmbeddedField } from './content';
import type { EmbeddedViews } from './views';

/** Edit tool_code as Python / Edit model_prompt: the field as a document of its own, beside the file. */
export function editEmbeddedCommand(views: EmbeddedViews, field: EmbeddedField) {
  return async (uri?: vscode.Uri): Promise<vscode.TextEditor | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    const view = doc?.languageId === LANGUAGE_ID ? await views.open(doc, field) : undefined;
    if (!view) {
      void vscode.window.showErrorMessage(`Open a tool definition whose ${field} is a string to edit it.`);
      return undefined;
    }
    return vscode.window.showTextDocument(view, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  };
}

export function registerEmbeddedEditing(views: EmbeddedViews): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('tooldef-embedded');
  const mirror = () => mirrorDiagnostics(views, diagnostics);
  return [
    views,
    diagnostics,
    vscode.languages.onDidChangeDiagnostics((e) => {
      // Only a change for a definition that has an embedded view open needs mirroring (each re-parses it).
      const viewed = new Set(embeddedViews(views).map((d) => views.links.resolve(d.uri)!.definition.toString()));
      if (e.uris.some((u) => viewed.has(u.toString()))) mirror();
    }),
    vscode.workspace.onDidOpenTextDocument((d) => views.isView(d.uri) && mirror()),
    vscode.workspace.onDidCloseTextDocument((d) => views.isView(d.uri) && diagnostics.delete(d.uri)),
    vscode.languages.registerCompletionItemProvider(
      { language: 'markdown', pattern: new vscode.RelativePattern(views.links.folder, '**/*.model_prompt.md') },
      { provideCompletionItems: (view, position) => placeholderCompletions(views, view, position) },
      '{',
    ),
  ];
}

function embeddedViews(views: EmbeddedViews): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => views.isView(d.uri));
}

/** The definition's diagnostics inside an embedded field, shown at the same characters of its own view. */
function mirrorDiagnostics(views: EmbeddedViews, collection: vscode.DiagnosticCollection): void {
  collection.clear();
  for (const view of embeddedViews(views)) {
    const { definition, field } = views.links.resolve(view.uri)!;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === definition.toString());
    const embedded = doc && readEmbedded(definition.toString(), doc.getText(), field);
    if (!doc || !embedded) continue;
    const lines = new LineIndex(embedded.text);
    const mapped: vscode.Diagnostic[] = [];
    for (const d of vscode.languages.getDiagnostics(definition)) {
      const start = doc.offsetAt(d.range.start);
      const end = doc.offsetAt(d.range.end);
      if (start < embedded.contentStart || end > embedded.contentEnd) continue;
      const s = lines.positionAt(embedded.toDecoded(start));
      const e = lines.positionAt(embedded.toDecoded(end));
      const copy = new vscode.Diagnostic(new vscode.Range(s.line, s.character, e.line, e.character), d.message, d.severity);
      copy.code = d.code;
      copy.source = d.source;
      copy.tags = d.tags;
      mapped.push(copy);
    }
    collection.set(view.uri, mapped);
  }
}

/** `{{` in an embedded model_prompt: the definition's variable names. */
function placeholderCompletions(views: EmbeddedViews, view: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
  const before = view.lineAt(position.line).text.slice(0, position.character);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.slice(open).includes('}}')) return [];
  const link = views.links.resolve(view.uri);
  if (!link) return [];
  const target = link.definition.toString();
  const definition = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target);
  if (!definition) return [];
  const model = modelOf(definition);
  const after = view.lineAt(position.line).text.slice(position.character);
  const closed = after.startsWith('}}');
  const range = new vscode.Range(position.line, open + 2, position.line, position.character);
  return model.variables
    .filter((v) => v.name)
    .map((v) => {
      const item = new vscode.CompletionItem(v.name!, vscode.CompletionItemKind.Variable);
      item.range = range;
      item.insertText = closed ? v.name! : `${v.name!}}}`;
      item.documentation = v.description;
      return item;
    });
}
