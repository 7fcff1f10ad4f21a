import { format as formatJson, type FormattingOptions } from 'jsonc-parser';
import { FoldingRange, Range, SelectionRange, TextEdit, type Position } from 'vscode-languageserver-types';
import { nodeAtOffset } from './json/nodes';
import { nestingDepth } from './json/tree';
import type { JsonNode } from './json/tree';
import type { ToolModel } from './model';
import { toRange } from './positions';

const MAX_CHAIN = 100;

/** Formatting, folding and selection ranges: what VS Code's JSON support would give a .json file. */
/** Formatting output grows with the square of the depth: deeper documents are left as they are. */
const MAX_FORMAT_DEPTH = 200;

/** A client's tabSize is repeated per level: a huge one would build gigabytes of indentation. */
const MAX_TAB_SIZE = 16;
const DEFAULT_TAB_SIZE = 4;

export function format(model: ToolModel, range: Range | undefined, requested: FormattingOptions): TextEdit[] {
  if (nestingDepth(model.text) > MAX_FORMAT_DEPTH) return [];
  const size = Math.floor(requested.tabSize ?? DEFAULT_TAB_SIZE);
  const options = { ...requested, tabSize: size >= 1 ? Math.min(size, MAX_TAB_SIZE) : DEFAULT_TAB_SIZE };
  const eol = model.text.includes('\r\n') ? '\r\n' : '\n';
  const r = range
    ? { offset: model.offsetAt(range.start), length: model.offsetAt(range.end) - model.offsetAt(range.start) }
    : undefined;
  // jsonc-parser 3.3.1 leaves `content` undefined for a line indented by exactly 200 characters.
  const deepIndent = eol + (options.insertSpaces ? ' ' : '\t').repeat(200);
  return formatJson(model.text, r, { ...options, eol }).map((e) =>
    TextEdit.replace(toRange(model, e), e.content ?? deepIndent),
  );
}

export function getFoldingRanges(model: ToolModel): FoldingRange[] {
  const out: FoldingRange[] = [];
  const todo: JsonNode[] = model.root ? [model.root] : [];
  while (todo.length) {
    const n = todo.pop()!;
    if (n.type === 'object' || n.type === 'array') {
      const start = model.positionAt(n.offset).line;
      const end = model.positionAt(n.offset + n.length).line;
      if (end > start + 1 || (end > start && n.length > 2)) out.push(FoldingRange.create(start, end - 1));
    }
    for (const c of n.children ?? []) if (c.children) todo.push(c);
  }
  return out.sort((a, b) => a.startLine - b.startLine);
}

export function getSelectionRanges(model: ToolModel, positions: readonly Position[]): SelectionRange[] {
  return positions.map((p) => {
    const offset = model.offsetAt(p);
    const chain: JsonNode[] = [];
    // Bounded: a selection chain is serialised recursively by the transport.
    for (let n = nodeAtOffset(model.root, offset); n && chain.length < MAX_CHAIN; n = n.parent) chain.push(n);
    let result: SelectionRange | undefined;
    for (let i = chain.length - 1; i >= 0; i--) {
      const n = chain[i];
      result = SelectionRange.create(toRange(model, n), result);
      if (n.type === 'string' && n.length > 2 && i === 0 && offset > n.offset && offset < n.offset + n.length)
        result = SelectionRange.create(toRange(model, { offset: n.offset + 1, length: n.length - 2 }), result);
    }
    return result ?? SelectionRange.create(Range.create(p, p));
  });
}
