import * as vscode from 'vscode';
import type { EmbeddedField } from '../../../server/src/protocol';
import { LANGUAGE_ID } from '../definitionDocuments';
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
  let generation = 0;
  // Answers arrive in any order: only the latest mirroring is shown.
  const mirror = (): void => {
    const mine = ++generation;
    void mirrorDiagnostics(views).then((all) => {
      if (mine !== generation) return;
      diagnostics.clear();
      for (const [uri, list] of all) diagnostics.set(uri, list);
    });
  };
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

/** The definition's diagnostics inside an embedded field, at the same characters of its own view, by view. */
async function mirrorDiagnostics(views: EmbeddedViews): Promise<[vscode.Uri, vscode.Diagnostic[]][]> {
  const all: [vscode.Uri, vscode.Diagnostic[]][] = [];
  for (const view of embeddedViews(views)) {
    const { definition, field } = views.links.resolve(view.uri)!;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === definition.toString());
    if (!doc) continue;
    const diagnostics = vscode.languages.getDiagnostics(definition);
    const ranges = diagnostics.map((d): [number, number] => [doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)]);
    const placed = (await views.queries.embedded(definition, doc.getText(), field, ranges))?.ranges ?? [];
    const mapped: vscode.Diagnostic[] = [];
    for (const [i, d] of diagnostics.entries()) {
      const at = placed[i];
      if (!at) continue;
      const copy = new vscode.Diagnostic(
        new vscode.Range(at.start.line, at.start.character, at.end.line, at.end.character),
        d.message,
        d.severity,
      );
      copy.code = d.code;
      copy.source = d.source;
      copy.tags = d.tags;
      mapped.push(copy);
    }
    all.push([view.uri, mapped]);
  }
  return all;
}

/** `{{` in an embedded model_prompt: the definition's variable names. */
async function placeholderCompletions(
  views: EmbeddedViews,
  view: vscode.TextDocument,
  position: vscode.Position,
): Promise<vscode.CompletionItem[]> {
  const before = view.lineAt(position.line).text.slice(0, position.character);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.slice(open).includes('}}')) return [];
  const link = views.links.resolve(view.uri);
  if (!link) return [];
  const target = link.definition.toString();
  const definition = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target);
  if (!definition) return [];
  const variables = await views.queries.variables(definition);
  const after = view.lineAt(position.line).text.slice(position.character);
  const closed = after.startsWith('}}');
  const range = new vscode.Range(position.line, open + 2, position.line, position.character);
  return variables.map((v) => {
    const item = new vscode.CompletionItem(v.name, vscode.CompletionItemKind.Variable);
    item.range = range;
    item.insertText = closed ? v.name : `${v.name}}}`;
    item.documentation = v.description;
    return item;
  });
}
