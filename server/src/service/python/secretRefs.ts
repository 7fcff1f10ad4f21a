// Secret references: `<NAME>` (A–Z, 0–9, `_`) inside a string literal of tool_code, the spec's
// `<API_KEY>` convention. Their values are supplied at run time (decisions.md, "Secret references").
import { parser } from './grammar/parser';

export interface SecretRef {
  /** `API_KEY` for `<API_KEY>`. */
  readonly name: string;
  /** The reference `<API_KEY>` itself (UTF-16 offsets into the source, end exclusive). */
  readonly start: number;
  readonly end: number;
  /** The literal's prefix letters, lower-cased (`r`, `b`, `f`, `rb` …) and its quote (`'`, `"""` …). */
  readonly prefix: string;
  readonly quote: string;
}

const REFERENCE = /<([A-Z][A-Z0-9_]*)>/g;
const LITERAL_START = /^([rRbBuUfF]{0,2})('''|"""|'|")/;

/** Every secret reference of a source, in order. */
export function secretReferences(source: string): SecretRef[] {
  if (!source.includes('<')) return [];
  const refs: SecretRef[] = [];
  parser.parse(source).iterate({
    enter: (node) => {
      if (node.name !== 'String' && node.name !== 'FormatString') return undefined;
      const text = source.slice(node.from, node.to);
      const m = LITERAL_START.exec(text);
      if (!m) return false;
      const body = text.slice(m[0].length, text.endsWith(m[2]) ? text.length - m[2].length : text.length);
      for (const r of body.matchAll(REFERENCE)) {
        const start = node.from + m[0].length + r.index;
        refs.push({ name: r[1], start, end: start + r[0].length, prefix: m[1].toLowerCase(), quote: m[2] });
      }
      return false;
    },
  });
  return refs;
}

/** The distinct names referenced, in order of first use. */
export function secretNames(source: string): string[] {
  return [...new Set(secretReferences(source).map((r) => r.name))];
}
