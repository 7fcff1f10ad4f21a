import * as vscode from 'vscode';
import { LineIndex } from '../../../server/src/service/positions';
import { LANGUAGE_ID, modelOf } from '../definitionDocuments';
import { readEmbedded, type EmbeddedField } from './content';
import { EMBEDDED_SCHEME, type ViewLinks } from './links';
import type { EmbeddedFileSystem } from './provider';

/** Edit tool_code as Python / Edit model_prompt: the field as a document of its own, beside the file. */
export function editEmbeddedCommand(links: ViewLinks, field: EmbeddedField) {
  return async (uri?: vscode.Uri): Promise<vscode.TextEditor | undefined> => {
    const doc = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!doc || doc.languageId !== LANGUAGE_ID || !readEmbedded(doc.uri.toString(), doc.getText(), field)) {
      void vscode.window.showErrorMessage(`Open a tool definition whose ${field} is a string to edit it.`);
      return undefined;
    }
    const embedded = await vscode.workspace.openTextDocument(links.viewFor(doc.uri, field));
    return vscode.window.showTextDocument(embedded, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  };
}

export function registerEmbeddedEditing(fs: EmbeddedFileSystem): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('tooldef-embedded');
  return [
    fs,
    diagnostics,
    vscode.workspace.registerFileSystemProvider(EMBEDDED_SCHEME, fs, { isCaseSensitive: true }),
    vscode.languages.onDidChangeDiagnostics((e) => {
      // Only a change for a definition that has an embedded view open needs mirroring (each re-parses it).
      const viewed = new Set(embeddedViews().map((d) => fs.links.resolve(d.uri).definition.toString()));
      if (e.uris.some((u) => viewed.has(u.toString()))) mirrorDiagnostics(fs.links, diagnostics);
    }),
    vscode.workspace.onDidOpenTextDocument((d) => d.uri.scheme === EMBEDDED_SCHEME && mirrorDiagnostics(fs.links, diagnostics)),
    vscode.languages.registerCompletionItemProvider({ scheme: EMBEDDED_SCHEME, language: 'markdown' }, { provideCompletionItems: (view, position) => placeholderCompletions(fs.links, view, position) }, '{'),
  ];
}

function embeddedViews(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === EMBEDDED_SCHEME);
}

/** The definition's diagnostics inside an embedded field, shown at the same characters of its own view. */
function mirrorDiagnostics(links: ViewLinks, collection: vscode.DiagnosticCollection): void {
  collection.clear();
  for (const view of embeddedViews()) {
    const { definition, field } = links.resolve(view.uri);
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
function placeholderCompletions(links: ViewLinks, view: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] {
  const before = view.lineAt(position.line).text.slice(0, position.character);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.slice(open).includes('}}')) return [];
  const target = links.resolve(view.uri).definition.toString();
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
