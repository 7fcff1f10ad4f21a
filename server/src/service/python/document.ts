// One tool_code's Python: an incrementally re-parsed lezer tree plus per-chunk analysis results
// reused while a chunk's text is unchanged, so a keystroke costs a re-parse of the edited region
// (≲ 1 ms) and the analysis of the edited top-level statement only.
import { TreeFragment, type SyntaxNode, type Tree, type ChangedRange } from '@lezer/common';
import { parser } from './grammar/parser';
import { ChunkAnalyzer, type ChunkFacts, type RelProblem } from './analyze';
import type { PyProblem, PythonFacts, FunctionInfo } from './types';


/** Finds the changed range of two texts by common prefix and suffix. */
export function diffRange(a: string, b: string): ChangedRange | undefined {
  if (a === b) return undefined;
  const max = Math.min(a.length, b.length);
  let start = 0;
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { fromA: start, toA: endA, fromB: start, toB: endB };
}

export class PythonDocument {
  private text = '';
  private tree: Tree | undefined;
  private fragments: readonly TreeFragment[] = [];
  private cache = new Map<string, ChunkFacts>();
  private last: PythonFacts | undefined;

  /** The source of the last update. */
  get source(): string {
    return this.text;
  }

  /** The facts of the last update (undefined before the first). */
  get facts(): PythonFacts | undefined {
    return this.last;
  }

  /** The current syntax tree (lezer), for callers that want to look at nodes themselves. */
  get syntaxTree(): Tree | undefined {
    return this.tree;
  }

  /** Re-parses `source` (incrementally from the previous one) and returns its facts. */
  update(source: string): PythonFacts {
    if (this.last && source === this.text) return this.last;
    if (this.tree) {
      const change = diffRange(this.text, source);
      this.fragments = change ? TreeFragment.applyChanges(this.fragments, [change]) : this.fragments;
    }
    this.tree = parser.parse(source, this.fragments.length ? this.fragments : undefined);
    this.fragments = TreeFragment.addTree(this.tree, this.fragments);
    this.text = source;
    this.last = this.analyse();
    return this.last;
  }

  private analyse(): PythonFacts {
    const src = this.text;
    const tree = this.tree!;
    const chunks = this.chunks(tree.topNode, src);
    const next = new Map<string, ChunkFacts>();
    const problems: PyProblem[] = [];
    const facts: PythonFacts = { problems, keys: [], dynamicVariables: false, imports: [], functions: [] };
    const lineOf = (offset: number) => {
      let line = 1;
      for (let i = 0; i < offset; i++) {
        const c = src.charCodeAt(i);
        if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) line++;
      }
      return line;
    };
    const executes: { base: number; e: ChunkFacts['executes'][number] }[] = [];
    let nestedExecute = false;
    // `from __future__` imports may follow only a docstring, comments and other futures.
    let futuresAllowed = true;
    let statements = 0;
    for (const ch of chunks) {
      const text = src.slice(ch.from, ch.to);
      let f = this.cache.get(text) ?? next.get(text);
      if (!f) f = new ChunkAnalyzer(src, ch.from, text, ch.nodes, 1).run();
      next.set(text, f);
      const base = ch.from;
      const startLine = f.syntax && /\bline \d/.test(f.syntax.message) ? lineOf(ch.from) : 0;
      const shift = (p: RelProblem): PyProblem =>
        ({
          ...p,
          start: p.start + base,
          end: p.end + base,
          message: startLine ? p.message.replace(/\bline (\d+)\b/g, (_, n: string) => `line ${Number(n) + startLine - 1}`) : p.message,
        }) as PyProblem;
      if (f.syntax) problems.push(shift(f.syntax));
      if (f.first !== 'none') {
        if (f.first === 'future') {
          if (!futuresAllowed) problems.push({ code: 'python-syntax', start: base, end: ch.to, message: 'from __future__ imports must occur at the beginning of the file' });
        } else if (!(f.first === 'docstring' && statements === 0)) futuresAllowed = false;
        statements++;
      }
      for (const fut of f.futures) {
        if (f.first !== 'future' || !futuresAllowed) {
          problems.push({ code: 'python-syntax', start: fut.start + base, end: fut.end + base, message: 'from __future__ imports must occur at the beginning of the file' });
        }
      }
      for (const k of f.keys) facts.keys.push({ ...k, start: k.start + base, end: k.end + base });
      if (f.dynamicVariables) facts.dynamicVariables = true;
      for (const i of f.imports) facts.imports.push({ ...i, start: i.start + base, end: i.end + base });
      for (const fn of f.functions) {
        facts.functions.push({ ...fn, start: fn.start + base, end: fn.end + base, nameStart: fn.nameStart + base, nameEnd: fn.nameEnd + base } as FunctionInfo);
      }
      for (const e of f.executes) executes.push({ base, e });
      if (f.nestedExecute) nestedExecute = true;
      for (const s of f.secrets) problems.push(shift(s));
    }
    this.cache = next;
    // The execute contract.
    if (!executes.length) {
      const hasSyntaxError = problems.some((p) => p.code === 'python-syntax');
      if (!hasSyntaxError || src.trim() === '') {
        problems.push({
          code: 'missing-execute',
          start: 0,
          end: 0,
          message: nestedExecute
            ? '`execute` must be defined at the top level of tool_code, not inside a class or another function.'
            : 'tool_code must define a top-level function `def execute(variables):` that returns a str.',
        });
      }
    } else {
      const [first, ...rest] = executes;
      for (const p of first.e.problems) problems.push({ ...p, start: p.start + first.base, end: p.end + first.base } as PyProblem);
      for (const r of rest) {
        problems.push({
          code: 'execute-redefined',
          start: r.e.nameStart + r.base,
          end: r.e.nameEnd + r.base,
          message: 'A second top-level `execute` replaces the first one; the service runs only the last definition.',
          data: { first: { start: first.e.nameStart + first.base, end: first.e.nameEnd + first.base } },
        });
      }
    }
    problems.sort((a, b) => a.start - b.start || a.end - b.end);
    return facts;
  }

  /**
   * Splits the module into chunks of whole top-level statements, each starting at column 0 of a
   * line, so that CPython's tokenizer state at a chunk start is always clean (no open bracket or
   * string, indentation 0). A chunk spans up to the next chunk's start.
   */
  private chunks(top: SyntaxNode, src: string): { from: number; to: number; nodes: SyntaxNode[] }[] {
    const out: { from: number; to: number; nodes: SyntaxNode[] }[] = [];
    for (let n = top.firstChild; n; n = n.nextSibling) {
      let start = n.from;
      while (start > 0 && src.charCodeAt(start - 1) !== 10 && src.charCodeAt(start - 1) !== 13) start--;
      const clean = start === n.from && !(n.from === n.to && n.type.isError) && n.name !== 'Comment';
      const prev = out[out.length - 1];
      if (prev && (!clean || start < prev.to || this.continues(src, prev.to, start))) {
        prev.nodes.push(n);
        prev.to = Math.max(prev.to, n.to);
      } else if (prev) {
        prev.to = start;
        out.push({ from: start, to: n.to, nodes: [n] });
      } else {
        out.push({ from: 0, to: n.to, nodes: [n] });
      }
    }
    if (out.length) out[out.length - 1].to = src.length;
    else out.push({ from: 0, to: src.length, nodes: [] });
    return out;
  }

  /** True when the text between two statements continues a line (backslash continuation). */
  private continues(src: string, from: number, to: number): boolean {
    for (let i = to - 1; i >= from && i >= 0; i--) {
      const c = src.charCodeAt(i);
      if (c === 10 || c === 13 || c === 32 || c === 9) continue;
      return c === 92;
    }
    return false;
  }
}
