import type { ToolModel } from './model';
import { referencesOf } from './variableRefs';

/** Token types and modifiers of the legend the server announces. */
export const SEMANTIC_LEGEND = { tokenTypes: ['variable'], tokenModifiers: ['declaration'] };

/**
 * Semantic tokens where a grammar cannot know: the names of declared variables and the placeholders
 * of `model_prompt` that refer to them (a placeholder naming no variable is left to the diagnostic).
 * Returned in LSP's relative encoding.
 */
export function semanticTokens(model: ToolModel): number[] {
  const spans: { offset: number; length: number; modifiers: number }[] = [];
  for (const name of model.variablesByName.keys()) {
    if (!name) continue;
    for (const r of referencesOf(model, name))
      spans.push({ offset: r.offset, length: r.length, modifiers: r.role === 'declaration' ? 1 : 0 });
  }
  spans.sort((a, b) => a.offset - b.offset);
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const s of spans) {
    if (s.length === 0) continue;
    const start = model.positionAt(s.offset);
    const end = model.positionAt(s.offset + s.length);
    if (end.line !== start.line) continue; // JSON strings cannot span lines; stay safe anyway
    data.push(
      start.line - line,
      start.line === line ? start.character - character : start.character,
      end.character - start.character,
      0,
      s.modifiers,
    );
    line = start.line;
    character = start.character;
  }
  return data;
}
