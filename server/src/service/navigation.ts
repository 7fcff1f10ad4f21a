import {
  DocumentHighlight,
  DocumentHighlightKind,
  Location,
  type Range,
  TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-types';
import { escapeJsonContent } from './json/embeddedText';
import { pythonStringContent } from './python/strings';
import type { ToolModel } from './model';
import { toRange } from './positions';
import { referencesOf, variableAt } from './variableRefs';

/** Go to definition: from a placeholder (or a variable's name) to the variable's declaration. */
export function findDefinition(model: ToolModel, offset: number): Location[] {
  const target = variableAt(model, offset);
  const decl = target?.decl?.nameNode;
  return decl ? [Location.create(model.document.uri, toRange(model, decl))] : [];
}

export function findReferences(model: ToolModel, offset: number, includeDeclaration: boolean): Location[] {
  const target = variableAt(model, offset);
  if (!target) return [];
  return referencesOf(model, target.name)
    .filter((r) => includeDeclaration || r.role !== 'declaration')
    .map((r) => Location.create(model.document.uri, toRange(model, r)));
}

export function findDocumentHighlights(model: ToolModel, offset: number): DocumentHighlight[] {
  const target = variableAt(model, offset);
  if (!target) return [];
  return referencesOf(model, target.name).map((r) =>
    DocumentHighlight.create(
      toRange(model, r),
      r.role === 'declaration' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
    ),
  );
}

export function prepareRename(model: ToolModel, offset: number): { range: Range; placeholder: string } | null {
  const target = variableAt(model, offset);
  if (!target?.decl) return null;
  return { range: toRange(model, target.span), placeholder: target.name };
}

export type RenameResult = { edit: WorkspaceEdit } | { error: string };

/** Renames a variable: its declaration and every placeholder that names it, in one edit. */
export function doRename(model: ToolModel, offset: number, newName: string): RenameResult {
  const target = variableAt(model, offset);
  if (!target?.decl)
    return {
      error: 'Only a declared variable can be renamed: put the cursor on its name or on one of its placeholders.',
    };
  if (!newName.trim()) return { error: 'A variable name cannot be empty.' };
  if (newName !== target.name && model.variableByName(newName))
    return { error: `A variable named "${newName}" already exists.` };
  if (/\{\{|\}\}/.test(newName)) return { error: 'A variable name cannot contain "{{" or "}}".' };
  const edits = referencesOf(model, target.name).map((r) =>
    TextEdit.replace(
      toRange(model, r),
      escapeJsonContent(r.pythonQuote ? pythonStringContent(newName, r.pythonQuote) : newName),
    ),
  );
  return { edit: { changes: { [model.document.uri]: edits } } };
}
