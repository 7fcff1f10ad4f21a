import * as vscode from 'vscode';
import type { EmbeddedField, VariableSummary } from '../../../server/src/protocol';
import { LANGUAGE_ID } from '../definitionDocuments';
import { findDocument } from '../openDocuments';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ProblemsOnce } from './problemsOnce';
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

/** How long typing in a view pauses before its diagnostics are asked for again. */
const TYPING_PAUSE_MS = 250;

export function registerEmbeddedEditing(views: EmbeddedViews, problems: ProblemsOnce): vscode.Disposable[] {
  const diagnostics = vscode.languages.createDiagnosticCollection('tooldef-embedded');
  let generation = 0;
  let typing: NodeJS.Timeout | undefined;
  // Answers arrive in any order: only the latest mirroring is shown.
  const mirror = (): void => {
    const mine = ++generation;
    void mirrorDiagnostics(views, problems).then((all) => {
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
    vscode.workspace.onDidOpenTextDocument((d) => {
      if (!views.isView(d.uri)) return;
      mirror();
      problems.refresh(views.links.resolve(d.uri)!.definition);
    }),
    // Typing in a view: its squiggles follow, a moment after the typing stops.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!e.contentChanges.length || !views.isView(e.document.uri)) return;
      clearTimeout(typing);
      typing = setTimeout(mirror, TYPING_PAUSE_MS);
    }),
    { dispose: () => clearTimeout(typing) },
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (!views.isView(d.uri)) return;
      diagnostics.delete(d.uri);
      problems.refresh(views.links.resolve(d.uri)!.definition);
    }),
    vscode.languages.registerCodeActionsProvider(
      { pattern: new vscode.RelativePattern(views.links.folder, '**/*.{tool_code.py,model_prompt.md}') },
      { provideCodeActions: (view, range) => viewFixes(views, problems, view, range) },
      { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] },
    ),
    vscode.languages.registerCompletionItemProvider(
      { language: 'python', pattern: new vscode.RelativePattern(views.links.folder, '**/*.tool_code.py') },
      { provideCompletionItems: (view, position) => variableKeyCompletions(views, view, position) },
      '"',
      "'",
    ),
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

/** A diagnostic with its place in a text as offsets, before it is placed in a view. */
interface Found {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly severity: vscode.DiagnosticSeverity;
  readonly code?: string | number;
  readonly source?: string;
  readonly tags?: vscode.DiagnosticTag[];
}

/**
 * The definition's diagnostics inside an embedded field, at the same characters of its own view, by
 * view. A view with unsaved edits gets those its content would get once written back (asked of the
 * server), so that its squiggles follow the typing, not the last save.
 */
async function mirrorDiagnostics(
  views: EmbeddedViews,
  problems: ProblemsOnce,
): Promise<[vscode.Uri, vscode.Diagnostic[]][]> {
  const all: [vscode.Uri, vscode.Diagnostic[]][] = [];
  for (const view of embeddedViews(views)) {
    const { definition, field } = views.links.resolve(view.uri)!;
    const doc = findDocument(definition);
    if (!doc) continue;
    const found = view.isDirty ? await unsaved(views, doc, view, field) : published(doc, problems);
    if (!found) continue;
    const placed =
      (
        await views.queries.embedded(
          definition,
          found.text,
          field,
          found.list.map((f): [number, number] => [f.start, f.end]),
        )
      )?.ranges ?? [];
    const mapped: vscode.Diagnostic[] = [];
    for (const [i, f] of found.list.entries()) {
      const at = placed[i];
      if (!at) continue;
      const copy = new vscode.Diagnostic(
        new vscode.Range(at.start.line, at.start.character, at.end.line, at.end.character),
        f.message,
        f.severity,
      );
      copy.code = f.code;
      copy.source = f.source;
      copy.tags = f.tags;
      mapped.push(copy);
    }
    all.push([view.uri, mapped]);
  }
  return all;
}

/** The diagnostics the language server published for the definition as it is (the field's included). */
function published(doc: vscode.TextDocument, problems: ProblemsOnce): { text: string; list: Found[] } {
  const list = problems.publishedFor(doc.uri).map((d) => ({
    start: doc.offsetAt(d.range.start),
    end: doc.offsetAt(d.range.end),
    message: d.message,
    severity: d.severity,
    code: typeof d.code === 'object' ? d.code.value : d.code,
    source: d.source,
    tags: d.tags,
  }));
  return { text: doc.getText(), list };
}

/** Those the definition would get with the view's unsaved content written back into its field. */
async function unsaved(
  views: EmbeddedViews,
  doc: vscode.TextDocument,
  view: vscode.TextDocument,
  field: EmbeddedField,
): Promise<{ text: string; list: Found[] } | undefined> {
  const edit = await views.queries.writeEmbedded(doc.uri, doc.getText(), field, view.getText());
  if (!edit) return undefined;
  const before = doc.getText();
  const text = before.slice(0, edit.offset) + edit.newText + before.slice(edit.offset + edit.length);
  const lines = TextDocument.create(doc.uri.toString(), 'json', 0, text);
  const list = (await views.queries.diagnose(doc, text)).map((d) => ({
    start: lines.offsetAt(d.range.start),
    end: lines.offsetAt(d.range.end),
    message: typeof d.message === 'string' ? d.message : d.message.value,
    severity: (d.severity ?? 1) - 1,
    code: typeof d.code === 'object' ? undefined : d.code,
    source: d.source,
    tags: d.tags?.map((t) => (t === 1 ? vscode.DiagnosticTag.Unnecessary : vscode.DiagnosticTag.Deprecated)),
  }));
  return { text, list };
}

/**
 * A view's quick fixes are its definition's: for the definition's problems at the same characters, the
 * server's fixes, which edit the definition (a clean view then follows it). A view with unsaved edits
 * has none: the definition does not hold what it shows yet.
 */
async function viewFixes(
  views: EmbeddedViews,
  problems: ProblemsOnce,
  view: vscode.TextDocument,
  range: vscode.Range,
): Promise<vscode.CodeAction[]> {
  const link = views.links.resolve(view.uri);
  const definition = definitionOf(views, view);
  if (!link || !definition || view.isDirty) return [];
  const [start, end] = await views.queries.embeddedPositions(definition, link.field, [range.start, range.end]);
  if (!start || !end) return [];
  const at = new vscode.Range(start, end);
  const touching = problems.publishedFor(definition.uri).filter((d) => d.range.intersection(at) !== undefined);
  return views.queries.fixes(definition.uri, at, touching);
}

/** The definition (open) that a view edits. */
function definitionOf(views: EmbeddedViews, view: vscode.TextDocument): vscode.TextDocument | undefined {
  const definition = views.links.resolve(view.uri)?.definition;
  return definition && findDocument(definition);
}

/** `variables["` or `variables.get("` in the tool_code view: the definition's variable names, as in the JSON. */
async function variableKeyCompletions(
  views: EmbeddedViews,
  view: vscode.TextDocument,
  position: vscode.Position,
): Promise<vscode.CompletionItem[]> {
  const before = view.lineAt(position.line).text.slice(0, position.character);
  const key = /\bvariables(?:\[|\.get\()\s*(["'])([^"'\\]*)$/.exec(before);
  const definition = key && definitionOf(views, view);
  if (!key || !definition) return [];
  const range = new vscode.Range(position.line, position.character - key[2].length, position.line, position.character);
  return (await views.queries.variables(definition)).map((v, i) => variableItem(v, i, range, v.name));
}

/** A declared variable as a completion item, in the outline's order. */
function variableItem(
  v: VariableSummary,
  index: number,
  range: vscode.Range,
  insertText: string,
): vscode.CompletionItem {
  const item = new vscode.CompletionItem(v.name, vscode.CompletionItemKind.Variable);
  item.range = range;
  item.insertText = insertText;
  item.documentation = v.description;
  item.sortText = String(index).padStart(4, '0');
  return item;
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
  const definition = definitionOf(views, view);
  if (!definition) return [];
  const variables = await views.queries.variables(definition);
  const after = view.lineAt(position.line).text.slice(position.character);
  const closed = after.startsWith('}}');
  const range = new vscode.Range(position.line, open + 2, position.line, position.character);
  return variables.map((v, i) => variableItem(v, i, range, closed ? v.name : `${v.name}}}`));
}
