import { Range } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** The edge where offsets become LSP positions (UTF-16 line/character). */
export function toRange(doc: TextDocument, span: { offset: number; length: number }): Range {
  return Range.create(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}
