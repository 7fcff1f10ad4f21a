import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseJson, type ParsedJson } from '../json/tree';

const parsed = new WeakMap<TextDocument, { version: number; json: ParsedJson }>();

/** A tests file's JSON, parsed once per version of its document (for its diagnostics and each feature). */
export function parsedTests(doc: TextDocument): ParsedJson {
  const cached = parsed.get(doc);
  if (cached?.version === doc.version) return cached.json;
  const json = parseJson(doc.getText());
  parsed.set(doc, { version: doc.version, json });
  return json;
}
