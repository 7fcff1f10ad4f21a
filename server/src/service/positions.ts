// Plain objects, not the protocol's factories: modules loaded apart (dist/tests.js) use these too, and the
// factories would bring a copy of the whole types module with them.
import type { Position, Range } from 'vscode-languageserver-types';

/** How many lines `text` has (line feeds plus one). */
export function lineCount(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * Line starts of a text, for the edge where offsets become LSP positions (UTF-16 line/character).
 * Built with `indexOf`, which is far cheaper on multi-megabyte single-line strings (a base64 avatar)
 * than walking characters one by one.
 */
export class LineIndex {
  private starts?: number[];

  constructor(private readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    const t = this.text;
    if (t.indexOf('\r') < 0) {
      for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      const eol = /\r\n?|\n/g;
      for (let m = eol.exec(t); m; m = eol.exec(t)) starts.push(m.index + m[0].length);
    }
    return (this.starts = starts);
  }

  positionAt(offset: number): Position {
    const starts = this.lineStarts();
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - starts[lo] };
  }

  offsetAt(p: Position): number {
    const starts = this.lineStarts();
    if (p.line >= starts.length) return this.text.length;
    if (p.line < 0) return 0;
    const start = starts[p.line];
    let end = p.line + 1 < starts.length ? starts[p.line + 1] : this.text.length;
    while (end > start && (this.text[end - 1] === '\n' || this.text[end - 1] === '\r')) end--;
    return Math.max(start, Math.min(start + p.character, end));
  }
}

export interface HasLines {
  positionAt(offset: number): Position;
}

export function toRange(lines: HasLines, span: { offset: number; length: number }): Range {
  return { start: lines.positionAt(span.offset), end: lines.positionAt(span.offset + span.length) };
}
