// The chunk's syntax errors as CPython would rank them: the first of its parser (the grammar's error
// recovery, or a form the grammar lets through), of its symbol table and of its compiler, then the
// lexer's verdict on the whole chunk (finish).
import type { SyntaxNode } from '@lezer/common';
import type { ChunkFacts, RelProblem } from '../chunkFacts';
import { lex } from '../lexer';
import { inFormatField, parserMessage } from '../parserMessages';
import { BLOCK_HEADER } from '../statementForms';
import type { Chunk } from '../syntaxNodes';

export type CheckStage = 'parser' | 'symtable' | 'compiler';

export class SyntaxProblems {
  private readonly first: Partial<Record<CheckStage, RelProblem>> = {};

  constructor(private readonly chunk: Chunk) {}

  /** Whether the symbol table has refused something (its checks made at the end come after). */
  get hasSymtableError(): boolean {
    return !!this.first.symtable;
  }

  /** An error at absolute offsets: of each stage the earliest is kept. */
  add(stage: CheckStage, start: number, end: number, message: string): void {
    const rel = this.chunk.rel(start);
    const kept = this.first[stage];
    if (kept && kept.start <= rel) return;
    const problem: RelProblem = {
      code: 'python-syntax',
      start: rel,
      end: this.chunk.rel(Math.max(end, start)),
      message,
      data: { stage },
    };
    this.first[stage] = problem;
  }

  /** A node of the grammar's error recovery: CPython's likeliest message there (the first one met wins). */
  grammarError(node: SyntaxNode): void {
    if (this.first.parser) return;
    const { src, base } = this.chunk;
    let from = node.from;
    let to = node.to;
    if (to === from) {
      // A zero-width error: show the next token (or the previous character at a line end).
      let p = from;
      while (p < src.length && (src[p] === ' ' || src[p] === '\t')) p++;
      if (p < src.length && src[p] !== '\n' && src[p] !== '\r') {
        from = p;
        to = p + 1;
        while (to < src.length && /[\w]/.test(src[to]) && /[\w]/.test(src[from])) to++;
      } else {
        from = Math.max(base, from - 1);
        to = from + 1;
      }
    }
    let lineStart = from;
    while (lineStart > base && src[lineStart - 1] !== '\n' && src[lineStart - 1] !== '\r') lineStart--;
    let lineEnd = from;
    while (lineEnd < src.length && src[lineEnd] !== '\n' && src[lineEnd] !== '\r') lineEnd++;
    const code = src.slice(lineStart, lineEnd).replace(/#.*$/, '').trimEnd();
    let message = 'invalid syntax';
    if (/^\s*print\s+[^\s(=.,)\]}:;+\-*/%&|^<>!]/.test(code))
      message = "Missing parentheses in call to 'print'. Did you mean print(...)?";
    else if (/^\s*exec\s+[^\s(=.,)\]}:;]/.test(code))
      message = "Missing parentheses in call to 'exec'. Did you mean exec(...)?";
    else if (BLOCK_HEADER.test(code) && !code.endsWith(':') && !/:\s*\S/.test(code.replace(/(['"]).*?\1/g, '')))
      message = "expected ':'";
    const specific = parserMessage(node, src);
    if (specific) ({ from, to, message } = specific);
    if (inFormatField(node) && !message.startsWith('f-string')) message = `f-string: ${message}`;
    this.add('parser', from, to, message);
  }

  /**
   * Writes the chunk's errors into `facts`, with the lexer's (run over `text`, the chunk's text): its
   * tokenizer error; the first parser-level error; the symbol table's, else the compiler's.
   */
  finish(facts: ChunkFacts, text: string): void {
    const lexed = lex(text);
    const lexError: RelProblem | undefined = lexed.error && {
      code: 'python-syntax',
      start: lexed.error.start,
      end: lexed.error.end,
      message: lexed.error.message,
      data: { stage: lexed.error.kind },
    };
    if (lexError && lexed.error!.kind === 'tokenizer') facts.tokenError = lexError;
    // A missing block is placed where CPython places it (the next statement); lezer's recovery may
    // flag the header line before it. Prefer the lexer's there; otherwise the earlier error.
    let parse: RelProblem | undefined = lexError && lexed.error!.kind !== 'tokenizer' ? lexError : undefined;
    const lexFirst = parse && parse.message.startsWith('expected an indented block');
    const lexAt = parse && (lexFirst ? lineStartBefore(text, parse.start) : (lexed.error!.from ?? parse.start));
    const parser = this.first.parser;
    if (parser && (lexAt === undefined || parser.start < lexAt)) parse = parser;
    if (parse) facts.parseError = parse;
    const compileError = this.first.symtable ?? this.first.compiler;
    if (compileError) facts.compileError = compileError;
  }
}

/** Offset (in `text`) of the start of the line before the one holding `rel`. */
function lineStartBefore(text: string, rel: number): number {
  let p = Math.min(rel, text.length);
  for (let seen = 0; p > 0; p--) {
    const c = text.charCodeAt(p - 1);
    if ((c === 10 || c === 13) && ++seen === 2) break;
  }
  return p;
}
