// Analysis of one top-level chunk of a Python module: the syntax errors CPython 3.11 would raise
// that the grammar tolerates (compile-time checks of its parser, symtable and compiler), and the
// facts the tool_code rules need (execute, variables keys, imports, functions, literals).
// Everything here is relative to the chunk start, so a chunk's result can be reused while its text
// is unchanged (see document.ts).
import type { SyntaxNode } from '@lezer/common';
import type { ChunkFacts, RelProblem } from './chunkFacts';
import { checkExecute, type ParamInfo } from './executeContract';
import { checkParameters } from './parameters';
import { checkArguments } from './arguments';
import { importedModules, importsExecute, starImport } from './importedModules';
import { lex } from './lexer';
import { matchErrors } from './matchPatterns';
import {
  assignToYield,
  BLOCK_HEADER,
  comparisonLike,
  comprehensionClauses,
  EXCEPT_STAR_EXIT,
  exceptHandlers,
  FUTURE_FEATURES,
  importedNames,
  KEYWORDS,
  MAX_BLOCKS,
  type ExceptHandler,
} from './statementForms';
import { declarationError, SymbolFlag } from './symbolFlags';
import { inFormatField, parserMessage } from './parserMessages';
import { assignedSecret, keywordSecret, literalSecret } from './secretLiterals';
import {
  children,
  Chunk,
  COMPREHENSIONS,
  containsError,
  describe,
  firstError,
  plainString,
  split,
} from './syntaxNodes';
import { variablesUse } from './variableKeys';

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
  /** CPython's frame blocks (loops, with, try) around the statement being walked. */
  blocks?: number;
  /** Inside an `except*` body: how many are open, and whether one is nearer than any loop. */
  starDepth?: number;
  starInnermost?: boolean;
  /** Comprehensions: `async for` or `await` in it (or in a comprehension inside it). */
  awaits?: boolean;
  /** Comprehensions: the iteration variables so far, and the names their `:=` bind outside. */
  iterationVariables?: Set<string>;
  walrusTargets?: Set<string>;
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
  private symtable?: RelProblem;
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
  /** Inside a comprehension's iterable expression (nested scopes included, as CPython's symtable). */
  private iterableDepth = 0;
  /** The top-level statement being walked holds a grammar error (else none of its parts does). */
  private inBroken = false;
  /** Walking a comprehension's `for` targets. */
  private iterationTarget = false;
  /** The target of `target = value` that CPython reports with "Maybe you meant '=='" (its start). */
  private comparisonHint = -1;

  /**
   * @param src the whole source; `base` the chunk's offset in it; `text` the chunk's text
   * @param nodes the top-level nodes of the chunk (positions absolute)
   */
  private readonly chunk: Chunk;

  constructor(
    src: string,
    base: number,
    private readonly text: string,
    private readonly nodes: SyntaxNode[],
  ) {
    this.chunk = new Chunk(src, base);
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
      else if (kind === 'future')
        this.facts.futures.push({ start: this.chunk.rel(node.from), end: this.chunk.rel(node.to) });
      if (kind === 'future') {
        for (const f of this.futureFeatures(node)) {
          if (f.name === 'braces') this.error(f.start + this.chunk.base, f.end + this.chunk.base, 'not a chance');
          else if (!FUTURE_FEATURES.has(f.name))
            this.error(f.start + this.chunk.base, f.end + this.chunk.base, `future feature ${f.name} is not defined`);
        }
      }
    });
    for (const node of this.nodes) {
      const err = firstError(node);
      this.inBroken = !!err;
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
      message: lexed.error.message,
      data: { stage: lexed.error.kind },
    };
    if (lexError && lexed.error!.kind === 'tokenizer') this.facts.tokenError = lexError;
    // A missing block is placed where CPython places it (the next statement); lezer's recovery may
    // flag the header line before it. Prefer the lexer's there; otherwise the earlier error.
    let parse: RelProblem | undefined = lexError && lexed.error!.kind !== 'tokenizer' ? lexError : undefined;
    const lexFirst = parse && parse.message.startsWith('expected an indented block');
    const lexAt = parse && (lexFirst ? this.lineStartBefore(parse.start) : (lexed.error!.from ?? parse.start));
    if (this.parseError && (lexAt === undefined || this.parseError.start < lexAt)) parse = this.parseError;
    if (parse) this.facts.parseError = parse;
    const compileError = this.symtable ?? this.semantic;
    if (compileError) this.facts.compileError = compileError;
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

  private statementKind(node: SyntaxNode): ChunkFacts['first'] {
    if (
      node.name === 'ExpressionStatement' &&
      node.firstChild &&
      node.firstChild.name === 'String' &&
      !node.firstChild.nextSibling
    )
      return 'docstring';
    if (node.name === 'ExpressionStatement' && node.firstChild?.name === 'ContinuedString') return 'docstring';
    if (node.name === 'ImportStatement' && /^from\s+__future__\s+import\b/.test(this.chunk.text(node))) return 'future';
    return 'other';
  }

  private futureFeatures(node: SyntaxNode): { name: string; start: number; end: number }[] {
    const kids = children(node);
    const i = kids.findIndex((k) => k.name === 'import');
    const out: { name: string; start: number; end: number }[] = [];
    for (let j = i + 1; j < kids.length; j++) {
      const k = kids[j];
      if (k.name === 'VariableName' && kids[j - 1]?.name !== 'as')
        out.push({ name: this.chunk.text(k), start: this.chunk.rel(k.from), end: this.chunk.rel(k.to) });
    }
    if (/\bimport\s*\*/.test(this.chunk.text(node)))
      out.push({ name: '*', start: this.chunk.rel(node.from), end: this.chunk.rel(node.to) });
    return out;
  }

  // ---------------------------------------------------------------- problems

  /**
   * An error of CPython's compiler, or of its symbol table (`symtable`), which runs first: one of
   * those wins over any compiler error. Each keeps the earliest.
   */
  private error(start: number, end: number, message: string, stage: 'compiler' | 'symtable' = 'compiler'): void {
    const slot = stage === 'symtable' ? this.symtable : this.semantic;
    if (slot && slot.start <= this.chunk.rel(start)) return;
    const problem: RelProblem = {
      code: 'python-syntax',
      start: this.chunk.rel(start),
      end: this.chunk.rel(Math.max(end, start)),
      message,
      data: { stage },
    };
    if (stage === 'symtable') this.symtable = problem;
    else this.semantic = problem;
  }

  private parseErrorAt(node: SyntaxNode): void {
    if (this.parseError) return;
    const src = this.chunk.src;
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
        from = Math.max(this.chunk.base, from - 1);
        to = from + 1;
      }
    }
    // Message: the likeliest of CPython's.
    let lineStart = from;
    while (lineStart > this.chunk.base && src[lineStart - 1] !== '\n' && src[lineStart - 1] !== '\r') lineStart--;
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
    const specific = parserMessage(node, src);
    if (specific) {
      from = specific.from;
      to = specific.to;
      message = specific.message;
    }
    if (inFormatField(node) && !message.startsWith('f-string')) message = `f-string: ${message}`;
    this.parseError = {
      code: 'python-syntax',
      start: this.chunk.rel(from),
      end: this.chunk.rel(to),
      message,
      data: { stage: 'parser' },
    };
  }

  /** A form CPython's parser refuses that the grammar accepts: reported as the parser's error. */
  private syntaxError(start: number, end: number, message: string): void {
    const rel = this.chunk.rel(start);
    if (this.parseError && this.parseError.start <= rel) return;
    this.parseError = {
      code: 'python-syntax',
      start: rel,
      end: this.chunk.rel(end),
      message,
      data: { stage: 'parser' },
    };
  }

  /** The next token's offset after `pos` (comments and blank lines skipped), or the end of the last line. */
  private nextToken(pos: number): number {
    const src = this.chunk.src;
    const m = /^(?:\s|#[^\n\r]*)*/.exec(src.slice(pos))!;
    if (pos + m[0].length < src.length) return pos + m[0].length;
    let end = pos;
    while (end > 0 && /\s/.test(src[end - 1])) end--;
    return end;
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
    if (this.iterationTarget) this.iterationVariable(node);
    if (!this.tracking(scope)) return;
    this.bindings.add(node.from);
    this.note(scope, this.chunk.text(node), flag);
  }

  /** `global`/`nonlocal` names: CPython's checks against what the scope already did with them. */
  private declaration(node: SyntaxNode): void {
    const nonlocal = /^nonlocal\b/.test(this.chunk.text(node));
    const scope = this.scope;
    if (nonlocal && scope.kind === 'module')
      return this.error(node.from, node.to, 'nonlocal declaration not allowed at module level', 'symtable');
    for (const k of children(node)) {
      if (k.name !== 'VariableName') continue;
      const name = this.chunk.text(k);
      const seen = scope.symbols?.get(name) ?? 0;
      this.note(scope, name, nonlocal ? SymbolFlag.Nonlocal : SymbolFlag.Global);
      if (scope.kind === 'module') {
        // Earlier chunks count too: document.ts makes this check once all chunks are known.
        (this.facts.moduleGlobals ??= []).push({
          name,
          start: this.chunk.rel(node.from),
          end: this.chunk.rel(node.to),
          before: seen,
        });
        continue;
      }
      const message = declarationError(name, seen, nonlocal);
      if (message) this.error(node.from, node.to, message, 'symtable');
      if (!scope.directives) this.declaring.push(scope);
      (scope.directives ??= []).push({ name, from: node.from, to: node.to });
    }
  }

  /**
   * What CPython finds once every scope is known: a name both global and nonlocal in one scope, and
   * a nonlocal name that no enclosing function binds (its later statements count; classes do not).
   */
  private checkDeclarations(): void {
    if (this.symtable) return; // an error met while walking comes first
    for (const scope of this.declaring) {
      const reported = new Set<string>();
      for (const d of scope.directives!) {
        if (reported.has(d.name)) continue;
        const flags = scope.symbols!.get(d.name)!;
        if (flags & SymbolFlag.Global && flags & SymbolFlag.Nonlocal) {
          reported.add(d.name);
          this.error(d.from, d.to, `name '${d.name}' is nonlocal and global`, 'symtable');
        } else if (flags & SymbolFlag.Nonlocal && !this.boundOutside(scope, d.name)) {
          reported.add(d.name);
          this.error(d.from, d.to, `no binding for nonlocal '${d.name}' found`, 'symtable');
        }
      }
    }
  }

  private boundOutside(scope: Scope, name: string): boolean {
    for (let p = scope.parent; p && p.kind !== 'module'; p = p.parent) {
      // A class body binds `__class__` for its methods (the cell `super()` reads).
      if (p.kind === 'class') {
        if (name === '__class__') return true;
        continue;
      }
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
        // A statement the grammar recovered from: its targets are guesses.
        if (this.broken(node)) this.walkChildren(node);
        else this.assign(node);
        return;
      case 'UpdateStatement': {
        const kids = children(node);
        const op = kids.findIndex((k) => k.name === 'UpdateOp');
        const targets = kids.slice(0, op).filter((k) => k.name !== '⚠');
        if (targets.length === 1 && !this.broken(targets[0])) {
          let t = targets[0];
          while (
            t.name === 'ParenthesizedExpression' &&
            t.firstChild?.nextSibling &&
            t.firstChild.nextSibling.name !== ')'
          )
            t = t.firstChild.nextSibling;
          if (t.name === 'VariableName') {
            this.notDebug(t);
            this.bind(t);
          } else if (t.name !== 'MemberExpression') {
            const what =
              t.name === 'TupleExpression'
                ? 'tuple'
                : t.name === 'ArrayExpression'
                  ? 'list'
                  : describe(t, this.chunk.src);
            this.syntaxError(t.from, t.to, `'${what}' is an illegal expression for augmented assignment`);
          }
        } else if (targets.length > 1 && kids.slice(0, op).some((k) => k.name === ',')) {
          this.syntaxError(kids[0].from, kids[op - 1].to, "'tuple' is an illegal expression for augmented assignment");
        }
        this.walkChildren(node);
        return;
      }
      case 'ReturnStatement': {
        const fn = this.functionScope();
        if (!fn || fn.kind !== 'function') this.error(node.from, node.to, "'return' outside function");
        const kids = children(node).slice(1);
        if (kids.length && fn) fn.returnsWithValue!.push({ start: node.from, end: node.to });
        if (this.scope.starDepth) this.error(kids[0]?.from ?? node.from, node.to, EXCEPT_STAR_EXIT);
        this.starredValue(kids);
        this.walkChildren(node);
        return;
      }
      case 'YieldStatement':
        this.yieldAt(node);
        this.walkChildren(node);
        return;
      case 'BreakStatement':
        if (this.scope.starInnermost) this.error(node.from, node.to, EXCEPT_STAR_EXIT);
        else if (!this.scope.loop) this.error(node.from, node.to, "'break' outside loop");
        return;
      case 'ContinueStatement':
        if (this.scope.starInnermost) this.error(node.from, node.to, EXCEPT_STAR_EXIT);
        else if (!this.scope.loop) this.error(node.from, node.to, "'continue' not properly in loop");
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
          if (k.name === 'Body') this.nested(node, 1, () => this.body(k));
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
      case 'MatchStatement':
        if (!this.broken(node))
          for (const e of matchErrors(node, this.chunk.src))
            if (e.stage === 'parser') this.syntaxError(e.from, e.to, e.message);
            else this.error(e.from, e.to, e.message);
        this.clauses(node);
        return;
      case 'IfStatement':
      case 'MatchClause':
      case 'MatchBody':
        this.clauses(node);
        return;
      case 'Body':
        this.body(node);
        return;
      case 'ExpressionStatement': {
        const kids = children(node);
        if (kids[0]?.name === '*' && !kids.some((k) => k.name === ','))
          this.error(kids[0].from, node.to, "can't use starred expression here");
        this.walkChildren(node);
        return;
      }
      case 'RaiseStatement': {
        const comma = children(node).find((k) => k.name === ',');
        if (comma) this.syntaxError(comma.from, comma.to, 'invalid syntax');
        this.walkChildren(node);
        return;
      }
      default:
        this.walkChildren(node);
    }
  }

  /** An if statement's or a match statement's parts. */
  private clauses(node: SyntaxNode): void {
    for (const k of children(node)) {
      if (k.name === 'Body') this.body(k);
      else if (k.name === 'MatchClause' || k.name === 'MatchBody') this.statement(k);
      else this.expr(k);
    }
  }

  private body(node: SyntaxNode): void {
    for (let c = node.firstChild; c; c = c.nextSibling) this.statement(c);
  }

  private walkChildren(node: SyntaxNode): void {
    for (let c = node.firstChild; c; c = c.nextSibling) this.expr(c);
  }

  /** Whether `node` holds a grammar error: looked for only inside a top-level statement that has one. */
  private broken(node: SyntaxNode): boolean {
    return this.inBroken && containsError(node);
  }

  private loopBodies(node: SyntaxNode): void {
    let seenElse = false;
    for (const k of children(node)) {
      if (k.name === 'else') seenElse = true;
      if (k.name === 'Body') {
        const saved = { loop: this.scope.loop, star: this.scope.starInnermost };
        if (!seenElse) {
          this.scope.loop = true;
          this.scope.starInnermost = false;
          this.nested(node, 1, () => this.body(k));
        } else this.body(k);
        this.scope.loop = saved.loop;
        this.scope.starInnermost = saved.star;
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
    const handlers = exceptHandlers(kids);
    this.tryForm(node, kids, handlers);
    handlers.forEach((h, i) => {
      if (!h.types.length && !h.star && i < handlers.length - 1)
        this.error(h.at.from, h.at.to, "default 'except:' must be last");
    });
    const guards = handlers.some(
      (h) =>
        !h.types.length ||
        h.types.some((t) => /\b(ImportError|ModuleNotFoundError|Exception|BaseException)\b/.test(this.chunk.text(t))),
    );
    // CPython's frame blocks around each part: the try body is in one (two with both handlers and
    // finally), a handler's body in two more, and all but the finally body inside the finally's.
    const outer = kids.some((k) => k.name === 'finally') ? 1 : 0;
    let part = 'try';
    for (const [i, k] of kids.entries()) {
      if (k.name === 'VariableName' && kids[i - 1]?.name === 'as') {
        this.notDebug(
          k,
          kids
            .slice(0, i)
            .reverse()
            .find((e) => e.name === 'except'),
        );
        this.bind(k);
      }
      if (k.name === 'try' || k.name === 'except' || k.name === 'else' || k.name === 'finally') part = k.name;
      if (k.name === 'Body') {
        const star = handlers.find((h) => h.body === k)?.star;
        const depth =
          part === 'try'
            ? outer + (handlers.length ? 1 : 0)
            : part === 'except'
              ? outer + 2
              : part === 'else'
                ? outer
                : 1;
        this.nested(node, depth, () => {
          if (part === 'try' && guards) {
            this.guardDepth++;
            this.body(k);
            this.guardDepth--;
          } else if (star) this.starHandler(k);
          else this.body(k);
        });
      } else this.expr(k);
    }
  }

  /** The forms of `try` CPython's parser refuses and the grammar lets through. */
  private tryForm(node: SyntaxNode, kids: SyntaxNode[], handlers: ExceptHandler[]): void {
    if (!handlers.length && !kids.some((k) => k.name === 'finally') && !this.broken(node)) {
      const at = this.nextToken(node.to);
      this.syntaxError(at, at + 1, "expected 'except' or 'finally' block");
    }
    const mixed = handlers.find((h) => !!h.star !== !!handlers[0].star);
    if (mixed)
      this.syntaxError(mixed.at.from, mixed.at.to, "cannot have both 'except' and 'except*' on the same 'try'");
    for (const h of handlers) {
      if (h.star && !h.types.length)
        this.syntaxError(h.star.to, h.body.from + 1, 'expected one or more exception types');
      else if (h.comma)
        this.syntaxError(
          h.types[0].from,
          h.types[h.types.length - 1].to,
          'multiple exception types must be parenthesized',
        );
    }
  }

  /** A body inside `depth` more of CPython's frame blocks (loops, with, try): a function allows 20. */
  private nested(statement: SyntaxNode, depth: number, walk: () => void): void {
    const scope = this.scope;
    const saved = scope.blocks ?? 0;
    scope.blocks = saved + depth;
    if (scope.blocks > MAX_BLOCKS && saved <= MAX_BLOCKS) {
      const header = statement.getChild('Body')?.from ?? statement.to;
      this.error(statement.from, header, 'too many statically nested blocks');
    }
    walk();
    scope.blocks = saved;
  }

  /** An `except*` body: `break`, `continue` and `return` cannot leave it. */
  private starHandler(body: SyntaxNode): void {
    const scope = this.scope;
    const saved = { innermost: scope.starInnermost, depth: scope.starDepth };
    scope.starInnermost = true;
    scope.starDepth = (scope.starDepth ?? 0) + 1;
    this.body(body);
    scope.starInnermost = saved.innermost;
    scope.starDepth = saved.depth;
  }

  private classDef(node: SyntaxNode, outer: SyntaxNode): void {
    const kids = children(node);
    const name = kids.find((k) => k.name === 'VariableName');
    if (name && this.scopes.length === 1) {
      this.facts.functions.push({
        name: this.chunk.text(name),
        kind: 'class',
        start: this.chunk.rel(outer.from),
        end: this.chunk.rel(outer.to),
        nameStart: this.chunk.rel(name.from),
        nameEnd: this.chunk.rel(name.to),
        async: false,
      });
    }
    if (name) {
      this.notDebug(name, node);
      this.bind(name);
    }
    for (const k of kids) {
      if (k.name === 'TypeParamList') this.error(k.from, k.to, 'type parameter lists require Python 3.12 or later');
      if (k.name === 'Body') {
        this.enter({ kind: 'class', async: false, loop: false });
        this.body(k);
        this.scopes.pop();
      } else if (k.name === 'ArgList') this.argList(k, true);
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
    const nameText = name ? this.chunk.text(name) : '';
    if (name && topLevel) {
      this.facts.functions.push({
        name: nameText,
        kind: 'function',
        start: this.chunk.rel(outer.from),
        end: this.chunk.rel(outer.to),
        nameStart: this.chunk.rel(name.from),
        nameEnd: this.chunk.rel(name.to),
        async: isAsync,
      });
    } else if (nameText === 'execute') this.facts.nestedExecute = true;
    for (const k of kids) {
      if (k.name === 'TypeParamList') this.error(k.from, k.to, 'type parameter lists require Python 3.12 or later');
      else if (k.name === 'TypeDef') this.expr(k);
    }
    const paramInfo = params ? this.paramList(params, node) : [];
    if (name) {
      this.notDebug(name, node);
      this.bind(name);
    }
    const scope: Scope = { kind: 'function', async: isAsync, loop: false, yields: [], returnsWithValue: [] };
    this.enter(scope);
    for (const p of paramInfo) if (p.kind !== 'marker') this.note(scope, p.name, SymbolFlag.Param);
    if (body) this.body(body);
    this.scopes.pop();
    if (isAsync && scope.yields!.length) {
      for (const r of scope.returnsWithValue!) this.error(r.start, r.end, "'return' with value in async generator");
    }
    if (name && topLevel && nameText === 'execute')
      this.facts.executes.push(
        checkExecute(this.chunk, {
          node,
          name,
          isAsync,
          params,
          info: paramInfo,
          body,
          yields: scope.yields!.length > 0,
        }),
      );
  }

  // ---------------------------------------------------------------- parameters and arguments

  /** A def's or lambda's parameters; `owner` is where CPython reports a parameter named `__debug__`. */
  private paramList(node: SyntaxNode, owner: SyntaxNode): ParamInfo[] {
    const check = checkParameters(node, this.chunk.src);
    for (const p of check.problems)
      if (p.stage === 'parser') this.syntaxError(p.from, p.to, p.message);
      else this.error(p.from, p.to, p.message, p.stage);
    for (const name of check.names) this.notDebug(name, owner);
    for (const e of check.expressions) this.expr(e);
    return check.info;
  }

  /** A call's or a class's arguments (`bases`: a class's, where no generator expression may stand). */
  private argList(node: SyntaxNode, bases = false): void {
    const check = checkArguments(node, this.chunk.src, bases);
    for (const p of check.problems)
      if (p.stage === 'parser') this.syntaxError(p.from, p.to, p.message);
      else this.error(p.from, p.to, p.message);
    for (const k of check.keywords) {
      this.notDebug(k.name);
      this.addSecret(keywordSecret(this.chunk, this.chunk.text(k.name), k.value));
    }
    for (const seg of check.segments) {
      if (seg.some((n) => n.name === 'for')) this.comprehension(seg, 'generator expression', seg[0]);
      else {
        // Keyword names are not expressions; walk values only.
        const start = seg.length >= 3 && seg[1].name === 'AssignOp' && seg[0].name === 'VariableName' ? 2 : 0;
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
    if (groups.length > 2 && groups[0].some((n) => n.name === 'TypeDef')) {
      const second = kids.filter((k) => k.name === 'AssignOp')[1];
      this.syntaxError(second.from, second.to, 'invalid syntax');
    }
    for (const g of targetGroups) {
      const ann = g.findIndex((n) => n.name === 'TypeDef');
      const tnodes = ann >= 0 ? g.slice(0, ann) : g;
      if (ann >= 0) {
        this.expr(g[ann]);
        if (tnodes.some((n) => n.name === ','))
          this.syntaxError(
            tnodes[0].from,
            tnodes[tnodes.length - 1].to,
            'only single target (not tuple) can be annotated',
          );
        else if (tnodes.length === 1) {
          let t = tnodes[0];
          while (t.name === 'ParenthesizedExpression' && t.firstChild?.nextSibling) t = t.firstChild.nextSibling;
          if (t.name === 'TupleExpression')
            this.syntaxError(t.from, t.to, 'only single target (not tuple) can be annotated');
          else if (t.name === 'ArrayExpression')
            this.syntaxError(t.from, t.to, 'only single target (not list) can be annotated');
          else if (t.name !== 'VariableName' && t.name !== 'MemberExpression')
            this.syntaxError(t.from, t.to, 'illegal target for annotation');
          else {
            if (t === tnodes[0] && t.name === 'VariableName') this.annotated(node, t);
            this.target(tnodes[0], 'assign');
          }
        }
      } else {
        this.comparisonHint = groups.length === 2 ? comparisonLike(tnodes, value) : -1;
        this.targetList(tnodes, 'assign');
        this.comparisonHint = -1;
      }
      if (this.scopes.length === 1 && tnodes.some((n) => n.name === 'VariableName' && this.chunk.text(n) === 'execute'))
        this.facts.boundExecute = true;
    }
    if (value.length) {
      this.starredValue(value);
      for (const n of value) this.expr(n);
      // Secrets: NAME = "literal"
      if (value.length === 1) {
        for (const g of targetGroups) {
          const t = g[0];
          if (g.length >= 1 && t) this.addSecret(assignedSecret(this.chunk, t, value[0]));
        }
      }
    }
  }

  /** `name: type [= value]` (not parenthesised): CPython's check against an earlier `global`/`nonlocal`. */
  private annotated(statement: SyntaxNode, name: SyntaxNode): void {
    if (!this.tracking(this.scope)) return;
    const text = this.chunk.text(name);
    const seen = this.scope.symbols?.get(text) ?? 0;
    // At module level an annotation after `global` is allowed.
    if (this.scope.kind !== 'module' && seen & (SymbolFlag.Global | SymbolFlag.Nonlocal)) {
      this.error(
        statement.from,
        statement.to,
        `annotated name '${text}' can't be ${seen & SymbolFlag.Global ? 'global' : 'nonlocal'}`,
        'symtable',
      );
    }
    this.notDebug(name);
    this.bind(name, SymbolFlag.Annotated | SymbolFlag.Local);
  }

  /** `x = *a` / `return *a`: a lone starred expression as a value. */
  private starredValue(nodes: SyntaxNode[]): void {
    if (nodes.length >= 2 && nodes[0].name === '*' && !nodes.some((n) => n.name === ',')) {
      this.error(nodes[0].from, nodes[nodes.length - 1].to, "can't use starred expression here");
    }
  }

  /**
   * A comma-separated target list: a statement-level tuple without parentheses when commas, or the
   * inside of a list or tuple display (`inDisplay`), where one starred target is fine.
   */
  private targetList(nodes: SyntaxNode[], ctx: 'assign' | 'del', inDisplay = false): void {
    const items = split(nodes, ',').filter((s) => s.length);
    const isTuple = inDisplay || nodes.some((n) => n.name === ',');
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
        this.notDebug(node, node, ctx === 'del');
        this.bind(node);
        return;
      case 'MemberExpression':
        if (ctx === 'assign' && node.lastChild?.name === 'PropertyName') this.notDebug(node.lastChild, node);
        this.expr(node);
        return;
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        if (inner && inner.name !== ')') {
          if (inner.name === '*') this.syntaxError(inner.from, node.to - 1, 'cannot use starred expression here');
          else if (inner.name === 'YieldExpression') this.syntaxError(inner.from, inner.to, assignToYield(ctx, true));
          else this.target(inner, ctx);
        }
        return;
      }
      case 'TupleExpression':
      case 'ArrayExpression': {
        const inner = children(node).slice(1, -1);
        if (ctx === 'del' && inner.some((n) => n.name === '*')) {
          const s = inner.find((n) => n.name === '*')!;
          this.syntaxError(s.from, s.to, 'cannot delete starred');
          return;
        }
        this.targetList(inner, ctx, true);
        return;
      }
      case '⚠':
      case ',':
        return;
      default: {
        if (node.type.isError) return;
        if (node.name === 'YieldExpression') return this.syntaxError(node.from, node.to, assignToYield(ctx, false));
        const message = `cannot ${ctx === 'del' ? 'delete' : 'assign to'} ${describe(node, this.chunk.src)}`;
        this.syntaxError(
          node.from,
          node.to,
          node.from === this.comparisonHint ? `${message} here. Maybe you meant '==' instead of '='?` : message,
        );
      }
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
          this.note(this.scope, this.chunk.text(node), SymbolFlag.Use);
        if (node.to - node.from === 9 && this.chunk.text(node) === 'variables') this.variables(node);
        return;
      case 'CapturePattern':
      case 'AsPattern':
        // `case x`, `case p as x`: the name is bound (`_` is the wildcard, no name).
        for (let c = node.firstChild; c; c = c.nextSibling) {
          if (c.name === 'VariableName') {
            this.notDebug(c, node);
            if (this.chunk.text(c) !== '_') this.bind(c);
          } else this.expr(c);
        }
        return;
      case 'KeywordPattern':
        // `C(attr=pattern)`: `attr` names an attribute, not a variable.
        for (let c = node.firstChild?.nextSibling ?? null; c; c = c.nextSibling) this.expr(c);
        return;
      case 'String':
      case 'FormatString':
        this.addSecret(literalSecret(this.chunk, node));
        if (node.name === 'FormatString') this.walkChildren(node);
        return;
      case 'ContinuedString': {
        const parts = children(node);
        const bytes = parts.map((p) => /^[rRfFuU]?[bB]/.test(this.chunk.text(p)));
        if (bytes.some((b) => b) && bytes.some((b) => !b))
          this.syntaxError(node.from, node.to, 'cannot mix bytes and nonbytes literals');
        for (const p of parts) this.expr(p);
        return;
      }
      case 'AwaitExpression': {
        const operand = node.firstChild?.nextSibling;
        if (operand?.name === 'AwaitExpression' && operand.firstChild)
          this.syntaxError(operand.firstChild.from, operand.firstChild.to, 'invalid syntax');
        const comprehension = this.scope.kind === 'comprehension' ? this.scope : undefined;
        if (comprehension) comprehension.awaits = true;
        if (comprehension && comprehension.what !== 'generator expression') {
          this.walkChildren(node); // the comprehension's own check reports it
          return;
        }
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
        if (params) this.paramList(params, node);
        const colon = kids.findIndex((k) => k.name === ':');
        this.enter({ kind: 'lambda', async: false, loop: false, yields: [], returnsWithValue: [] });
        for (const k of kids.slice(colon + 1)) this.expr(k);
        this.scopes.pop();
        return;
      }
      case 'FormatReplacement': {
        // `{lambda x: x}` ends the expression at its ':'; `{*a}` is no tuple.
        const kids = children(node);
        const first = kids[1];
        if (first?.name === 'LambdaExpression') {
          const colon = first.getChild(':') ?? first;
          this.syntaxError(colon.from, colon.to, 'f-string: invalid syntax');
        } else if (first?.name === '*' && !kids.some((k) => k.name === ','))
          this.syntaxError(first.from, kids[2]?.to ?? first.to, 'f-string: cannot use starred expression here');
        this.walkChildren(node);
        return;
      }
      case 'MemberExpression': {
        const property = node.lastChild;
        if (property?.name === 'PropertyName' && KEYWORDS.has(this.chunk.text(property)))
          this.syntaxError(property.from, property.to, 'invalid syntax');
        this.walkChildren(node);
        return;
      }
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        if (inner?.name === '*')
          this.syntaxError(inner.from, (node.lastChild ?? inner).from, 'cannot use starred expression here');
        this.walkChildren(node);
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
              : describe(t, this.chunk.src);
          this.syntaxError(t.from, t.to, `cannot use assignment expressions with ${what}`);
        }
        if (this.iterableDepth > 0)
          this.error(
            node.from,
            node.to,
            'assignment expression cannot be used in a comprehension iterable expression',
            'symtable',
          );
        else if (t?.name === 'VariableName' && this.scope.kind === 'comprehension') this.comprehensionWalrus(t);
        if (t?.name === 'VariableName') this.notDebug(t);
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
        this.comprehension(children(node).slice(1, -1), COMPREHENSIONS[node.name], node);
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
        this.error(node.from, node.to, `'yield' inside ${s.what}`, 'symtable');
        return;
      }
      if (s.kind === 'function' || s.kind === 'lambda') {
        s.yields!.push(node.from);
        if (s.async && /^yield\s+from\b/.test(this.chunk.text(node)))
          this.error(node.from, node.to, "'yield from' inside async function");
        return;
      }
      break;
    }
    this.error(node.from, node.to, "'yield' outside function");
  }

  /**
   * Comprehension parts: element, then `[async] for targets in iter (if cond)*` clauses. Walked in
   * CPython's order: the clauses, then the element, so that `:=` meets the iteration variables.
   */
  private comprehension(parts: SyntaxNode[], what: string, at: SyntaxNode): void {
    const start = parts.findIndex((k) => k.name === 'for' || k.name === 'async');
    const clauses = start < 0 ? [] : comprehensionClauses(parts.slice(start));
    const star = parts[0];
    if (start > 0 && (star.name === '*' || star.name === '**'))
      this.syntaxError(
        star.from,
        parts[start - 1].to,
        star.name === '*'
          ? 'iterable unpacking cannot be used in comprehension'
          : 'dict unpacking cannot be used in dict comprehension',
      );
    if (!clauses.length) {
      for (const p of parts) this.expr(p);
      return;
    }
    // The first iterable belongs to the enclosing scope.
    this.iterable(clauses[0].iterable);
    const fn = this.functionScope();
    const outerAsync = !!fn && fn.async && fn.kind === 'function';
    const scope: Scope = { kind: 'comprehension', async: outerAsync, loop: false, what };
    scope.awaits = clauses.some((c) => c.async);
    this.enter(scope);
    clauses.forEach((c, i) => {
      this.iterationTarget = true;
      this.targetList(c.targets, 'assign');
      this.iterationTarget = false;
      if (i > 0) this.iterable(c.iterable);
      for (const n of c.conditions) this.expr(n);
    });
    for (const p of parts.slice(0, start)) this.expr(p);
    this.scopes.pop();
    // `async for` or `await` (here or in a comprehension inside) makes it asynchronous; a generator
    // expression may be, the others only in an async function.
    if (!scope.awaits || what === 'generator expression') return;
    const outer = this.scope;
    if (outer.kind === 'comprehension') outer.awaits = true;
    else if (outer.kind !== 'function' || !outer.async)
      this.error(at.from, at.to, 'asynchronous comprehension outside of an asynchronous function');
  }

  private iterable(nodes: SyntaxNode[]): void {
    this.iterableDepth++;
    for (const n of nodes) this.expr(n);
    this.iterableDepth--;
  }

  /** A comprehension's `for` target: CPython refuses rebinding a name an earlier `:=` of it bound. */
  private iterationVariable(node: SyntaxNode): void {
    const scope = this.scope;
    const name = this.chunk.text(node);
    if (scope.walrusTargets?.has(name))
      this.error(
        node.from,
        node.to,
        `comprehension inner loop cannot rebind assignment expression target '${name}'`,
        'symtable',
      );
    (scope.iterationVariables ??= new Set()).add(name);
  }

  /** `name := …` in a comprehension binds outside it: CPython's checks of the scopes it crosses. */
  private comprehensionWalrus(target: SyntaxNode): void {
    const name = this.chunk.text(target);
    (this.scope.walrusTargets ??= new Set()).add(name);
    for (let s: Scope | undefined = this.scope; s; s = s.parent) {
      if (s.kind === 'comprehension') {
        if (s.iterationVariables?.has(name))
          return this.error(
            target.from,
            target.to,
            `assignment expression cannot rebind comprehension iteration variable '${name}'`,
            'symtable',
          );
        continue;
      }
      if (s.kind === 'class')
        this.error(
          target.from,
          target.to,
          'assignment expression within a comprehension cannot be used in a class body',
          'symtable',
        );
      return;
    }
  }

  private dictionary(node: SyntaxNode): void {
    const items = split(children(node).slice(1, -1), ',');
    for (const item of items) {
      for (const n of item) this.expr(n);
      // Secrets: {"api_key": "literal"}
      if (item.length === 3 && item[1].name === ':') {
        const k = plainString(item[0], this.chunk.src);
        if (k) this.addSecret(keywordSecret(this.chunk, k.value, item[2]));
      }
    }
  }

  private variables(node: SyntaxNode): void {
    const use = variablesUse(this.chunk, node);
    if (use === 'dynamic') this.facts.dynamicVariables = true;
    else if (use !== 'parameter') this.facts.keys.push(use);
  }

  /** One finding per literal: the content rule and the name rule may both see it. */
  private addSecret(problem: RelProblem | undefined): void {
    if (problem && !this.facts.secrets.some((s) => s.start === problem.start)) this.facts.secrets.push(problem);
  }

  // ---------------------------------------------------------------- imports

  private importStatement(node: SyntaxNode): void {
    const kids = children(node);
    const paren = kids.find((k) => k.name === '(');
    const last = kids[kids.length - 1];
    if (kids[0]?.name === 'import' && paren) this.syntaxError(paren.from, paren.to, 'invalid syntax');
    else if (!paren && last?.name === ',')
      this.syntaxError(last.from, last.to, 'trailing comma not allowed without surrounding parentheses');
    for (const bound of importedNames(kids)) this.notDebug(bound, node);
    if (this.tracking(this.scope)) this.importBindings(kids);
    if (this.scopes.length === 1 && importsExecute(this.chunk, node)) this.facts.boundExecute = true;
    const star = starImport(kids);
    if (star && this.scopes.length > 1)
      this.error(star.from, star.to, 'import * only allowed at module level', 'symtable');
    this.facts.imports.push(...importedModules(this.chunk, kids, this.guardDepth > 0));
  }

  private importBindings(kids: SyntaxNode[]): void {
    for (const bound of importedNames(kids)) this.bind(bound, SymbolFlag.Import);
  }

  /** `__debug__` is a constant: CPython's compiler refuses to bind it (reported at `at`). */
  private notDebug(name: SyntaxNode, at: SyntaxNode = name, del = false): void {
    if (name.to - name.from === 9 && this.chunk.text(name) === '__debug__')
      this.error(at.from, at.to, del ? 'cannot delete __debug__' : 'cannot assign to __debug__');
  }
}
