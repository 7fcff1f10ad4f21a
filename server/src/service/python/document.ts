// One tool_code's Python: an incrementally re-parsed lezer tree plus per-chunk analysis results
// reused while a chunk's text is unchanged, so a keystroke costs a re-parse of the edited region
// (≲ 1 ms) and the analysis of the edited top-level statement only.
import { TreeFragment, type SyntaxNode, type Tree, type ChangedRange } from '@lezer/common';
import { parser } from './grammar/parser';
import { analyzeChunk } from './analyze';
import { declarationError } from './symbolFlags';
import type { ChunkFacts, RelProblem } from './chunkFacts';
import { lex } from './lexer';
import { checkModuleNames } from './moduleNames';
import type { PyProblem, PythonFacts, FunctionInfo } from './types';
import { finish, type Steps } from '../steps';

/** Parser steps (about one token each) between two yields of `updateSteps`. */
const PARSE_STEPS_PER_YIELD = 256;

/**
 * The changed range of two texts by common prefix and suffix. Compares 1 KB blocks first (V8
 * compares flat strings with memcmp), then characters, so a keystroke in 200 KB costs microseconds.
 */
export function diffRange(a: string, b: string): ChangedRange | undefined {
  if (a === b) return undefined;
  const max = Math.min(a.length, b.length);
  const BLOCK = 1024;
  let start = 0;
  while (start + BLOCK <= max && a.slice(start, start + BLOCK) === b.slice(start, start + BLOCK)) start += BLOCK;
  while (start < max && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let endA = a.length;
  let endB = b.length;
  while (
    endA - BLOCK >= start &&
    endB - BLOCK >= start &&
    a.slice(endA - BLOCK, endA) === b.slice(endB - BLOCK, endB)
  ) {
    endA -= BLOCK;
    endB -= BLOCK;
  }
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  return { fromA: start, toA: endA, fromB: start, toB: endB };
}

/** A zero-width range made visible: the word or character at it, or the character before at a line end. */
function visible(src: string, start: number, end: number): { start: number; end: number } {
  if (end > start) return { start, end };
  const c = src.charCodeAt(start);
  if (start < src.length && c !== 10 && c !== 13) {
    let e = start + 1;
    while (e < src.length && /\w/.test(src[e]) && /\w/.test(src[start])) e++;
    return { start, end: e };
  }
  return start > 0 ? { start: start - 1, end: start } : { start, end };
}

interface ChunkResult {
  from: number;
  to: number;
  facts: ChunkFacts;
  /** No earlier chunk had a syntax error when this one was analysed (see analyse()). */
  clean: boolean;
}

export class PythonDocument {
  private text = '';
  private tree: Tree | undefined;
  private fragments: readonly TreeFragment[] = [];
  private previous: ChunkResult[] = [];
  private last: PythonFacts | undefined;
  /** Counts committed updates (see updateSteps). */
  private generation = 0;
  private work = { chunks: 0, analysed: 0 };

  /**
   * What the last committed update did: the chunks (top-level statements) in all, and how many were
   * analysed rather than reused from the update before (all of them on a first update).
   */
  get lastWork(): { readonly chunks: number; readonly analysed: number } {
    return this.work;
  }

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

  /**
   * Re-parses `source` incrementally from the previous source and returns its facts. The changed
   * range is found by common prefix/suffix unless the caller passes it (`change`, offsets of the
   * previous source `fromA..toA` replaced by `fromB..toB` of the new one).
   */
  update(source: string, change?: ChangedRange): PythonFacts {
    return finish(this.updateSteps(source, change));
  }

  /**
   * `update` as resumable steps, for a caller that interleaves it with other work (the language
   * server answers requests between slices): the generator yields every few hundred parser steps
   * and after each analysed top-level statement, and returns the facts. The document itself changes
   * only at the last step, so a generator dropped half-way leaves it as it was, and one finished
   * after another update has been committed is not committed itself.
   */
  *updateSteps(source: string, change?: ChangedRange): Steps<PythonFacts> {
    if (this.last && source.length === this.text.length && source === this.text) {
      this.work = { chunks: this.work.chunks, analysed: 0 };
      return this.last;
    }
    const generation = this.generation;
    const c = this.tree ? (change ?? diffRange(this.text, source)) : undefined;
    const fragments = c ? TreeFragment.applyChanges(this.fragments, [c]) : this.fragments;
    const parse = parser.startParse(source, fragments.length ? fragments : undefined);
    let tree: Tree | null;
    for (let steps = 1; !(tree = parse.advance()); steps++) if (steps % PARSE_STEPS_PER_YIELD === 0) yield;
    const { facts, results, analysed } = yield* this.analyse(source, tree, c);
    if (this.generation === generation) {
      this.generation++;
      this.work = { chunks: results.length, analysed };
      this.tree = tree;
      this.fragments = TreeFragment.addTree(tree, fragments);
      this.text = source;
      this.previous = results;
      this.last = facts;
    }
    return facts;
  }

  private *analyse(
    src: string,
    tree: Tree,
    change: ChangedRange | undefined,
  ): Steps<{ facts: PythonFacts; results: ChunkResult[]; analysed: number }> {
    const chunks = this.chunks(tree.topNode, src);
    const results: ChunkResult[] = [];
    // Previous chunk results by their start, for reuse of chunks the change did not touch.
    const delta = change ? change.toB - change.fromB - (change.toA - change.fromA) : 0;
    const old = new Map<number, ChunkResult>();
    if (change) for (const r of this.previous) old.set(r.from, r);
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
    /** `parsed`: its chunk parsed, so its contract problems are not a syntax error's echo. */
    const executes: { base: number; e: ChunkFacts['executes'][number]; parsed: boolean }[] = [];
    let nestedExecute = false;
    let boundExecute = false;
    // `from __future__` imports may follow only a docstring, comments and other futures.
    let futuresAllowed = true;
    // How each module-level name occurred in the chunks so far, for module-level `global` statements.
    const moduleNames = new Map<string, number>();
    let statements = 0;
    let analysed = 0;
    let broken = false;
    let clean = true;
    for (const ch of chunks) {
      // A chunk's facts depend on its text alone only while everything before it parses: after a
      // syntax error, lezer's recovery can leave a different context at the chunk start.
      let f: ChunkFacts | undefined;
      if (change && clean) {
        // Unchanged text: entirely before the change, or entirely after it (shifted by delta).
        const before = ch.to <= change.fromB ? old.get(ch.from) : undefined;
        const after = ch.from >= change.toB ? old.get(ch.from - delta) : undefined;
        const r = before ?? after;
        if (r && r.clean && r.to - r.from === ch.to - ch.from && (before ? r.to <= change.fromA : r.from >= change.toA))
          f = r.facts;
      }
      if (!f) {
        f = analyzeChunk(src, ch.from, src.slice(ch.from, ch.to), ch.nodes);
        analysed++;
      }
      results.push({ from: ch.from, to: ch.to, facts: f, clean });
      if (f.tokenError || f.parseError) clean = false;
      const base = ch.from;
      const startLine = [f.tokenError, f.parseError].some((e) => e && /\bline \d/.test(e.message))
        ? lineOf(ch.from)
        : 0;
      const shift = (p: RelProblem): PyProblem => ({
        ...p,
        ...visible(src, p.start + base, p.end + base),
        message: startLine
          ? p.message.replace(/\bline (\d+)\b/g, (_, n: string) => `line ${Number(n) + startLine - 1}`)
          : p.message,
      });
      if (f.tokenError || f.parseError) broken = true;
      if (f.parseError) problems.push(shift(f.parseError));
      else if (f.compileError) problems.push(shift(f.compileError));
      if (!f.parseError && !f.tokenError) {
        for (const g of f.moduleGlobals ?? []) {
          const message = declarationError(g.name, (moduleNames.get(g.name) ?? 0) | g.before, false);
          if (message)
            problems.push({
              code: 'python-syntax',
              start: g.start + base,
              end: g.end + base,
              message,
              data: { stage: 'symtable' },
            });
        }
      }
      for (const [name, flags] of f.moduleNames ?? []) moduleNames.set(name, (moduleNames.get(name) ?? 0) | flags);
      if (f.first !== 'none') {
        if (f.first === 'future') {
          if (!futuresAllowed)
            problems.push({
              code: 'python-syntax',
              start: base,
              end: ch.to,
              message: 'from __future__ imports must occur at the beginning of the file',
              data: { stage: 'compiler' },
            });
        } else if (!(f.first === 'docstring' && statements === 0)) futuresAllowed = false;
        statements++;
      }
      for (const fut of f.futures) {
        if (f.first !== 'future' || !futuresAllowed) {
          problems.push({
            code: 'python-syntax',
            start: fut.start + base,
            end: fut.end + base,
            message: 'from __future__ imports must occur at the beginning of the file',
            data: { stage: 'compiler' },
          });
        }
      }
      for (const k of f.keys) facts.keys.push({ ...k, start: k.start + base, end: k.end + base });
      if (f.dynamicVariables) facts.dynamicVariables = true;
      for (const i of f.imports) facts.imports.push({ ...i, start: i.start + base, end: i.end + base });
      for (const fn of f.functions) {
        facts.functions.push({
          ...fn,
          start: fn.start + base,
          end: fn.end + base,
          nameStart: fn.nameStart + base,
          nameEnd: fn.nameEnd + base,
        } as FunctionInfo);
      }
      for (const e of f.executes) executes.push({ base, e, parsed: !f.tokenError && !f.parseError });
      if (f.nestedExecute) nestedExecute = true;
      if (f.boundExecute) boundExecute = true;
      for (const s of f.secrets) problems.push(shift(s));
      yield;
    }
    if (broken) {
      // CPython reports the first tokenizer error of the whole file in preference to any parser
      // error. Chunks were lexed on their own, which is exact while the module parses; once it does
      // not, chunk boundaries may not be where CPython's tokenizer has a clean state (an unbalanced
      // triple quote flips every string after it), so the whole file is lexed once more.
      const whole = lex(src, true).error;
      if (whole) {
        // One error per line: the tokenizer's message is the precise one.
        let ls = whole.start;
        while (ls > 0 && src.charCodeAt(ls - 1) !== 10 && src.charCodeAt(ls - 1) !== 13) ls--;
        let le = whole.start;
        while (le < src.length && src.charCodeAt(le) !== 10 && src.charCodeAt(le) !== 13) le++;
        // A token that runs to the end of the file holds the rest: what the parser made of it is an echo.
        for (let i = problems.length - 1; i >= 0; i--) {
          const p = problems[i];
          if (p.code === 'python-syntax' && ((p.start >= ls && p.start <= le) || (whole.toEnd && p.start > le)))
            problems.splice(i, 1);
        }
        problems.push({
          code: 'python-syntax',
          start: whole.start,
          end: whole.end,
          message: whole.message,
          data: { stage: 'tokenizer' },
        });
      }
    }
    // The execute contract.
    if (!executes.length && !boundExecute) {
      const hasSyntaxError = problems.some((p) => p.code === 'python-syntax');
      if (!hasSyntaxError || src.trim() === '') {
        problems.push({
          code: 'missing-execute',
          start: 0,
          end: 0,
          message: nestedExecute
            ? "'execute' must be defined at the top level of tool_code, not inside a class or another function."
            : "tool_code must define a top-level function 'def execute(variables):' that returns a str.",
        });
      }
    } else if (executes.length) {
      const [first, ...rest] = executes;
      if (first.parsed)
        for (const p of first.e.problems) problems.push({ ...p, start: p.start + first.base, end: p.end + first.base });
      for (const r of rest) {
        problems.push({
          code: 'execute-redefined',
          start: r.e.nameStart + r.base,
          end: r.e.nameEnd + r.base,
          message: "A second top-level 'execute' replaces the first one; the service runs only the last definition.",
          data: { first: { start: first.e.nameStart + first.base, end: first.e.nameEnd + first.base } },
        });
      }
    }
    if (!problems.some((p) => p.code === 'python-syntax')) {
      // Names as pyflakes checks them, once the module compiles (a broken module's names would mislead).
      const named = results.flatMap((r) => (r.facts.names ? [{ base: r.from, names: r.facts.names }] : []));
      problems.push(...checkModuleNames(named));
    }
    problems.sort((a, b) => a.start - b.start || a.end - b.end);
    return { facts, results, analysed };
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
