// Names as pyflakes sees them, one top-level chunk at a time: which names each scope binds and reads,
// resolved with Python's scoping rules (function, class and comprehension scopes, `global`/`nonlocal`,
// class bodies invisible to their methods). What reaches module scope is kept for the module's own
// check (moduleNames.ts), which spans chunks; what a function's scope alone decides (its unused locals
// and imports) is decided here. Everything errs towards silence: a report must be one pyflakes makes.
import type { SyntaxNode } from '@lezer/common';
import { comprehensionClauses } from './statementForms';
import { children } from './syntaxNodes';
import type { ProblemOf } from './types';

/** A name read that no function or class scope binds: module-level or built in, or undefined. */
export interface ModuleRead {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  /** Read when a function runs (after the whole module ran), not while the module runs. */
  readonly deferred: boolean;
  /** Inside a `try:` that catches NameError. */
  readonly guarded: boolean;
  /** In an annotation (not evaluated under `from __future__ import annotations`). */
  readonly annotation: boolean;
}

/** A module-level import binding. */
export interface ModuleImport {
  readonly name: string;
  /** What pyflakes calls it: `os.path` for `import os.path`, `x` for `from m import x`. */
  readonly display: string;
  readonly start: number;
  readonly end: number;
  /** The characters removing it deletes (the statement, or the name and a comma). */
  readonly remove: { readonly start: number; readonly end: number };
}

/** What a chunk tells the module-level check; offsets relative to the chunk start. */
export interface ChunkNames {
  /** Module-level bindings by name, each with where it happens; imports included. */
  readonly bound: { readonly name: string; readonly start: number; readonly import: boolean }[];
  /** Names a function declares `global` (pyflakes binds them module-wide). */
  readonly globals: string[];
  readonly reads: ModuleRead[];
  /** Names in `# type:` comments and string annotations: they use imports, and are not checked. */
  readonly softReads: string[];
  /** `import a.b as c`: reading c uses the binding of a.b's root too (pyflakes: by its full name). */
  readonly aliases: { readonly alias: string; readonly full: string }[];
  readonly imports: ModuleImport[];
  /** `from __future__ import annotations`: annotations are not evaluated. */
  readonly futureAnnotations: boolean;
  /** `from m import *` at module level: undefined names cannot be told apart. */
  readonly starImport: boolean;
  /** The string literals `__all__` is built from; null when it is built some other way. */
  readonly all: string[] | null | undefined;
  /** Imports of the chunk's function scopes that the function never uses (the module's: moduleNames.ts). */
  readonly unusedImports: ModuleImport[];
  /** Locals of the chunk's functions assigned to and never read. */
  readonly unusedLocals: UnusedLocal[];
}

export interface UnusedLocal {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

type ScopeKind = 'module' | 'class' | 'function' | 'comprehension';

interface Binding {
  readonly kind: 'import' | 'assign' | 'other';
  readonly start: number;
  readonly end: number;
  readonly imported?: ModuleImport;
}

interface Read {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly guarded: boolean;
  readonly annotation: boolean;
}

class Scope {
  readonly bindings = new Map<string, Binding[]>();
  readonly reads: Read[] = [];
  readonly declared = new Map<string, 'global' | 'nonlocal'>();
  /** Names read from this scope by its own code or a nested scope. */
  readonly used = new Set<string>();
  usesLocals = false;
  constructor(
    readonly kind: ScopeKind,
    readonly parent: Scope | undefined,
    /** Its code runs when a function is called, after the module ran. */
    readonly deferred: boolean,
  ) {}

  bind(name: string, binding: Binding): void {
    const list = this.bindings.get(name);
    if (list) list.push(binding);
    else this.bindings.set(name, [binding]);
  }
}

/** Names implicitly bound in a class body. */
const CLASS_NAMES = new Set(['__module__', '__qualname__']);
/** Locals pyflakes never calls unused. */
const IGNORED_LOCALS = new Set(['_', '__tracebackhide__', '__traceback_info__', '__traceback_supplement__']);

export function chunkNames(src: string, base: number, nodes: readonly SyntaxNode[]): ChunkNames {
  return new NameWalker(src, base).run(nodes);
}

class NameWalker {
  private readonly module = new Scope('module', undefined, false);
  private readonly scopes: Scope[] = [this.module];
  private readonly imports: ModuleImport[] = [];
  private readonly softReads: string[] = [];
  private readonly aliases: { alias: string; full: string }[] = [];
  private readonly globals: string[] = [];
  private starImport = false;
  private all: string[] | null | undefined;
  /** Depth of enclosing `try:` bodies whose handlers catch NameError. */
  private guarded = 0;
  /** Depth of enclosing annotations. */
  private annotating = 0;
  private futureAnnotations = false;

  constructor(
    private readonly src: string,
    private readonly base: number,
  ) {}

  run(nodes: readonly SyntaxNode[]): ChunkNames {
    for (const n of nodes) this.statement(n, this.module);
    if (nodes.length) {
      const text = this.src.slice(nodes[0].from, nodes[nodes.length - 1].to);
      for (const m of text.matchAll(/#\s*type:([^\n\r]*)/g)) this.softReads.push(...identifiers(m[1]));
    }
    const reads: ModuleRead[] = [];
    const unusedImports: ModuleImport[] = [];
    const unusedLocals: UnusedLocal[] = [];
    for (const scope of this.scopes) for (const r of scope.reads) this.resolve(scope, r, reads);
    for (const scope of this.scopes)
      if (scope.kind === 'function') this.unusedInFunction(scope, unusedImports, unusedLocals);
    const bound: ChunkNames['bound'] = [];
    for (const [name, list] of this.module.bindings)
      for (const b of list) bound.push({ name, start: b.start, import: b.kind === 'import' });
    return {
      bound,
      globals: this.globals,
      reads,
      softReads: this.softReads,
      aliases: this.aliases,
      imports: this.imports,
      starImport: this.starImport,
      futureAnnotations: this.futureAnnotations,
      all: this.all,
      unusedImports,
      unusedLocals,
    };
  }

  private text(n: SyntaxNode): string {
    return this.src.slice(n.from, n.to);
  }

  private rel(offset: number): number {
    return offset - this.base;
  }

  private newScope(kind: ScopeKind, parent: Scope): Scope {
    const s = new Scope(kind, parent, parent.deferred || kind === 'function');
    this.scopes.push(s);
    return s;
  }

  // --- statements -----------------------------------------------------------------------------------

  private body(node: SyntaxNode, scope: Scope): void {
    for (const c of children(node)) this.statement(c, scope);
  }

  private statement(n: SyntaxNode, scope: Scope): void {
    switch (n.name) {
      case 'AssignStatement':
        return this.assign(n, scope);
      case 'UpdateStatement': {
        const [target, , ...value] = children(n);
        for (const v of value) this.expr(v, scope);
        if (target.name === 'VariableName') {
          this.read(target, scope);
          this.bindName(target, scope, 'other');
        } else this.expr(target, scope);
        return;
      }
      case 'DeleteStatement':
        for (const c of children(n)) if (c.name !== 'del' && c.name !== ',') this.expr(c, scope);
        return;
      case 'ImportStatement':
        return this.importStatement(n, scope);
      case 'ScopeStatement': {
        const [kw, ...names] = children(n);
        const kind = kw.name === 'global' ? 'global' : 'nonlocal';
        for (const v of names) {
          if (v.name !== 'VariableName') continue;
          const name = this.text(v);
          scope.declared.set(name, kind);
          if (scope !== this.module) this.read(v, scope); // pyflakes counts the declaration as a use
          if (kind === 'global' && scope !== this.module) this.globals.push(name);
        }
        return;
      }
      case 'FunctionDefinition':
        return this.functionDef(n, scope);
      case 'ClassDefinition':
        return this.classDef(n, scope);
      case 'DecoratedStatement':
        // The decorators run first, in the enclosing scope; then the definition.
        for (const c of children(n)) {
          if (c.name === 'Decorator') for (const e of children(c)) if (e.name !== 'At') this.expr(e, scope);
          if (c.name === 'FunctionDefinition') this.functionDef(c, scope);
          if (c.name === 'ClassDefinition') this.classDef(c, scope);
        }
        return;
      case 'ForStatement':
        return this.forStatement(n, scope);
      case 'WithStatement':
        return this.withStatement(n, scope);
      case 'TryStatement':
        return this.tryStatement(n, scope);
      case 'MatchStatement':
        return this.matchStatement(n, scope);
      case 'IfStatement':
      case 'WhileStatement':
      case 'StatementGroup':
        for (const c of children(n)) {
          if (c.name === 'Body') this.body(c, scope);
          else this.statementOrExpr(c, scope);
        }
        return;
      case 'TypeDefinition':
        return; // Python 3.12: already a syntax error for 3.11
      default:
        for (const c of children(n)) this.statementOrExpr(c, scope);
    }
  }

  private statementOrExpr(n: SyntaxNode, scope: Scope): void {
    if (n.type.is('Statement')) this.statement(n, scope);
    else this.expr(n, scope);
  }

  private assign(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    const ops = cs.filter((c) => c.name === 'AssignOp');
    const last = ops.length ? cs.indexOf(ops[ops.length - 1]) : -1;
    // Values first (they run first), then annotations, then targets.
    for (const v of cs.slice(last + 1)) this.expr(v, scope);
    const targets = cs.slice(0, Math.max(last, 0));
    for (const t of targets) if (t.name === 'TypeDef') this.annotation(t, scope);
    const simple = targets.filter((t) => t.name !== 'TypeDef' && t.name !== 'AssignOp' && t.name !== ',');
    const single = !targets.some((t) => t.name === ',');
    for (const t of simple) this.target(t, scope, single ? 'assign' : 'other');
    if (last < 0) {
      // `x: int` alone: pyflakes does not count it as a binding; bound here all the same, so that no
      // read of it is reported (silence over a guess).
      for (const c of cs) if (c.name === 'TypeDef') this.annotation(c, scope);
      const first = cs[0];
      if (first?.name === 'VariableName') this.bindName(first, scope, 'other');
      else if (first) this.expr(first, scope);
    }
    if (scope === this.module && simple.some((t) => t.name === 'VariableName' && this.text(t) === '__all__'))
      this.allFrom(cs.slice(last + 1));
  }

  /**
   * `__all__ = [...]`: the names it lists, or null when not literal (`+=` and `.extend` read `__all__`,
   * which the module check takes as dynamic).
   */
  private allFrom(values: SyntaxNode[]): void {
    const names: string[] = [];
    let literal = values.length > 0;
    for (const v of values) {
      if (!['ArrayExpression', 'TupleExpression'].includes(v.name)) {
        literal = false;
        continue;
      }
      for (const e of children(v)) {
        if (['[', ']', '(', ')', ','].includes(e.name)) continue;
        const s = /^(['"])([A-Za-z_]\w*)\1$/.exec(this.text(e));
        if (e.name === 'String' && s) names.push(s[2]);
        else literal = false;
      }
    }
    this.all = literal && this.all !== null ? names : null;
  }

  private importStatement(n: SyntaxNode, scope: Scope): void {
    const cs = children(n).filter((c) => c.name !== '(' && c.name !== ')');
    const from = cs[0]?.name === 'from';
    let i = from ? cs.findIndex((c) => c.name === 'import') + 1 : 1;
    const module = from ? this.src.slice(cs[1].from, cs[i - 1].from).trim() : '';
    if (from && module === '__future__') {
      if (cs.some((c) => c.name === 'VariableName' && this.text(c) === 'annotations')) this.futureAnnotations = true;
      return;
    }
    const items: { nodes: SyntaxNode[]; alias?: SyntaxNode }[] = [];
    let item: SyntaxNode[] = [];
    let alias: SyntaxNode | undefined;
    for (; i <= cs.length; i++) {
      const c = cs[i];
      if (!c || c.name === ',') {
        if (item.length) items.push({ nodes: item, alias });
        item = [];
        alias = undefined;
      } else if (c.name === '*') {
        if (scope === this.module) this.starImport = true;
        return;
      } else if (c.name === 'as') {
        alias = cs[++i];
      } else if (c.name === 'VariableName') item.push(c);
    }
    for (const [k, it] of items.entries()) {
      const first = it.nodes[0];
      const dotted = this.src.slice(first.from, it.nodes[it.nodes.length - 1].to);
      const nameNode = it.alias ?? first;
      const name = this.text(nameNode);
      // `import a as a` / `from m import x as x` re-export on purpose.
      const reexport = !!it.alias && this.text(it.alias) === (from ? dotted : dotted.split('.').pop());
      const full = module.endsWith('.') ? `${module}${dotted}` : `${module}.${dotted}`;
      const display = it.alias ? `${from ? full : dotted} as ${name}` : from ? full : dotted;
      const remove =
        items.length === 1
          ? this.statementLine(n)
          : this.itemWithComma(first.from, (it.alias ?? it.nodes[it.nodes.length - 1]).to, k === items.length - 1);
      const imported: ModuleImport = {
        name,
        display,
        start: this.rel(first.from),
        end: this.rel(nameNode.to),
        remove: { start: this.rel(remove.start), end: this.rel(remove.end) },
      };
      scope.bind(name, {
        kind: reexport ? 'other' : 'import',
        start: imported.start,
        end: imported.end,
        imported,
      });
      if (scope === this.module && !reexport) this.imports.push(imported);
      if (scope === this.module && it.alias && !from) this.aliases.push({ alias: name, full: dotted.split('.')[0] });
    }
  }

  /** The whole line of a statement, its line break included, when it is alone on its lines. */
  private statementLine(n: SyntaxNode): { start: number; end: number } {
    let start = n.from;
    while (start > 0 && ' \t'.includes(this.src[start - 1])) start--;
    let end = n.to;
    while (end < this.src.length && ' \t'.includes(this.src[end])) end++;
    const alone =
      (start === 0 || '\r\n'.includes(this.src[start - 1])) &&
      (end >= this.src.length || '\r\n#'.includes(this.src[end]));
    if (!alone) {
      // `import os; x = 1`: the statement and its `;`, so that what stays still parses.
      if (this.src[end] !== ';') return { start: n.from, end: n.to };
      end++;
      while (end < this.src.length && ' \t'.includes(this.src[end])) end++;
      return { start: n.from, end };
    }
    if (this.src[end] === '\r' && this.src[end + 1] === '\n') end += 2;
    else if (end < this.src.length && '\r\n'.includes(this.src[end])) end++;
    return { start, end };
  }

  /** One name of an import list with the comma after it (or, for the last, the comma before). */
  private itemWithComma(from: number, to: number, last: boolean): { start: number; end: number } {
    if (last) {
      let s = from;
      while (s > 0 && /\s/.test(this.src[s - 1])) s--;
      if (this.src[s - 1] === ',') s--;
      return { start: s, end: to };
    }
    let e = to;
    while (e < this.src.length && this.src[e] === ' ') e++;
    if (this.src[e] === ',') e++;
    while (e < this.src.length && this.src[e] === ' ') e++;
    return { start: from, end: e };
  }

  private functionDef(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    const name = cs.find((c) => c.name === 'VariableName');
    const inner = this.newScope('function', scope);
    for (const c of cs) {
      if (c.name === 'ParamList') this.params(c, scope, inner);
      else if (c.name === 'TypeDef') this.annotation(c, scope);
      else if (c.name === 'Body') this.body(c, inner);
    }
    if (name) this.bindName(name, scope, 'other');
  }

  /** Parameters: defaults and annotations run in the enclosing scope, names bind in the function's. */
  private params(list: SyntaxNode, outer: Scope, inner: Scope): void {
    const cs = children(list);
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c.name === 'VariableName') this.bindName(c, inner, 'other');
      else if (c.name === 'TypeDef' || c.name === 'StarTypeDef') this.annotation(c, outer);
      else if (c.name === 'AssignOp' && cs[i + 1]) this.expr(cs[++i], outer);
    }
  }

  private annotation(n: SyntaxNode, scope: Scope): void {
    this.annotating++;
    for (const c of children(n)) if (c.name !== ':' && c.name !== '->' && c.name !== '*') this.expr(c, scope);
    this.annotating--;
    const c = n.cursor();
    while (c.next() && c.from < n.to)
      if (c.name === 'String') this.softReads.push(...identifiers(this.src.slice(c.from, c.to)));
  }

  private classDef(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    const name = cs.find((c) => c.name === 'VariableName');
    const inner = this.newScope('class', scope);
    for (const c of cs) {
      if (c.name === 'ArgList') this.expr(c, scope);
      else if (c.name === 'Body') this.body(c, inner);
    }
    if (name) this.bindName(name, scope, 'other');
  }

  private forStatement(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    const inAt = cs.findIndex((c) => c.name === 'in');
    for (const c of cs.slice(inAt + 1)) {
      if (c.name === 'Body') this.body(c, scope);
      else if (c.name !== 'else') this.expr(c, scope);
    }
    for (const t of cs.slice(0, inAt))
      if (t.name !== 'for' && t.name !== 'async' && t.name !== ',') this.target(t, scope, 'other');
  }

  private withStatement(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c.name === 'Body') this.body(c, scope);
      else if (c.name === 'as' && cs[i + 1]) this.target(cs[++i], scope, 'other');
      else if (!['with', 'async', ',', '(', ')'].includes(c.name)) this.expr(c, scope);
    }
  }

  private tryStatement(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    const handlers: string[] = [];
    for (let i = 0; i < cs.length; i++) {
      if (cs[i].name !== 'except') continue;
      const type = cs[i + 1]?.name === '*' ? cs[i + 2] : cs[i + 1];
      if (!type || type.name === 'Body') continue;
      const names =
        type.name === 'TupleExpression' || type.name === 'ParenthesizedExpression' ? children(type) : [type];
      for (const t of names) handlers.push(this.text(t));
    }
    const catchesNameError = handlers.includes('NameError');
    let first = true;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      if (c.name === 'Body') {
        if (first && catchesNameError) this.guarded++;
        this.body(c, scope);
        if (first && catchesNameError) this.guarded--;
        first = false;
      } else if (
        (c.name === 'as' || c.name === ',') &&
        cs[i + 1]?.name === 'VariableName' &&
        cs[i + 2]?.name === 'Body'
      ) {
        this.bindName(cs[++i], scope, 'other');
      } else if (!['try', 'except', 'else', 'finally', '*'].includes(c.name)) this.expr(c, scope);
    }
  }

  private matchStatement(n: SyntaxNode, scope: Scope): void {
    for (const c of children(n)) {
      if (c.name === 'MatchBody') {
        for (const clause of children(c)) {
          if (clause.name !== 'MatchClause') continue;
          for (const part of children(clause)) {
            if (part.name === 'Body') this.body(part, scope);
            else if (part.name === 'Guard') this.expr(part, scope);
            else if (part.name !== 'case') this.pattern(part, scope);
          }
        }
      } else if (c.name !== 'match') this.expr(c, scope);
    }
  }

  private pattern(n: SyntaxNode, scope: Scope): void {
    switch (n.name) {
      case 'CapturePattern':
      case 'AsPattern':
      case 'StarPattern':
        for (const c of children(n)) {
          if (c.name === 'VariableName') {
            if (this.text(c) !== '_') this.bindName(c, scope, 'other');
          } else this.pattern(c, scope);
        }
        return;
      case 'AttributePattern':
        this.read(n.firstChild!, scope);
        return;
      case 'ClassPattern':
        for (const c of children(n)) {
          if (c.name === 'VariableName') this.read(c, scope);
          else this.pattern(c, scope);
        }
        return;
      case 'KeywordPattern':
        for (const c of children(n).slice(1)) this.pattern(c, scope);
        return;
      case 'MappingPattern': {
        const cs = children(n);
        for (let i = 0; i < cs.length; i++) {
          if (cs[i].name === '**' && cs[i + 1]?.name === 'VariableName') this.bindName(cs[++i], scope, 'other');
          else if (cs[i].name === 'VariableName') this.read(cs[i], scope);
          else this.pattern(cs[i], scope);
        }
        return;
      }
      case 'LiteralPattern':
        return;
      default:
        for (const c of children(n)) this.pattern(c, scope);
    }
  }

  // --- targets and expressions -------------------------------------------------------------------------

  /** An assignment target: names bind, anything else is read (`a.b = …` reads `a`). */
  private target(n: SyntaxNode, scope: Scope, kind: 'assign' | 'other'): void {
    switch (n.name) {
      case 'VariableName':
        return this.bindName(n, scope, kind);
      case 'TupleExpression':
      case 'ArrayExpression':
      case 'ParenthesizedExpression':
        for (const c of children(n))
          if (!['(', ')', '[', ']', ',', '*'].includes(c.name)) this.target(c, scope, 'other');
        return;
      default:
        if (n.name === '*') return;
        this.expr(n, scope);
    }
  }

  private bindName(n: SyntaxNode, scope: Scope, kind: 'assign' | 'other'): void {
    scope.bind(this.text(n), { kind, start: this.rel(n.from), end: this.rel(n.to) });
  }

  private read(n: SyntaxNode, scope: Scope): void {
    const name = this.text(n);
    if (name === 'locals') scope.usesLocals = true;
    scope.reads.push({
      name,
      start: this.rel(n.from),
      end: this.rel(n.to),
      guarded: this.guarded > 0,
      annotation: this.annotating > 0,
    });
  }

  private expr(n: SyntaxNode, scope: Scope): void {
    switch (n.name) {
      case 'VariableName':
        return this.read(n, scope);
      case 'PropertyName':
      case 'String':
      case 'Number':
      case 'Comment':
        return;
      case 'LambdaExpression': {
        const inner = this.newScope('function', scope);
        for (const c of children(n)) {
          if (c.name === 'ParamList') this.params(c, scope, inner);
          else if (c.name !== 'lambda' && c.name !== ':') this.expr(c, inner);
        }
        return;
      }
      case 'NamedExpression': {
        const [target, , value] = children(n);
        if (value) this.expr(value, scope);
        if (target?.name === 'VariableName') this.bindName(target, this.walrusScope(scope), 'assign');
        return;
      }
      case 'ArgList':
        return this.argList(n, scope);
      case 'ComprehensionExpression':
      case 'ArrayComprehensionExpression':
      case 'SetComprehensionExpression':
      case 'DictionaryComprehensionExpression':
        return this.comprehension(n, scope);
      default:
        for (const c of children(n)) {
          if (c.type.is('Statement')) this.statement(c, scope);
          else this.expr(c, scope);
        }
    }
  }

  /** Keyword arguments name parameters, not variables; `f(x := 1)` binds x. */
  private argList(n: SyntaxNode, scope: Scope): void {
    const cs = children(n);
    // `f(x for x in xs)`: the generator's parts are the arguments' own nodes.
    if (cs.some((c) => c.name === 'for')) return this.comprehension(n, scope);
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i];
      const op = cs[i + 1];
      if (c.name === 'VariableName' && op?.name === 'AssignOp') {
        const value = cs[i + 2];
        if (value) this.expr(value, scope);
        if (this.text(op) === ':=') this.bindName(c, this.walrusScope(scope), 'assign');
        i += 2;
      } else this.expr(c, scope);
    }
  }

  /** `:=` in a comprehension binds in the nearest enclosing scope that is not one. */
  private walrusScope(scope: Scope): Scope {
    let s = scope;
    while (s.kind === 'comprehension' && s.parent) s = s.parent;
    return s;
  }

  private comprehension(n: SyntaxNode, scope: Scope): void {
    const inner = this.newScope('comprehension', scope);
    const parts = children(n).filter((c) => !['(', ')', '[', ']', '{', '}'].includes(c.name));
    const found = parts.findIndex((c) => c.name === 'for' || c.name === 'async');
    const start = found < 0 ? parts.length : found;
    // The first iterable runs in the enclosing scope; targets bind in the comprehension's.
    comprehensionClauses(parts.slice(start)).forEach((clause, i) => {
      for (const e of clause.iterable) this.expr(e, i === 0 ? scope : inner);
      for (const t of clause.targets) if (t.name !== ',') this.target(t, inner, 'other');
      for (const e of clause.conditions) this.expr(e, inner);
    });
    for (const e of parts.slice(0, start)) if (![':', ',', '*', '**'].includes(e.name)) this.expr(e, inner);
  }

  // --- resolution --------------------------------------------------------------------------------------

  private resolve(from: Scope, r: Read, out: ModuleRead[]): void {
    let s: Scope | undefined = from;
    let inClass = false;
    while (s) {
      if (s.kind === 'class') {
        inClass = true;
        // A class body sees its own names; its methods do not (its comprehensions may: allowed).
        const own = s === from || (from.kind === 'comprehension' && from.parent === s);
        if (own && (s.bindings.has(r.name) || CLASS_NAMES.has(r.name))) return void s.used.add(r.name);
        s = s.parent;
        continue;
      }
      const declared = s.declared.get(r.name);
      if (declared === 'global' || s.kind === 'module') break;
      if (declared === 'nonlocal')
        s.used.add(r.name); // and the enclosing function's binding is used too
      else if (s.bindings.has(r.name)) return void s.used.add(r.name);
      s = s.parent;
    }
    if (r.name === '__class__' && inClass) return;
    out.push({ ...r, deferred: from.deferred });
  }

  private unusedInFunction(scope: Scope, imports: ModuleImport[], locals: UnusedLocal[]): void {
    for (const [name, list] of scope.bindings) {
      if (scope.used.has(name) || scope.declared.has(name) || IGNORED_LOCALS.has(name)) continue;
      const last = list[list.length - 1];
      if (list.every((b) => b.kind === 'import')) imports.push(last.imported!);
      else if (!scope.usesLocals && list.every((b) => b.kind === 'assign'))
        locals.push({ name, start: last.start, end: last.end });
    }
  }
}

/** unused-import of an import `base` after the offsets it was recorded with. */
export function unusedImport(i: ModuleImport, base: number): ProblemOf<'unused-import'> {
  return {
    code: 'unused-import',
    start: i.start + base,
    end: i.end + base,
    message: `'${i.display}' is imported but never used: remove the import.`,
    data: { remove: { start: i.remove.start + base, end: i.remove.end + base } },
  };
}

/** unused-local of a local `base` after the offsets it was recorded with. */
export function unusedLocal(l: UnusedLocal, base: number): ProblemOf<'unused-local'> {
  return {
    code: 'unused-local',
    start: l.start + base,
    end: l.end + base,
    message: `Local variable '${l.name}' is assigned to but never used: use it, or remove the assignment.`,
  };
}

/** The identifiers in a piece of text (a type comment, a string annotation). */
function identifiers(text: string): string[] {
  return text.match(/[A-Za-z_]\w*/g) ?? [];
}
