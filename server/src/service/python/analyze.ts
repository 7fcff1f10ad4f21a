// Analysis of one top-level chunk of a Python module: the syntax errors CPython 3.11 would raise
// that the grammar tolerates (compile-time checks of its parser, symtable and compiler), and the
// facts the tool_code rules need (execute, variables keys, imports, functions, literals).
// Everything here is relative to the chunk start, so a chunk's result can be reused while its text
// is unchanged (see document.ts).
import type { SyntaxNode } from '@lezer/common';
import { lex } from './lexer';
import { secretInString, secretInAssignment, type SecretHit } from './secrets';
import type { FunctionInfo, ImportRef, VariableKeyRef } from './types';

export interface RelProblem {
  code: string;
  start: number;
  end: number;
  message: string;
  data?: unknown;
}

// The public shapes, with offsets relative to the chunk start.
export type RelKey = VariableKeyRef;
export type RelImport = ImportRef;
export type RelFunction = FunctionInfo;

export interface RelExecute {
  nameStart: number;
  nameEnd: number;
  async: boolean;
  /** execute-signature / execute-async / execute-returns-non-string problems of this definition. */
  problems: RelProblem[];
}

export interface ChunkFacts {
  /** The first error of CPython's tokenizer in the chunk (lexed on its own). */
  tokenError?: RelProblem;
  /** The first parser-level error: lezer's, or the lexer's unexpected indent / missing block / literal contents. */
  parseError?: RelProblem;
  /** The first compile-time error (symtable, compiler) of the chunk. */
  compileError?: RelProblem;
  keys: RelKey[];
  dynamicVariables: boolean;
  imports: RelImport[];
  functions: RelFunction[];
  executes: RelExecute[];
  /** `execute` defined somewhere that is not the top level (a method, a nested function). */
  nestedExecute: boolean;
  /** `execute = …` or `import … as execute` at the top level: defined, but not checkable. */
  boundExecute: boolean;
  secrets: RelProblem[];
  /** Leading statements that CPython lets precede `from __future__` (docstring) and the futures. */
  first: 'docstring' | 'future' | 'other' | 'none';
  /** `from __future__ import …` statements after the first statement of the chunk. */
  futures: { start: number; end: number }[];
  /**
   * Module-level names of the chunk with their SymbolFlags, and its module-level `global` statements
   * with the flags their names had earlier in the chunk: the module's own check spans chunks.
   */
  moduleNames?: Map<string, number>;
  moduleGlobals?: { name: string; start: number; end: number; before: number }[];
}

const FUTURE_FEATURES = new Set([
  'nested_scopes',
  'generators',
  'division',
  'absolute_import',
  'with_statement',
  'print_function',
  'unicode_literals',
  'barry_as_FLUFL',
  'generator_stop',
  'annotations',
]);

const BLOCK_HEADER = /^[ \t]*(?:async[ \t]+)?(?:def|class|if|elif|else|for|while|with|try|except|finally|match|case)\b/;

interface Scope {
  kind: 'module' | 'function' | 'class' | 'lambda' | 'comprehension';
  async: boolean;
  loop: boolean;
  /** For functions: positions of `yield`, `return value`, `yield from`. */
  yields?: number[];
  returnsWithValue?: { start: number; end: number }[];
  /** Comprehension kind for messages ('list comprehension'…). */
  what?: string;
  /** The scope this one is nested in (undefined for the module). */
  parent?: Scope;
  /** Names seen in this scope with their SymbolFlags (see ChunkAnalyzer.tracksNames for where). */
  symbols?: Map<string, number>;
  /** This scope's `global` and `nonlocal` statements, for the checks made once the chunk is walked. */
  directives?: { name: string; from: number; to: number }[];
}

/**
 * How a name occurs in a scope, after CPython's symtable: only what its checks of `global` and
 * `nonlocal` statements read (an import binds a name but is no error before `global`).
 */
const enum SymbolFlag {
  Use = 1,
  Local = 2,
  Param = 4,
  Annotated = 8,
  Global = 16,
  Nonlocal = 32,
  Import = 64,
}

/**
 * CPython's error for a `global`/`nonlocal` of `name` in a scope where it already occurred as `seen`
 * (SymbolFlags), or undefined: its symtable checks these in this order.
 */
export function declarationError(name: string, seen: number, nonlocal: boolean): string | undefined {
  const what = nonlocal ? 'nonlocal' : 'global';
  if (seen & SymbolFlag.Param) return `name '${name}' is parameter and ${what}`;
  if (seen & SymbolFlag.Use) return `name '${name}' is used prior to ${what} declaration`;
  if (seen & SymbolFlag.Annotated) return `annotated name '${name}' can't be ${what}`;
  if (seen & SymbolFlag.Local) return `name '${name}' is assigned to before ${what} declaration`;
  return undefined;
}

/** Child nodes, comments left out. */
function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name !== 'Comment') out.push(c);
  return out;
}

/** The first error node inside `node` (document order), if any. */
function firstError(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type.isError) return node;
  const c = node.cursor();
  const end = node.to;
  while (c.next()) {
    if (c.from > end || (c.from === end && c.to === end && !c.type.isError)) break;
    if (c.type.isError) return c.node;
  }
  return undefined;
}

/** Splits arguments at commas, except the commas of a comprehension's target list (`for k, v in`). */
function splitArgs(nodes: SyntaxNode[]): SyntaxNode[][] {
  const out: SyntaxNode[][] = [[]];
  let inTargets = false;
  for (const n of nodes) {
    if (n.name === 'for') inTargets = true;
    else if (n.name === 'in') inTargets = false;
    if (n.name === ',' && !inTargets) out.push([]);
    else out[out.length - 1].push(n);
  }
  return out;
}

/** Splits a child list at separator nodes (by name); separators are dropped. */
function split(nodes: SyntaxNode[], sep: string): SyntaxNode[][] {
  const out: SyntaxNode[][] = [[]];
  for (const n of nodes) {
    if (n.name === sep) out.push([]);
    else out[out.length - 1].push(n);
  }
  return out;
}

const COMPREHENSIONS: Record<string, string> = {
  ArrayComprehensionExpression: 'list comprehension',
  SetComprehensionExpression: 'set comprehension',
  DictionaryComprehensionExpression: 'dict comprehension',
  ComprehensionExpression: 'generator expression',
};

/** What CPython calls an expression that cannot be a target. */
function describe(node: SyntaxNode, src: string): string {
  switch (node.name) {
    case 'CallExpression':
      return 'function call';
    case 'Number':
    case 'String':
    case 'ContinuedString':
      return 'literal';
    case 'FormatString':
      return 'f-string expression';
    case 'None':
      return 'None';
    case 'Boolean':
      return src.slice(node.from, node.to);
    case 'Ellipsis':
      return 'ellipsis';
    case 'ConditionalExpression':
      return 'conditional expression';
    case 'LambdaExpression':
      return 'lambda';
    case 'AwaitExpression':
      return 'await expression';
    case 'YieldExpression':
      return 'yield expression';
    case 'NamedExpression':
      return 'named expression';
    case 'DictionaryExpression':
      return 'dict literal';
    case 'SetExpression':
      return 'set display';
    case 'BinaryExpression': {
      const op = node.firstChild?.nextSibling;
      if (op && (op.name === 'CompareOp' || op.name === 'in' || op.name === 'not' || op.name === 'is'))
        return 'comparison';
      return 'expression';
    }
    default:
      return COMPREHENSIONS[node.name] ?? 'expression';
  }
}

/** The string value of a plain (non-f, non-bytes) string literal without escapes, or undefined. */
export function plainString(
  node: SyntaxNode,
  src: string,
): { value: string; start: number; end: number; quote: string } | undefined {
  if (node.name !== 'String') return undefined;
  const text = src.slice(node.from, node.to);
  const m = /^([rRuU]?)('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  const q = m[2];
  if (!text.endsWith(q) || text.length < m[0].length + q.length) return undefined;
  const value = text.slice(m[0].length, text.length - q.length);
  if (value.includes('\\')) return undefined;
  return { value, start: node.from + m[0].length, end: node.to - q.length, quote: q };
}

/** Decodes a string literal's value well enough for the secret rules (escapes kept verbatim). */
function stringValue(node: SyntaxNode, src: string): string | undefined {
  const text = src.slice(node.from, node.to);
  const m = /^([rRuUbB]{0,2})('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  return text.slice(m[0].length, Math.max(m[0].length, text.length - m[2].length));
}

export class ChunkAnalyzer {
  private readonly facts: ChunkFacts = {
    keys: [],
    dynamicVariables: false,
    imports: [],
    functions: [],
    executes: [],
    nestedExecute: false,
    boundExecute: false,
    secrets: [],
    first: 'none',
    futures: [],
  };
  private parseError?: RelProblem;
  private semantic?: RelProblem;
  private readonly scopes: Scope[] = [{ kind: 'module', async: false, loop: false }];
  private guardDepth = 0;
  /**
   * Whether names are tracked in function and class scopes: only chunks that mention `global` or
   * `nonlocal` can break CPython's rules there, so other chunks skip the bookkeeping. Module-level
   * names are always tracked: a `global` in a later chunk may need them.
   */
  private readonly tracksNames: boolean;
  /** Positions of the names that occurrences bind (walked again as expressions, they are no use). */
  private readonly bindings = new Set<number>();
  /** Function and class scopes holding `global`/`nonlocal` statements. */
  private readonly declaring: Scope[] = [];

  /**
   * @param src the whole source; `base` the chunk's offset in it; `text` the chunk's text
   * @param nodes the top-level nodes of the chunk (positions absolute)
   */
  constructor(
    private readonly src: string,
    private readonly base: number,
    private readonly text: string,
    private readonly nodes: SyntaxNode[],
    private readonly lineBase: number,
  ) {
    this.tracksNames = /\b(?:global|nonlocal)\b/.test(text);
  }

  run(): ChunkFacts {
    const lexed = lex(this.text);
    const statements: SyntaxNode[] = [];
    for (const node of this.nodes) {
      if (node.name === 'StatementGroup') statements.push(...children(node).filter((k) => k.name !== ';'));
      else if (node.name !== 'Comment') statements.push(node);
    }
    statements.forEach((node, i) => {
      const kind = this.statementKind(node);
      if (i === 0) this.facts.first = kind;
      else if (kind === 'future') this.facts.futures.push({ start: this.rel(node.from), end: this.rel(node.to) });
      if (kind === 'future') {
        for (const f of this.futureFeatures(node)) {
          if (f.name === 'braces') this.error(f.start + this.base, f.end + this.base, 'not a chance');
          else if (!FUTURE_FEATURES.has(f.name))
            this.error(f.start + this.base, f.end + this.base, `future feature ${f.name} is not defined`);
        }
      }
    });
    for (const node of this.nodes) {
      const err = firstError(node);
      if (err) this.parseErrorAt(err);
      this.statement(node);
    }
    this.checkDeclarations();
    const moduleNames = this.scopes[0].symbols;
    if (moduleNames) this.facts.moduleNames = moduleNames;
    const lexError: RelProblem | undefined = lexed.error && {
      code: 'python-syntax',
      start: lexed.error.start,
      end: lexed.error.end,
      message: this.lines(lexed.error.message),
      data: { stage: lexed.error.kind },
    };
    if (lexError && lexed.error!.kind === 'tokenizer') this.facts.tokenError = lexError;
    // A missing block is placed where CPython places it (the next statement); lezer's recovery may
    // flag the header line before it. Prefer the lexer's there; otherwise the earlier error.
    let parse = lexError && lexed.error!.kind !== 'tokenizer' ? lexError : undefined;
    const lexFirst = parse && parse.message.startsWith('expected an indented block');
    if (
      this.parseError &&
      (!parse || this.parseError.start < (lexFirst ? this.lineStartBefore(parse.start) : parse.start))
    )
      parse = this.parseError;
    if (parse) this.facts.parseError = parse;
    if (this.semantic) this.facts.compileError = this.semantic;
    return this.facts;
  }

  /** Offset (in the chunk) of the start of the line before the one holding `rel`. */
  private lineStartBefore(rel: number): number {
    const text = this.text;
    let p = Math.min(rel, text.length);
    for (let seen = 0; p > 0; p--) {
      const c = text.charCodeAt(p - 1);
      if ((c === 10 || c === 13) && ++seen === 2) break;
    }
    return p;
  }

  /** Lexer messages count lines from the chunk start; make them absolute. */
  private lines(message: string): string {
    return message.replace(/\b(line) (\d+)\b/g, (_, w: string, n: string) => `${w} ${Number(n) + this.lineBase - 1}`);
  }

  private rel(offset: number): number {
    return offset - this.base;
  }

  private t(node: SyntaxNode): string {
    return this.src.slice(node.from, node.to);
  }

  private statementKind(node: SyntaxNode): ChunkFacts['first'] {
    if (
      node.name === 'ExpressionStatement' &&
      node.firstChild &&
      node.firstChild.name === 'String' &&
      !node.firstChild.nextSibling
    )
      return 'docstring';
    if (node.name === 'ExpressionStatement' && node.firstChild?.name === 'ContinuedString') return 'docstring';
    if (node.name === 'ImportStatement' && /^from\s+__future__\s+import\b/.test(this.t(node))) return 'future';
    return 'other';
  }

  private futureFeatures(node: SyntaxNode): { name: string; start: number; end: number }[] {
    const kids = children(node);
    const i = kids.findIndex((k) => k.name === 'import');
    const out: { name: string; start: number; end: number }[] = [];
    for (let j = i + 1; j < kids.length; j++) {
      const k = kids[j];
      if (k.name === 'VariableName' && kids[j - 1]?.name !== 'as')
        out.push({ name: this.t(k), start: this.rel(k.from), end: this.rel(k.to) });
    }
    if (/\bimport\s*\*/.test(this.t(node))) out.push({ name: '*', start: this.rel(node.from), end: this.rel(node.to) });
    return out;
  }

  // ---------------------------------------------------------------- problems

  private error(start: number, end: number, message: string): void {
    if (this.semantic && this.semantic.start <= this.rel(start)) return;
    this.semantic = {
      code: 'python-syntax',
      start: this.rel(start),
      end: this.rel(Math.max(end, start)),
      message,
      data: { stage: 'compiler' },
    };
  }

  private parseErrorAt(node: SyntaxNode): void {
    if (this.parseError) return;
    const src = this.src;
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
        from = Math.max(this.base, from - 1);
        to = from + 1;
      }
    }
    // Message: the likeliest of CPython's.
    let lineStart = from;
    while (lineStart > this.base && src[lineStart - 1] !== '\n' && src[lineStart - 1] !== '\r') lineStart--;
    let lineEnd = from;
    while (lineEnd < src.length && src[lineEnd] !== '\n' && src[lineEnd] !== '\r') lineEnd++;
    const line = src.slice(lineStart, lineEnd);
    let message = 'invalid syntax';
    const code = line.replace(/#.*$/, '').trimEnd();
    if (/^\s*print\s+[^\s(=.,)\]}:;+\-*/%&|^<>!]/.test(code))
      message = "Missing parentheses in call to 'print'. Did you mean print(...)?";
    else if (/^\s*exec\s+[^\s(=.,)\]}:;]/.test(code))
      message = "Missing parentheses in call to 'exec'. Did you mean exec(...)?";
    else if (BLOCK_HEADER.test(code) && !code.endsWith(':') && !/:\s*\S/.test(code.replace(/(['"]).*?\1/g, '')))
      message = "expected ':'";
    this.parseError = {
      code: 'python-syntax',
      start: this.rel(from),
      end: this.rel(to),
      message,
      data: { stage: 'parser' },
    };
  }

  // ---------------------------------------------------------------- walking

  private get scope(): Scope {
    return this.scopes[this.scopes.length - 1];
  }

  private functionScope(): Scope | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i];
      if (s.kind === 'function' || s.kind === 'lambda') return s;
      if (s.kind === 'class' || s.kind === 'module') return undefined;
    }
    return undefined;
  }

  private enter(scope: Scope): void {
    scope.parent = this.scope;
    this.scopes.push(scope);
  }

  private tracking(scope: Scope): boolean {
    return this.tracksNames || scope.kind === 'module';
  }

  /** Records how `name` occurs in `scope`. */
  private note(scope: Scope, name: string, flag: SymbolFlag): void {
    if (!this.tracking(scope)) return;
    const symbols = (scope.symbols ??= new Map());
    symbols.set(name, (symbols.get(name) ?? 0) | flag);
  }

  /** A name bound here (assigned, deleted, defined, captured …) in the current scope, or `scope`. */
  private bind(node: SyntaxNode, flag: SymbolFlag = SymbolFlag.Local, scope = this.scope): void {
    if (!this.tracking(scope)) return;
    this.bindings.add(node.from);
    this.note(scope, this.t(node), flag);
  }

  /** `global`/`nonlocal` names: CPython's checks against what the scope already did with them. */
  private declaration(node: SyntaxNode): void {
    const nonlocal = /^nonlocal\b/.test(this.t(node));
    const scope = this.scope;
    if (nonlocal && scope.kind === 'module')
      return this.error(node.from, node.to, 'nonlocal declaration not allowed at module level');
    for (const k of children(node)) {
      if (k.name !== 'VariableName') continue;
      const name = this.t(k);
      const seen = scope.symbols?.get(name) ?? 0;
      this.note(scope, name, nonlocal ? SymbolFlag.Nonlocal : SymbolFlag.Global);
      if (scope.kind === 'module') {
        // Earlier chunks count too: document.ts makes this check once all chunks are known.
        (this.facts.moduleGlobals ??= []).push({
          name,
          start: this.rel(node.from),
          end: this.rel(node.to),
          before: seen,
        });
        continue;
      }
      const message = declarationError(name, seen, nonlocal);
      if (message) this.error(node.from, node.to, message);
      if (!scope.directives) this.declaring.push(scope);
      (scope.directives ??= []).push({ name, from: node.from, to: node.to });
    }
  }

  /**
   * What CPython finds once every scope is known: a name both global and nonlocal in one scope, and
   * a nonlocal name that no enclosing function binds (its later statements count; classes do not).
   */
  private checkDeclarations(): void {
    for (const scope of this.declaring) {
      const reported = new Set<string>();
      for (const d of scope.directives!) {
        if (reported.has(d.name)) continue;
        const flags = scope.symbols!.get(d.name)!;
        if (flags & SymbolFlag.Global && flags & SymbolFlag.Nonlocal) {
          reported.add(d.name);
          this.error(d.from, d.to, `name '${d.name}' is nonlocal and global`);
        } else if (flags & SymbolFlag.Nonlocal && !this.boundOutside(scope, d.name)) {
          reported.add(d.name);
          this.error(d.from, d.to, `no binding for nonlocal '${d.name}' found`);
        }
      }
    }
  }

  private boundOutside(scope: Scope, name: string): boolean {
    for (let p = scope.parent; p && p.kind !== 'module'; p = p.parent) {
      if (p.kind === 'class') continue;
      const flags = p.symbols?.get(name) ?? 0;
      if (flags & SymbolFlag.Global) return false;
      if (flags & (SymbolFlag.Local | SymbolFlag.Param | SymbolFlag.Import | SymbolFlag.Nonlocal)) return true;
    }
    return false;
  }

  private statement(node: SyntaxNode): void {
    if (node.type.isError) {
      this.parseErrorAt(node);
      this.walkChildren(node);
      return;
    }
    switch (node.name) {
      case 'FunctionDefinition':
        this.functionDef(node, node);
        return;
      case 'DecoratedStatement': {
        for (const k of children(node)) {
          if (k.name === 'FunctionDefinition') this.functionDef(k, node);
          else if (k.name === 'ClassDefinition') this.classDef(k, node);
          else this.expr(k);
        }
        return;
      }
      case 'ClassDefinition':
        this.classDef(node, node);
        return;
      case 'AssignStatement':
        this.assign(node);
        return;
      case 'UpdateStatement': {
        const kids = children(node);
        const op = kids.findIndex((k) => k.name === 'UpdateOp');
        const targets = kids.slice(0, op).filter((k) => k.name !== '⚠');
        if (targets.length === 1 && !this.hasError(targets[0])) {
          let t = targets[0];
          while (
            t.name === 'ParenthesizedExpression' &&
            t.firstChild?.nextSibling &&
            t.firstChild.nextSibling.name !== ')'
          )
            t = t.firstChild.nextSibling;
          if (t.name === 'VariableName') this.bind(t);
          else if (t.name !== 'MemberExpression') {
            const what =
              t.name === 'TupleExpression' ? 'tuple' : t.name === 'ArrayExpression' ? 'list' : describe(t, this.src);
            this.error(t.from, t.to, `'${what}' is an illegal expression for augmented assignment`);
          }
        } else if (targets.length > 1 && kids.slice(0, op).some((k) => k.name === ',')) {
          this.error(kids[0].from, kids[op - 1].to, "'tuple' is an illegal expression for augmented assignment");
        }
        this.walkChildren(node);
        return;
      }
      case 'ReturnStatement': {
        const fn = this.functionScope();
        if (!fn || fn.kind !== 'function') this.error(node.from, node.to, "'return' outside function");
        const kids = children(node).slice(1);
        if (kids.length && fn) fn.returnsWithValue!.push({ start: node.from, end: node.to });
        this.starredValue(kids);
        this.walkChildren(node);
        return;
      }
      case 'YieldStatement':
        this.yieldAt(node);
        this.walkChildren(node);
        return;
      case 'BreakStatement':
        if (!this.scope.loop) this.error(node.from, node.to, "'break' outside loop");
        return;
      case 'ContinueStatement':
        if (!this.scope.loop) this.error(node.from, node.to, "'continue' not properly in loop");
        return;
      case 'ScopeStatement':
        this.declaration(node);
        return;
      case 'DeleteStatement':
        for (const seg of split(children(node).slice(1), ',')) for (const t of seg) this.target(t, 'del');
        this.walkChildren(node);
        return;
      case 'ImportStatement':
        this.importStatement(node);
        return;
      case 'ForStatement':
        this.forStatement(node);
        return;
      case 'WhileStatement':
        this.loopBodies(node);
        return;
      case 'WithStatement': {
        const kids = children(node);
        if (kids[0].name === 'async') this.asyncStatement(kids[0], 'with');
        for (let i = 0; i < kids.length; i++) {
          const k = kids[i];
          if (k.name === 'as' && kids[i + 1]) this.target(kids[i + 1], 'assign');
          if (k.name === 'Body') this.body(k);
          else this.expr(k);
        }
        return;
      }
      case 'TryStatement':
        this.tryStatement(node);
        return;
      case 'TypeDefinition':
        this.error(node.from, node.to, "the 'type' statement requires Python 3.12 or later");
        this.walkChildren(node);
        return;
      case 'StatementGroup':
        for (const k of children(node)) this.statement(k);
        return;
      case 'IfStatement':
      case 'MatchStatement':
      case 'MatchClause':
      case 'MatchBody':
        for (const k of children(node)) {
          if (k.name === 'Body') this.body(k);
          else if (k.name === 'MatchClause' || k.name === 'MatchBody') this.statement(k);
          else this.expr(k);
        }
        return;
      case 'Body':
        this.body(node);
        return;
      default:
        this.walkChildren(node);
    }
  }

  private body(node: SyntaxNode): void {
    for (let c = node.firstChild; c; c = c.nextSibling) this.statement(c);
  }

  private walkChildren(node: SyntaxNode): void {
    for (let c = node.firstChild; c; c = c.nextSibling) this.expr(c);
  }

  private hasError(node: SyntaxNode): boolean {
    if (node.type.isError) return true;
    let found = false;
    node.toTree().iterate({
      enter: (n) => {
        if (n.type.isError) found = true;
        return !found;
      },
    });
    return found;
  }

  private loopBodies(node: SyntaxNode): void {
    let seenElse = false;
    for (const k of children(node)) {
      if (k.name === 'else') seenElse = true;
      if (k.name === 'Body') {
        const saved = this.scope.loop;
        if (!seenElse) this.scope.loop = true;
        this.body(k);
        this.scope.loop = saved;
      } else this.expr(k);
    }
  }

  private forStatement(node: SyntaxNode): void {
    const kids = children(node);
    if (kids[0].name === 'async') this.asyncStatement(kids[0], 'for');
    const f = kids.findIndex((k) => k.name === 'for');
    const i = kids.findIndex((k) => k.name === 'in');
    if (f >= 0 && i > f) this.targetList(kids.slice(f + 1, i), 'assign');
    this.loopBodies(node);
  }

  private asyncStatement(kw: SyntaxNode, what: string): void {
    const fn = this.functionScope();
    if (!fn || !fn.async || fn.kind !== 'function')
      this.error(kw.from, kw.to, `'async ${what}' outside async function`);
  }

  private tryStatement(node: SyntaxNode): void {
    const kids = children(node);
    // Handlers: `except X [as y]` before each Body.
    const handlers: { types: SyntaxNode[]; bare: boolean; at: SyntaxNode }[] = [];
    for (let i = 0; i < kids.length; i++) {
      if (kids[i].name !== 'except') continue;
      const types: SyntaxNode[] = [];
      let j = i + 1;
      while (j < kids.length && kids[j].name !== 'Body' && kids[j].name !== 'as') {
        if (kids[j].name !== '*' && kids[j].name !== ',') types.push(kids[j]);
        j++;
      }
      handlers.push({ types, bare: types.length === 0, at: kids[i] });
    }
    handlers.forEach((h, i) => {
      if (h.bare && i < handlers.length - 1) this.error(h.at.from, h.at.to, "default 'except:' must be last");
    });
    const guards = handlers.some(
      (h) =>
        h.bare || h.types.some((t) => /\b(ImportError|ModuleNotFoundError|Exception|BaseException)\b/.test(this.t(t))),
    );
    let first = true;
    for (const [i, k] of kids.entries()) {
      if (k.name === 'VariableName' && kids[i - 1]?.name === 'as') this.bind(k);
      if (k.name === 'Body') {
        if (first && guards) {
          this.guardDepth++;
          this.body(k);
          this.guardDepth--;
        } else this.body(k);
        first = false;
      } else this.expr(k);
    }
  }

  private classDef(node: SyntaxNode, outer: SyntaxNode): void {
    const kids = children(node);
    const name = kids.find((k) => k.name === 'VariableName');
    if (name && this.scopes.length === 1) {
      this.facts.functions.push({
        name: this.t(name),
        kind: 'class',
        start: this.rel(outer.from),
        end: this.rel(outer.to),
        nameStart: this.rel(name.from),
        nameEnd: this.rel(name.to),
        async: false,
      });
    }
    if (name) this.bind(name);
    for (const k of kids) {
      if (k.name === 'TypeParamList') this.error(k.from, k.to, 'type parameter lists require Python 3.12 or later');
      if (k.name === 'Body') {
        this.enter({ kind: 'class', async: false, loop: false });
        this.body(k);
        this.scopes.pop();
      } else if (k.name === 'ArgList') this.argList(k);
      else if (k.name !== 'VariableName') this.expr(k);
    }
  }

  private functionDef(node: SyntaxNode, outer: SyntaxNode): void {
    const kids = children(node);
    const isAsync = kids[0]?.name === 'async';
    const name = kids.find((k) => k.name === 'VariableName');
    const params = kids.find((k) => k.name === 'ParamList');
    const body = kids.find((k) => k.name === 'Body');
    const topLevel = this.scopes.length === 1;
    const nameText = name ? this.t(name) : '';
    if (name && topLevel) {
      this.facts.functions.push({
        name: nameText,
        kind: 'function',
        start: this.rel(outer.from),
        end: this.rel(outer.to),
        nameStart: this.rel(name.from),
        nameEnd: this.rel(name.to),
        async: isAsync,
      });
    } else if (nameText === 'execute') this.facts.nestedExecute = true;
    for (const k of kids) {
      if (k.name === 'TypeParamList') this.error(k.from, k.to, 'type parameter lists require Python 3.12 or later');
      else if (k.name === 'TypeDef') this.expr(k);
    }
    const paramInfo = params ? this.paramList(params) : [];
    if (name) this.bind(name);
    const scope: Scope = { kind: 'function', async: isAsync, loop: false, yields: [], returnsWithValue: [] };
    this.enter(scope);
    for (const p of paramInfo) if (p.kind !== 'marker') this.note(scope, p.name, SymbolFlag.Param);
    if (body) this.body(body);
    this.scopes.pop();
    if (isAsync && scope.yields!.length) {
      for (const r of scope.returnsWithValue!) this.error(r.start, r.end, "'return' with value in async generator");
    }
    if (name && topLevel && nameText === 'execute')
      this.executeContract(node, name, isAsync, params, paramInfo, body, scope);
  }

  // ---------------------------------------------------------------- execute contract

  private executeContract(
    node: SyntaxNode,
    name: SyntaxNode,
    isAsync: boolean,
    params: SyntaxNode | undefined,
    info: ParamInfo[],
    body: SyntaxNode | undefined,
    scope: Scope,
  ): void {
    const problems: RelProblem[] = [];
    const at = (n: SyntaxNode | { from: number; to: number }, code: string, message: string, data?: unknown) =>
      problems.push({
        code,
        start: this.rel(n.from),
        end: this.rel(n.to),
        message,
        ...(data === undefined ? {} : { data }),
      });
    if (isAsync) {
      const kw = node.firstChild!;
      at(
        kw,
        'execute-async',
        '`execute` must not be async: the service calls it as a plain function. Remove `async` (and any `await` inside).',
      );
    }
    const positional = info.filter((p) => p.kind === 'positional');
    const ok =
      info.length === 1 && positional.length === 1 && positional[0].name === 'variables' && !positional[0].hasDefault;
    if (!ok && params) {
      let why: string;
      if (info.length === 0) why = 'it takes no parameters';
      else if (positional.length === 1 && positional[0].name !== 'variables' && info.length === 1)
        why = `its parameter is named \`${positional[0].name}\``;
      else if (info.some((p) => p.kind !== 'positional'))
        why = 'it takes *args, **kwargs, keyword-only or positional-only markers';
      else if (positional.some((p) => p.hasDefault)) why = 'its parameter has a default value';
      else why = `it takes ${info.length} parameters`;
      at(
        params,
        'execute-signature',
        `\`execute\` must take exactly one positional parameter named \`variables\`, but ${why}.`,
        {
          expected: '(variables)',
        },
      );
    }
    if (scope.yields!.length) {
      at(name, 'execute-returns-non-string', '`execute` contains `yield`, so it returns a generator, not a `str`.');
    }
    if (body && !scope.yields!.length) {
      this.returns(body, problems);
      if (!this.terminates(body)) {
        at(
          name,
          'execute-returns-non-string',
          '`execute` can reach the end of its body without a `return`, and then returns `None`, not a `str`.',
        );
      }
    }
    this.facts.executes.push({ nameStart: this.rel(name.from), nameEnd: this.rel(name.to), async: isAsync, problems });
  }

  /** Flags `return` statements of `execute` (not of nested functions) whose value is visibly not a str. */
  private returns(node: SyntaxNode, problems: RelProblem[]): void {
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (
        c.name === 'FunctionDefinition' ||
        c.name === 'ClassDefinition' ||
        c.name === 'DecoratedStatement' ||
        c.name === 'LambdaExpression'
      )
        continue;
      if (c.name === 'ReturnStatement') {
        const kids = children(c).slice(1);
        let what: string | undefined;
        if (!kids.length) what = 'a bare `return` returns `None`';
        else if (kids.some((k) => k.name === ',')) what = 'it returns a tuple';
        else {
          let v = kids[0];
          while (v.name === 'ParenthesizedExpression' && v.firstChild?.nextSibling) v = v.firstChild.nextSibling;
          const kinds: Record<string, string> = {
            Number: 'a number',
            None: '`None`',
            Boolean: 'a bool',
            ArrayExpression: 'a list',
            ArrayComprehensionExpression: 'a list',
            DictionaryExpression: 'a dict',
            DictionaryComprehensionExpression: 'a dict',
            SetExpression: 'a set',
            SetComprehensionExpression: 'a set',
            TupleExpression: 'a tuple',
          };
          if (kinds[v.name]) what = `it returns ${kinds[v.name]}`;
          else if (v.name === 'String' && /^[rR]?[bB]/.test(this.t(v))) what = 'it returns bytes';
        }
        if (what) {
          problems.push({
            code: 'execute-returns-non-string',
            start: this.rel(c.from),
            end: this.rel(c.to),
            message: `\`execute\` must return a \`str\`, but ${what}.`,
          });
        }
        continue;
      }
      this.returns(c, problems);
    }
  }

  /** Whether every path through a Body ends in return/raise (as far as a simple analysis sees). */
  private terminates(body: SyntaxNode): boolean {
    let last: SyntaxNode | null = body.lastChild;
    while (last && (last.name === 'Comment' || last.name === '⚠' || last.name === ':')) last = last.prevSibling;
    if (!last) return false;
    return this.stmtTerminates(last);
  }

  private stmtTerminates(s: SyntaxNode): boolean {
    switch (s.name) {
      case 'ReturnStatement':
      case 'RaiseStatement':
        return true;
      case 'StatementGroup': {
        const kids = children(s).filter((k) => k.name !== ';');
        return kids.length > 0 && this.stmtTerminates(kids[kids.length - 1]);
      }
      case 'ExpressionStatement':
        return /^(?:sys\.exit|exit|quit|os\._exit|os\.abort)\s*\(/.test(this.t(s));
      case 'IfStatement': {
        const kids = children(s);
        const bodies = kids.filter((k) => k.name === 'Body');
        return kids.some((k) => k.name === 'else') && bodies.every((b) => this.terminates(b));
      }
      case 'WithStatement': {
        const b = children(s).find((k) => k.name === 'Body');
        return !!b && this.terminates(b);
      }
      case 'TryStatement': {
        const kids = children(s);
        const bodies: { after: string; body: SyntaxNode }[] = [];
        let after = 'try';
        for (const k of kids) {
          if (k.name === 'try' || k.name === 'except' || k.name === 'else' || k.name === 'finally') after = k.name;
          if (k.name === 'Body') bodies.push({ after, body: k });
        }
        const fin = bodies.find((b) => b.after === 'finally');
        if (fin && this.terminates(fin.body)) return true;
        const main = bodies.filter((b) => b.after !== 'finally');
        const tryBody = main.find((b) => b.after === 'try');
        const elseBody = main.find((b) => b.after === 'else');
        const handlers = main.filter((b) => b.after === 'except');
        const mainOk =
          (elseBody ? this.terminates(elseBody.body) : false) || (!!tryBody && this.terminates(tryBody.body));
        return mainOk && handlers.every((h) => this.terminates(h.body));
      }
      case 'WhileStatement': {
        const kids = children(s);
        const cond = kids[1];
        if (!cond || !/^(True|1)$/.test(this.t(cond))) return false;
        const b = kids.find((k) => k.name === 'Body');
        let breaks = false;
        if (b) {
          const visit = (n: SyntaxNode) => {
            for (let c = n.firstChild; c && !breaks; c = c.nextSibling) {
              if (c.name === 'BreakStatement') breaks = true;
              else if (
                ![
                  'ForStatement',
                  'WhileStatement',
                  'FunctionDefinition',
                  'ClassDefinition',
                  'DecoratedStatement',
                ].includes(c.name)
              )
                visit(c);
            }
          };
          visit(b);
        }
        return !breaks;
      }
      case 'MatchStatement': {
        const clauses: SyntaxNode[] = [];
        const collect = (n: SyntaxNode) => {
          for (let c = n.firstChild; c; c = c.nextSibling) {
            if (c.name === 'MatchClause') clauses.push(c);
            else if (c.name === 'MatchBody') collect(c);
          }
        };
        collect(s);
        if (!clauses.length) return false;
        const lastClause = clauses[clauses.length - 1];
        const pat = lastClause.firstChild?.nextSibling;
        const irrefutable =
          !!pat && pat.name === 'CapturePattern' && !children(lastClause).some((k) => k.name === 'Guard');
        return (
          irrefutable &&
          clauses.every((c) => {
            const b = children(c).find((k) => k.name === 'Body');
            return !!b && this.terminates(b);
          })
        );
      }
      default:
        return false;
    }
  }

  // ---------------------------------------------------------------- parameters and arguments

  private paramList(node: SyntaxNode): ParamInfo[] {
    const kids = children(node).filter((k) => k.name !== '(' && k.name !== ')');
    const segs: { nodes: SyntaxNode[]; from: number; to: number }[] = [];
    let from = node.firstChild?.name === '(' ? node.firstChild.to : node.from;
    let cur: SyntaxNode[] = [];
    for (const k of kids) {
      if (k.name === ',') {
        segs.push({ nodes: cur, from, to: k.from });
        cur = [];
        from = k.to;
      } else cur.push(k);
    }
    const end = node.lastChild?.name === ')' ? node.lastChild.from : node.to;
    segs.push({ nodes: cur, from, to: end });
    const out: ParamInfo[] = [];
    const names = new Set<string>();
    let sawDefault = false;
    let sawStar = false;
    let sawKwargs = false;
    let sawSlash = false;
    let bareStar: SyntaxNode | undefined;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i];
      const ns = seg.nodes;
      if (!ns.length) {
        const text = this.src.slice(seg.from, seg.to).trim();
        if (text === '/') {
          const at = this.src.indexOf('/', seg.from);
          if (sawSlash) this.error(at, at + 1, '/ may appear only once');
          else if (sawStar) this.error(at, at + 1, '/ must be ahead of *');
          else if (!out.length) this.error(at, at + 1, 'at least one argument must precede /');
          sawSlash = true;
          out.forEach((p) => (p.kind = 'positional-only'));
          out.push({ name: '/', kind: 'marker', hasDefault: false });
        }
        continue;
      }
      if (sawKwargs) this.error(ns[0].from, ns[ns.length - 1].to, 'arguments cannot follow var-keyword argument');
      const first = ns[0];
      const nameNode = ns.find((n) => n.name === 'VariableName');
      const pname = nameNode ? this.t(nameNode) : '';
      if (nameNode) {
        if (names.has(pname))
          this.error(nameNode.from, nameNode.to, `duplicate argument '${pname}' in function definition`);
        names.add(pname);
      }
      for (const n of ns) if (n.name === 'TypeDef' || n.name === 'StarTypeDef') this.expr(n);
      const defIdx = ns.findIndex((n) => n.name === 'AssignOp');
      if (defIdx >= 0) for (const n of ns.slice(defIdx + 1)) this.expr(n);
      if (first.name === '*') {
        if (sawStar) this.error(first.from, first.to, '* argument may appear only once');
        sawStar = true;
        if (!nameNode) bareStar = first;
        out.push({ name: pname, kind: nameNode ? 'varargs' : 'marker', hasDefault: false });
        continue;
      }
      if (first.name === '**') {
        sawKwargs = true;
        if (bareStar && out[out.length - 1]?.kind === 'marker' && out[out.length - 1].name === '') {
          this.error(bareStar.from, bareStar.to, 'named arguments must follow bare *');
        }
        bareStar = undefined;
        out.push({ name: pname, kind: 'kwargs', hasDefault: false });
        continue;
      }
      const hasDefault = defIdx >= 0;
      if (!sawStar) {
        if (hasDefault) sawDefault = true;
        else if (sawDefault && nameNode)
          this.error(nameNode.from, nameNode.to, 'non-default argument follows default argument');
      }
      bareStar = undefined;
      out.push({ name: pname, kind: sawStar ? 'keyword-only' : 'positional', hasDefault });
    }
    if (bareStar && out[out.length - 1]?.kind === 'marker')
      this.error(bareStar.from, bareStar.to, 'named arguments must follow bare *');
    return out;
  }

  private argList(node: SyntaxNode): void {
    const kids = children(node).filter((k) => k.name !== '(' && k.name !== ')');
    const segs = splitArgs(kids).filter((s) => s.length);
    let sawKeyword = false;
    let sawKwUnpack = false;
    const keywords = new Set<string>();
    const hasGenerator = segs.some((s) => s.some((n) => n.name === 'for'));
    for (const seg of segs) {
      const first = seg[0];
      if (hasGenerator && segs.length > 1 && seg.some((n) => n.name === 'for')) {
        this.error(seg[0].from, seg[seg.length - 1].to, 'Generator expression must be parenthesized');
      }
      if (first.name === '**') {
        sawKwUnpack = true;
      } else if (first.name === '*') {
        if (sawKwUnpack)
          this.error(
            first.from,
            seg[seg.length - 1].to,
            'iterable argument unpacking follows keyword argument unpacking',
          );
      } else if (
        seg.length >= 3 &&
        seg[1].name === 'AssignOp' &&
        this.t(seg[1]) === '=' &&
        first.name === 'VariableName'
      ) {
        const k = this.t(first);
        if (keywords.has(k)) this.error(first.from, first.to, `keyword argument repeated: ${k}`);
        keywords.add(k);
        sawKeyword = true;
        this.secretKeyword(k, seg[2]);
      } else if (sawKwUnpack) {
        this.error(first.from, seg[seg.length - 1].to, 'positional argument follows keyword argument unpacking');
      } else if (sawKeyword) {
        this.error(first.from, seg[seg.length - 1].to, 'positional argument follows keyword argument');
      }
      const isComp = seg.some((n) => n.name === 'for');
      if (isComp) this.comprehension(seg, 'generator expression');
      else {
        // Keyword names are not expressions; walk values only.
        const start = seg.length >= 3 && seg[1].name === 'AssignOp' && first.name === 'VariableName' ? 2 : 0;
        for (const n of seg.slice(start)) this.expr(n);
      }
    }
  }

  // ---------------------------------------------------------------- targets

  private assign(node: SyntaxNode): void {
    const kids = children(node);
    const groups = split(kids, 'AssignOp');
    const value = groups.length > 1 ? groups[groups.length - 1] : [];
    const targetGroups = groups.length > 1 ? groups.slice(0, -1) : groups;
    for (const g of targetGroups) {
      const ann = g.findIndex((n) => n.name === 'TypeDef');
      const tnodes = ann >= 0 ? g.slice(0, ann) : g;
      if (ann >= 0) {
        this.expr(g[ann]);
        if (tnodes.some((n) => n.name === ','))
          this.error(tnodes[0].from, tnodes[tnodes.length - 1].to, 'only single target (not tuple) can be annotated');
        else if (tnodes.length === 1) {
          let t = tnodes[0];
          while (t.name === 'ParenthesizedExpression' && t.firstChild?.nextSibling) t = t.firstChild.nextSibling;
          if (t.name === 'TupleExpression') this.error(t.from, t.to, 'only single target (not tuple) can be annotated');
          else if (t.name === 'ArrayExpression')
            this.error(t.from, t.to, 'only single target (not list) can be annotated');
          else if (t.name !== 'VariableName' && t.name !== 'MemberExpression')
            this.error(t.from, t.to, 'illegal target for annotation');
          else {
            if (t === tnodes[0] && t.name === 'VariableName') this.annotated(node, t);
            this.target(tnodes[0], 'assign');
          }
        }
      } else this.targetList(tnodes, 'assign');
      if (this.scopes.length === 1 && tnodes.some((n) => n.name === 'VariableName' && this.t(n) === 'execute'))
        this.facts.boundExecute = true;
    }
    if (value.length) {
      this.starredValue(value);
      for (const n of value) this.expr(n);
      // Secrets: NAME = "literal"
      if (value.length === 1) {
        for (const g of targetGroups) {
          const t = g[0];
          if (g.length >= 1 && t) this.secretAssignment(t, value[0]);
        }
      }
    }
  }

  /** `name: type [= value]` (not parenthesised): CPython's check against an earlier `global`/`nonlocal`. */
  private annotated(statement: SyntaxNode, name: SyntaxNode): void {
    if (!this.tracking(this.scope)) return;
    const text = this.t(name);
    const seen = this.scope.symbols?.get(text) ?? 0;
    // At module level an annotation after `global` is allowed.
    if (this.scope.kind !== 'module' && seen & (SymbolFlag.Global | SymbolFlag.Nonlocal)) {
      this.error(
        statement.from,
        statement.to,
        `annotated name '${text}' can't be ${seen & SymbolFlag.Global ? 'global' : 'nonlocal'}`,
      );
    }
    this.bind(name, SymbolFlag.Annotated | SymbolFlag.Local);
  }

  /** `x = *a` / `return *a`: a lone starred expression as a value. */
  private starredValue(nodes: SyntaxNode[]): void {
    if (nodes.length >= 2 && nodes[0].name === '*' && !nodes.some((n) => n.name === ',')) {
      this.error(nodes[0].from, nodes[nodes.length - 1].to, "can't use starred expression here");
    }
  }

  /** A comma-separated target list (a statement-level tuple without parentheses when commas). */
  private targetList(nodes: SyntaxNode[], ctx: 'assign' | 'del'): void {
    const items = split(nodes, ',').filter((s) => s.length);
    const isTuple = nodes.some((n) => n.name === ',');
    let stars = 0;
    for (const item of items) {
      if (item[0].name === '*') {
        stars++;
        if (!isTuple && items.length === 1)
          this.error(item[0].from, item[item.length - 1].to, 'starred assignment target must be in a list or tuple');
        if (item[1]) this.target(item[1], ctx);
      } else for (const t of item) this.target(t, ctx);
    }
    if (stars > 1) this.error(nodes[0].from, nodes[nodes.length - 1].to, 'multiple starred expressions in assignment');
  }

  private target(node: SyntaxNode, ctx: 'assign' | 'del'): void {
    switch (node.name) {
      case 'VariableName':
        this.bind(node);
        return;
      case 'MemberExpression':
        this.expr(node);
        return;
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        if (inner && inner.name !== ')') {
          if (inner.name === '*')
            this.error(
              inner.from,
              node.to,
              ctx === 'del' ? 'cannot delete starred' : 'starred assignment target must be in a list or tuple',
            );
          else this.target(inner, ctx);
        }
        return;
      }
      case 'TupleExpression':
      case 'ArrayExpression': {
        const inner = children(node).slice(1, -1);
        if (ctx === 'del' && inner.some((n) => n.name === '*')) {
          const s = inner.find((n) => n.name === '*')!;
          this.error(s.from, s.to, 'cannot delete starred');
          return;
        }
        this.targetList(inner, ctx);
        return;
      }
      case '⚠':
      case ',':
        return;
      default:
        if (node.type.isError) return;
        this.error(node.from, node.to, `cannot ${ctx === 'del' ? 'delete' : 'assign to'} ${describe(node, this.src)}`);
    }
  }

  // ---------------------------------------------------------------- expressions

  private expr(node: SyntaxNode): void {
    if (node.type.isError) {
      this.parseErrorAt(node);
      this.walkChildren(node);
      return;
    }
    switch (node.name) {
      case 'VariableName':
        if (this.tracking(this.scope) && !this.bindings.has(node.from))
          this.note(this.scope, this.t(node), SymbolFlag.Use);
        if (node.to - node.from === 9 && this.t(node) === 'variables') this.variablesUse(node);
        return;
      case 'CapturePattern':
      case 'AsPattern':
        // `case x`, `case p as x`: the name is bound (`_` is the wildcard, no name).
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (c.name === 'VariableName') {
            if (this.t(c) !== '_') this.bind(c);
          } else this.expr(c);
        }
        return;
      case 'KeywordPattern':
        // `C(attr=pattern)`: `attr` names an attribute, not a variable.
        for (let c = node.firstChild?.nextSibling ?? null; c; c = c.nextSibling) this.expr(c);
        return;
      case 'String':
      case 'FormatString':
        this.literal(node);
        if (node.name === 'FormatString') this.walkChildren(node);
        return;
      case 'ContinuedString': {
        const parts = children(node);
        const bytes = parts.map((p) => /^[rRfFuU]?[bB]/.test(this.t(p)));
        if (bytes.some((b) => b) && bytes.some((b) => !b))
          this.error(node.from, node.to, 'cannot mix bytes and nonbytes literals');
        for (const p of parts) this.expr(p);
        return;
      }
      case 'AwaitExpression': {
        const fn = this.functionScope();
        const asyncFn = fn?.async && fn.kind === 'function';
        // A generator expression with `await` is an asynchronous generator expression, legal anywhere.
        const inGenexp = this.scopes.some(
          (s, i) => i > 0 && s.kind === 'comprehension' && s.what === 'generator expression',
        );
        if (inGenexp && fn) {
          // fine
        } else if (!fn) this.error(node.from, node.to, "'await' outside function");
        else if (!asyncFn) this.error(node.from, node.to, "'await' outside async function");
        this.walkChildren(node);
        return;
      }
      case 'YieldExpression': {
        this.yieldAt(node);
        this.walkChildren(node);
        return;
      }
      case 'LambdaExpression': {
        const kids = children(node);
        const params = kids.find((k) => k.name === 'ParamList');
        if (params) this.paramList(params);
        const colon = kids.findIndex((k) => k.name === ':');
        this.enter({ kind: 'lambda', async: false, loop: false, yields: [], returnsWithValue: [] });
        for (const k of kids.slice(colon + 1)) this.expr(k);
        this.scopes.pop();
        return;
      }
      case 'CallExpression': {
        for (const k of children(node)) {
          if (k.name === 'ArgList') this.argList(k);
          else this.expr(k);
        }
        return;
      }
      case 'NamedExpression': {
        const t = node.firstChild;
        if (t && t.name !== 'VariableName' && !t.type.isError) {
          const what =
            t.name === 'MemberExpression'
              ? t.lastChild?.name === ']'
                ? 'subscript'
                : 'attribute'
              : describe(t, this.src);
          this.error(t.from, t.to, `cannot use assignment expressions with ${what}`);
        }
        // An assignment expression in a comprehension binds in the scope around it.
        if (t?.name === 'VariableName')
          this.bind(t, SymbolFlag.Local, this.scopes.filter((s) => s.kind !== 'comprehension').pop());
        this.walkChildren(node);
        return;
      }
      case 'ArrayComprehensionExpression':
      case 'SetComprehensionExpression':
      case 'DictionaryComprehensionExpression':
      case 'ComprehensionExpression':
        this.comprehension(children(node).slice(1, -1), COMPREHENSIONS[node.name]);
        return;
      case 'DictionaryExpression':
        this.dictionary(node);
        return;
      case 'ArgList':
        this.argList(node);
        return;
      default:
        this.walkChildren(node);
    }
  }

  private yieldAt(node: SyntaxNode): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const s = this.scopes[i];
      if (s.kind === 'comprehension') {
        this.error(node.from, node.to, `'yield' inside ${s.what}`);
        return;
      }
      if (s.kind === 'function' || s.kind === 'lambda') {
        s.yields!.push(node.from);
        if (s.async && /^yield\s+from\b/.test(this.t(node)))
          this.error(node.from, node.to, "'yield from' inside async function");
        return;
      }
      break;
    }
    this.error(node.from, node.to, "'yield' outside function");
  }

  /** Comprehension parts: element, then `[async] for targets in iter (if cond)*` clauses. */
  private comprehension(parts: SyntaxNode[], what: string): void {
    // The first iterable belongs to the enclosing scope.
    const i = parts.findIndex((k) => k.name === 'for');
    if (i < 0) {
      for (const p of parts) this.expr(p);
      return;
    }
    const firstIn = parts.findIndex((k, j) => j > i && k.name === 'in');
    let firstIterEnd = parts.findIndex(
      (k, j) => j > firstIn && (k.name === 'for' || k.name === 'if' || k.name === 'async'),
    );
    if (firstIterEnd < 0) firstIterEnd = parts.length;
    for (const p of parts.slice(firstIn + 1, firstIterEnd)) this.expr(p);
    const fn = this.functionScope();
    const outerAsync = !!fn && fn.async && fn.kind === 'function';
    this.enter({ kind: 'comprehension', async: outerAsync, loop: false, what });
    const hasAsyncFor = parts.some((k) => k.name === 'async');
    if (hasAsyncFor && !outerAsync && what !== 'generator expression') {
      const a = parts.find((k) => k.name === 'async')!;
      this.error(a.from, a.to, 'asynchronous comprehension outside of an asynchronous function');
    }
    for (let j = 0; j < parts.length; j++) {
      const k = parts[j];
      if (j > firstIn && j < firstIterEnd) continue;
      if (k.name === 'for') {
        const inAt = parts.findIndex((x, m) => m > j && x.name === 'in');
        if (inAt > j) {
          this.targetList(parts.slice(j + 1, inAt), 'assign');
          j = inAt;
          continue;
        }
      }
      if (k.name !== 'in' && k.name !== 'if' && k.name !== 'async' && k.name !== 'for') this.expr(k);
    }
    this.scopes.pop();
  }

  private dictionary(node: SyntaxNode): void {
    const items = split(children(node).slice(1, -1), ',');
    for (const item of items) {
      for (const n of item) this.expr(n);
      // Secrets: {"api_key": "literal"}
      if (item.length === 3 && item[1].name === ':') {
        const k = plainString(item[0], this.src);
        if (k) this.secretKeyword(k.value, item[2]);
      }
    }
  }

  // ---------------------------------------------------------------- variables keys

  private variablesUse(node: SyntaxNode): void {
    const parent = node.parent;
    if (!parent) return;
    // variables["x"]
    if (parent.name === 'MemberExpression' && parent.firstChild?.from === node.from) {
      const next = node.nextSibling;
      if (next?.name === '[') {
        const key = next.nextSibling;
        const s = key && plainString(key, this.src);
        if (s && key!.nextSibling?.name === ']') {
          this.key(s);
          return;
        }
        this.facts.dynamicVariables = true;
        return;
      }
      if (next?.name === '.') {
        const prop = next.nextSibling;
        const call = parent.parent;
        if (prop && call?.name === 'CallExpression' && call.firstChild?.from === parent.from) {
          const method = this.t(prop);
          if (method === 'get' || method === 'pop' || method === 'setdefault') {
            const args = call.lastChild;
            const first = args?.name === 'ArgList' ? args.firstChild?.nextSibling : undefined;
            const s = first && plainString(first, this.src);
            const afterFirst = first?.nextSibling;
            if (s && (afterFirst?.name === ',' || afterFirst?.name === ')')) {
              this.key(s);
              return;
            }
          }
        }
        this.facts.dynamicVariables = true;
        return;
      }
    }
    // "x" in variables / "x" not in variables
    if (parent.name === 'BinaryExpression' && parent.lastChild?.from === node.from) {
      const op = node.prevSibling;
      const left = parent.firstChild;
      if (op?.name === 'in' && left) {
        const s = plainString(left, this.src);
        if (
          s &&
          (left.nextSibling?.name === 'in' ||
            (left.nextSibling?.name === 'not' && left.nextSibling.nextSibling?.name === 'in'))
        ) {
          this.key(s);
          return;
        }
      }
    }
    // The parameter itself.
    if (parent.name === 'ParamList') return;
    this.facts.dynamicVariables = true;
  }

  private key(s: { value: string; start: number; end: number; quote: string }): void {
    this.facts.keys.push({ name: s.value, start: this.rel(s.start), end: this.rel(s.end), quote: s.quote });
  }

  // ---------------------------------------------------------------- imports

  private importStatement(node: SyntaxNode): void {
    const kids = children(node);
    if (this.tracking(this.scope)) this.importBindings(kids);
    if (this.scopes.length === 1 && /\bexecute\s*(?:,|\)|$)/.test(this.t(node).replace(/^.*\bimport\b/s, '')))
      this.facts.boundExecute = true;
    const guarded = this.guardDepth > 0;
    if (kids[0]?.name === 'import') {
      // import a.b.c [as d], e
      const segs = split(kids.slice(1), ',');
      for (const seg of segs) {
        const dotted: SyntaxNode[] = [];
        for (const n of seg) {
          if (n.name === 'as') break;
          if (n.name === 'VariableName') dotted.push(n);
        }
        if (!dotted.length) continue;
        const from = dotted[0].from;
        const to = dotted[dotted.length - 1].to;
        this.facts.imports.push({
          module: this.src.slice(from, to).replace(/\s+/g, ''),
          start: this.rel(from),
          end: this.rel(to),
          guarded,
          relative: false,
        });
      }
      return;
    }
    if (kids[0]?.name === 'from') {
      const imp = kids.findIndex((k) => k.name === 'import');
      const modParts = kids.slice(1, imp < 0 ? kids.length : imp);
      const text = modParts.length
        ? this.src.slice(modParts[0].from, modParts[modParts.length - 1].to).replace(/\s+/g, '')
        : '';
      const relative = text.startsWith('.');
      if (imp >= 0 && kids.slice(imp + 1).some((k) => k.name === '*') && this.scopes.length > 1) {
        const star = kids.slice(imp + 1).find((k) => k.name === '*')!;
        this.error(star.from, star.to, 'import * only allowed at module level');
      }
      if (text && modParts.length) {
        const names = modParts.filter((n) => n.name === 'VariableName');
        const start = relative ? modParts[0].from : (names[0]?.from ?? modParts[0].from);
        this.facts.imports.push({
          module: text,
          start: this.rel(start),
          end: this.rel(modParts[modParts.length - 1].to),
          guarded,
          relative,
        });
      }
    }
  }

  /** The names an import binds: `a` of `import a.b`, `c` of `… as c`, `x` of `from m import x`. */
  private importBindings(kids: SyntaxNode[]): void {
    const names = kids[0]?.name === 'from' ? kids.slice(kids.findIndex((k) => k.name === 'import') + 1) : kids.slice(1);
    for (const seg of split(names, ',')) {
      const as = seg.findIndex((n) => n.name === 'as');
      const bound = as >= 0 ? seg[as + 1] : seg.find((n) => n.name === 'VariableName');
      if (bound?.name === 'VariableName') this.bind(bound, SymbolFlag.Import);
    }
  }

  // ---------------------------------------------------------------- secrets

  private literal(node: SyntaxNode): void {
    if (node.to - node.from < 12) return;
    const v = stringValue(node, this.src);
    if (v === undefined) return;
    const hit = secretInString(v);
    if (hit) this.secret(node, hit);
  }

  private secretAssignment(target: SyntaxNode, value: SyntaxNode): void {
    let name: string | undefined;
    if (target.name === 'VariableName') name = this.t(target);
    else if (target.name === 'MemberExpression') {
      const last = target.lastChild;
      if (last?.name === 'PropertyName') name = this.t(last);
      else if (last?.name === ']') {
        const k = last.prevSibling && plainString(last.prevSibling, this.src);
        if (k) name = k.value;
      }
    }
    if (name) this.secretKeyword(name, value);
  }

  private secretKeyword(name: string, value: SyntaxNode): void {
    if (value.name !== 'String') return;
    const v = stringValue(value, this.src);
    if (v === undefined) return;
    if (secretInString(v)) return; // reported by literal()
    const hit = secretInAssignment(name, v);
    if (hit) this.secret(value, hit);
  }

  private secret(node: SyntaxNode, hit: SecretHit): void {
    const rel = this.rel(node.from);
    if (this.facts.secrets.some((s) => s.start === rel)) return;
    this.facts.secrets.push({
      code: 'hardcoded-secret',
      start: rel,
      end: this.rel(node.to),
      message: `${hit.what} hard-coded in tool_code (${hit.redacted}). Read it from the environment (os.environ) or leave it as <API_KEY> / an empty string.`,
      data: { kind: hit.kind },
    });
  }
}

interface ParamInfo {
  name: string;
  kind: 'positional' | 'positional-only' | 'keyword-only' | 'varargs' | 'kwargs' | 'marker';
  hasDefault: boolean;
}
