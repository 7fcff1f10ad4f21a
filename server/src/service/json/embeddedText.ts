import { isEscaped } from './scan';

/**
 * The one place that maps between the decoded content of a JSON string and offsets in the document.
 *
 * Every JSON escape (`\n`, `\"`, `\uXXXX` …) decodes to exactly one UTF-16 code unit, and every other
 * character is copied unit for unit, so the map only has to remember where the escapes are: a decoded
 * offset is its document offset minus the extra characters of the escapes before it. A surrogate pair
 * written as two `\uXXXX` escapes is two escapes, one per code unit.
 */
export class EmbeddedText {
  /** Decoded content. */
  readonly text: string;
  private bounds?: { contentStart: number; contentEnd: number };
  private tables?: { escDecoded: number[]; escExtra: number[] };

  private constructor(
    text: string,
    private readonly doc: string,
    private readonly literal: { readonly offset: number; readonly length: number },
    tables?: { escDecoded: number[]; escExtra: number[] },
  ) {
    this.text = text;
    this.tables = tables;
  }

  /** Document offset of the first content character (just after the opening quote). */
  get contentStart(): number {
    return this.span.contentStart;
  }

  /** Document offset just past the last content character (the closing quote, when there is one). */
  get contentEnd(): number {
    return this.span.contentEnd;
  }

  /**
   * The string literal `literal` (its node: the opening quote and the length; the closing quote may
   * be missing in a broken document). Pass `decoded` when the literal is known to be valid JSON (the
   * parser decoded it already): its position is then read, and the escape table built, only when a
   * position is first mapped. Without it, invalid escapes are kept as their raw characters so that
   * offsets stay meaningful.
   */
  static fromLiteral(
    doc: string,
    literal: { readonly offset: number; readonly length: number },
    decoded?: string,
  ): EmbeddedText {
    if (decoded !== undefined) return new EmbeddedText(decoded, doc, literal);
    const { contentStart, contentEnd } = contentSpan(doc, literal);
    const escDecoded: number[] = [];
    const escExtra: number[] = [];
    const firstEscape = doc.indexOf('\\', contentStart);
    if (firstEscape < 0 || firstEscape >= contentEnd) {
      return new EmbeddedText(doc.slice(contentStart, contentEnd), doc, literal, { escDecoded, escExtra });
    }
    const parts: string[] = [];
    let extra = 0;
    let from = contentStart;
    for (let i = firstEscape; i >= 0 && i < contentEnd; i = doc.indexOf('\\', from)) {
      parts.push(doc.slice(from, i));
      const decodedAt = i - contentStart - extra;
      const c = doc[i + 1];
      let unit: string | undefined;
      let width = 2;
      if (c === 'u') {
        const hex = doc.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex) && i + 6 <= contentEnd) {
          unit = String.fromCharCode(parseInt(hex, 16));
          width = 6;
        }
      } else if (c !== undefined && i + 2 <= contentEnd) {
        unit = SIMPLE_ESCAPES[c];
      }
      if (unit === undefined) {
        // Not a valid escape: keep the backslash literally (the syntax check reports it).
        parts.push('\\');
        from = i + 1;
        continue;
      }
      parts.push(unit);
      extra += width - 1;
      escDecoded.push(decodedAt);
      escExtra.push(extra);
      from = i + width;
    }
    parts.push(doc.slice(from, contentEnd));
    return new EmbeddedText(parts.join(''), doc, literal, { escDecoded, escExtra });
  }

  private get span(): { contentStart: number; contentEnd: number } {
    return (this.bounds ??= contentSpan(this.doc, this.literal));
  }

  /** The escape table of a literal known to be valid: one tight pass over its backslashes. */
  private get escapes(): { escDecoded: number[]; escExtra: number[] } {
    if (this.tables) return this.tables;
    const escDecoded: number[] = [];
    const escExtra: number[] = [];
    const doc = this.doc;
    const { contentStart, contentEnd } = this.span;
    let extra = 0;
    for (let i = doc.indexOf('\\', contentStart); i >= 0 && i < contentEnd;) {
      const width = doc.charCodeAt(i + 1) === 0x75 ? 6 : 2;
      escDecoded.push(i - contentStart - extra);
      extra += width - 1;
      escExtra.push(extra);
      i = doc.indexOf('\\', i + width);
    }
    return (this.tables = { escDecoded, escExtra });
  }

  /** Document offset of decoded offset `d` (0 ≤ d ≤ text.length); an escape maps to its backslash. */
  toDocument(d: number): number {
    const { escDecoded, escExtra } = this.escapes;
    const k = upperBound(escDecoded, d - 1); // escapes strictly before d
    return this.contentStart + d + (k > 0 ? escExtra[k - 1] : 0);
  }

  /** Decoded offset of document offset `o`; an offset inside an escape maps to the unit it produces. */
  toDecoded(o: number): number {
    if (o <= this.contentStart) return 0;
    if (o >= this.contentEnd) return this.text.length;
    const { escDecoded, escExtra } = this.escapes;
    let lo = 0;
    let hi = escDecoded.length;
    // Find the number of escapes that start before document offset o.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.escapeStart(mid) < o) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) {
      const start = this.escapeStart(lo - 1);
      const width = escExtra[lo - 1] - (lo > 1 ? escExtra[lo - 2] : 0) + 1;
      if (o < start + width) return escDecoded[lo - 1];
    }
    return o - this.contentStart - (lo > 0 ? escExtra[lo - 1] : 0);
  }

  /** Document range of the decoded range [start, end). */
  rangeToDocument(start: number, end: number): { offset: number; length: number } {
    const offset = this.toDocument(start);
    return { offset, length: this.toDocument(end) - offset };
  }

  private escapeStart(i: number): number {
    const { escDecoded, escExtra } = this.escapes;
    return this.contentStart + escDecoded[i] + (i > 0 ? escExtra[i - 1] : 0);
  }
}

/** Content bounds of a literal; the closing quote may be missing in a broken document. */
function contentSpan(
  doc: string,
  literal: { readonly offset: number; readonly length: number },
): { contentStart: number; contentEnd: number } {
  const contentStart = literal.offset + 1;
  let contentEnd = literal.offset + literal.length;
  if (literal.length >= 2 && doc.charCodeAt(contentEnd - 1) === 0x22 && !isEscaped(doc, contentEnd - 1, contentStart))
    contentEnd--;
  return { contentStart, contentEnd };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Number of elements of ascending `a` that are ≤ x. */
function upperBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Escapes decoded text as the content of a JSON string literal (without the quotes). */
export function escapeJsonContent(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}
