import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import { type EmbeddedText, escapeJsonContent } from './json/embeddedText';
import { nodeAtPath } from './json/nodes';
import type { OffsetEdit } from './json/edits';
import { ToolModel } from './model';
import { LineIndex } from './positions';

/** The string fields that can be edited as a document of their own. */
export type EmbeddedField = 'tool_code' | 'model_prompt';

const FIELD_PATH: Record<EmbeddedField, string[]> = {
  tool_code: ['metadata', 'tool_code'],
  model_prompt: ['model_prompt'],
};

/** The decoded content of `field` in a definition's text, with its position map; undefined when absent. */
export function readEmbedded(uri: string, text: string, field: EmbeddedField): EmbeddedText | undefined {
  const model = new ToolModel(TextDocument.create(uri, 'tooldef', 0, text));
  const node = nodeAtPath(model.root, FIELD_PATH[field]);
  return node?.type === 'string' ? model.embedded(node) : undefined;
}

/**
 * Where the definition's ranges (`[start, end)` offsets) fall in the field's decoded content, as
 * positions of that content; null for a range not wholly inside the field.
 */
export function embeddedRanges(
  embedded: EmbeddedText,
  ranges: readonly (readonly [number, number])[],
): ({ start: Position; end: Position } | null)[] {
  const lines = new LineIndex(embedded.text);
  return ranges.map(([start, end]) =>
    start < embedded.contentStart || end > embedded.contentEnd
      ? null
      : { start: lines.positionAt(embedded.toDecoded(start)), end: lines.positionAt(embedded.toDecoded(end)) },
  );
}

/**
 * Where positions of the field's decoded content (a view's, a traceback's line) are in the definition,
 * as document offsets; undefined for a position past the content.
 */
export function embeddedOffsets(embedded: EmbeddedText, positions: readonly Position[]): (number | undefined)[] {
  const lines = new LineIndex(embedded.text);
  const lineCount = embedded.text.split('\n').length;
  return positions.map((p) =>
    p.line < 0 || p.line >= lineCount || p.character < 0 ? undefined : embedded.toDocument(lines.offsetAt(p)),
  );
}

/**
 * The one edit of the definition's text that makes `field` hold `content`: the literal's characters
 * between the quotes, escaped as JSON. Undefined when the field is gone or no longer a string (the
 * caller then refuses the save rather than guess where the text belongs).
 */
export function writeEmbedded(
  uri: string,
  text: string,
  field: EmbeddedField,
  content: string,
): OffsetEdit | undefined {
  const current = readEmbedded(uri, text, field);
  if (!current) return undefined;
  return {
    offset: current.contentStart,
    length: current.contentEnd - current.contentStart,
    newText: escapeJsonContent(content),
  };
}
