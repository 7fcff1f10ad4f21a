// The names pyflakes checks, recorded as the walk meets them: each scope's bindings (an assignment of
// one name, or another kind; imports with what removing them takes) and reads (in an annotation, or
// inside a `try` that catches NameError), `global`/`nonlocal`, `__all__`, names in type comments and
// string annotations. Resolved once the chunk is walked (names.ts); joined across chunks in moduleNames.ts.
import type { SyntaxNode } from '@lezer/common';
import { importStatementNames } from '../importBindings';
import { identifiers, NameScope, resolveScopes, type ChunkNames, type ModuleImport } from '../names';
import { exceptHandlers } from '../statementForms';
import { SymbolFlag } from '../symbolFlags';
import { children } from '../syntaxNodes';
import type { Scope } from './scope';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

interface Names {
  readonly walk: ChunkWalk;
  /** Each of the walk's scopes' names, in the order the scopes were entered. */
  readonly scopes: Map<Scope, NameScope>;
  /** Positions of the names bound (walked again as expressions, they are no reads), and of those read. */
  readonly bound: Set<number>;
  readonly read: Set<number>;
  /** Whether a try statement (by its start) has a handler that names NameError. */
  readonly catchesNameError: Map<number, boolean>;
  annotating: number;
  readonly result: {
    -readonly [K in keyof ChunkNames]: ChunkNames[K] extends readonly (infer T)[] ? T[] : ChunkNames[K];
  };
}

export const nameBindings: Visitor<Names> = {
  start: (walk) => ({
    walk,
    scopes: new Map([[walk.scopes[0], new NameScope('module', undefined)]]),
    bound: new Set(),
    read: new Set(),
    catchesNameError: new Map(),
    annotating: 0,
    result: {
      bound: [],
      globals: [],
      reads: [],
      softReads: [],
      aliases: [],
      imports: [],
      futureAnnotations: false,
      starImport: false,
      all: undefined,
      unusedImports: [],
      unusedLocals: [],
    },
  }),
  enterScope(s, scope) {
    const kind = scope.kind === 'lambda' ? 'function' : scope.kind;
    if (kind !== 'module') s.scopes.set(scope, new NameScope(kind, s.scopes.get(scope.parent!)));
  },
  bind(s, name, flag, scope, how) {
    // Imports are recorded whole (ImportStatement); `del x` reads x.
    if (flag & SymbolFlag.Import || how === 'del' || s.bound.has(name.from)) return;
    if (updates(name)) read(s, name); // `x += 1` reads x first
    bindName(s, name, scope, assignsOneName(s, name) ? 'assign' : 'other');
  },
  enter: {
    VariableName(s, node) {
      if (s.bound.has(node.from)) return;
      const parent = node.parent;
      // `case [*rest]`, `case {**rest}`: patterns the walk reads that bind.
      if (parent?.name === 'StarPattern' || (parent?.name === 'MappingPattern' && node.prevSibling?.name === '**')) {
        if (s.walk.chunk.text(node) !== '_') bindName(s, node, s.walk.scope, 'other');
      } else read(s, node);
    },
    ScopeStatement(s, node) {
      const [kw, ...names] = children(node);
      const kind = kw.name === 'global' ? 'global' : 'nonlocal';
      const scope = s.scopes.get(s.walk.scope)!;
      for (const v of names) {
        if (v.name !== 'VariableName') continue;
        const name = s.walk.chunk.text(v);
        scope.declared.set(name, kind);
        if (scope.kind === 'module') continue;
        read(s, v); // pyflakes counts the declaration as a use
        if (kind === 'global') s.result.globals.push(name);
      }
    },
    ImportStatement: importStatement,
    AssignStatement(s, node) {
      if (!s.walk.atTopLevel) return;
      const { targets, value } = s.walk.assignment(node);
      if (targets.some((g) => g.some((t) => t.name === 'VariableName' && s.walk.chunk.text(t) === '__all__')))
        s.result.all = s.result.all === null ? null : literalNames(s, value);
    },
    TypeDef: annotation,
    StarTypeDef: annotation,
  },
  leave: {
    TypeDef: (s) => void s.annotating--,
    StarTypeDef: (s) => void s.annotating--,
  },
  done(s) {
    const { walk, result } = s;
    if (walk.nodes.length) {
      const text = walk.chunk.src.slice(walk.nodes[0].from, walk.nodes[walk.nodes.length - 1].to);
      for (const m of text.matchAll(/#\s*type:([^\n\r]*)/g)) result.softReads.push(...identifiers(m[1]));
    }
    const scopes = [...s.scopes.values()];
    for (const [name, list] of scopes[0].bindings)
      for (const b of list) result.bound.push({ name, start: b.start, import: b.kind === 'import' });
    walk.facts.names = { ...result, ...resolveScopes(scopes) };
  },
};

/** `name = …` (not unpacked, not annotated alone) and `name := …`: what unused-local may report. */
function assignsOneName(s: Names, name: SyntaxNode): boolean {
  const parent = name.parent!;
  if (parent.name === 'NamedExpression') return true;
  if (parent.name === 'ArgList') return name.nextSibling?.name === 'AssignOp'; // `f(x := 1)`
  if (parent.name !== 'AssignStatement') return false;
  const { targets, value } = s.walk.assignment(parent);
  return value.length > 0 && !targets.some((g) => g.some((k) => k.name === ','));
}

/** The target of `name op= value` (parenthesised or not). */
function updates(name: SyntaxNode): boolean {
  let p = name.parent;
  while (p?.name === 'ParenthesizedExpression') p = p.parent;
  return p?.name === 'UpdateStatement';
}

function bindName(s: Names, node: SyntaxNode, scope: Scope, kind: 'assign' | 'other'): void {
  const chunk = s.walk.chunk;
  s.bound.add(node.from);
  s.scopes.get(scope)!.bind(chunk.text(node), { kind, start: chunk.rel(node.from), end: chunk.rel(node.to) });
}

/** A read of a name (once: a target's attribute or subscript is walked as a target and again as a part). */
function read(s: Names, node: SyntaxNode): void {
  if (s.read.has(node.from)) return;
  s.read.add(node.from);
  const { chunk } = s.walk;
  const name = chunk.text(node);
  const scope = s.scopes.get(s.walk.scope)!;
  if (name === 'locals') scope.usesLocals = true;
  scope.reads.push({
    name,
    start: chunk.rel(node.from),
    end: chunk.rel(node.to),
    guarded: s.walk.tries.some((t) => catchesNameError(s, t)),
    annotation: s.annotating > 0,
  });
}

function importStatement(s: Names, node: SyntaxNode): void {
  const { chunk, atTopLevel } = s.walk;
  const names = importStatementNames(chunk, node);
  if (names.futureAnnotations) s.result.futureAnnotations = true;
  if (names.star && atTopLevel) s.result.starImport = true;
  const scope = s.scopes.get(s.walk.scope)!;
  for (const b of names.bindings) {
    const imported: ModuleImport = {
      name: b.name,
      display: b.display,
      start: chunk.rel(b.from),
      end: chunk.rel(b.to),
      remove: { start: chunk.rel(b.remove.from), end: chunk.rel(b.remove.to) },
    };
    scope.bind(b.name, { kind: b.reexport ? 'other' : 'import', start: imported.start, end: imported.end, imported });
    if (!atTopLevel) continue;
    if (!b.reexport) s.result.imports.push(imported);
    if (b.aliasOf) s.result.aliases.push({ alias: b.name, full: b.aliasOf });
  }
}

/** An annotation: its reads are marked so; names in its strings use imports (soft reads). */
function annotation(s: Names, node: SyntaxNode): void {
  s.annotating++;
  const c = node.cursor();
  while (c.next() && c.from < node.to)
    if (c.name === 'String') s.result.softReads.push(...identifiers(s.walk.chunk.src.slice(c.from, c.to)));
}

/**
 * `__all__ = [...]`: the names it lists, or null when not literal (`+=` and `.extend` read `__all__`,
 * which the module check takes as dynamic).
 */
function literalNames(s: Names, values: SyntaxNode[]): string[] | null {
  const names: string[] = [];
  if (!values.length) return null;
  for (const v of values) {
    if (v.name !== 'ArrayExpression' && v.name !== 'TupleExpression') return null;
    for (const e of children(v)) {
      if (['[', ']', '(', ')', ','].includes(e.name)) continue;
      const m = /^(['"])([A-Za-z_]\w*)\1$/.exec(s.walk.chunk.text(e));
      if (e.name !== 'String' || !m) return null;
      names.push(m[2]);
    }
  }
  return names;
}

/** A try statement with a handler that names NameError: the reads of its body may fail on purpose. */
function catchesNameError(s: Names, statement: SyntaxNode): boolean {
  let known = s.catchesNameError.get(statement.from);
  if (known === undefined) {
    const named = (t: SyntaxNode) =>
      t.name === 'TupleExpression' || t.name === 'ParenthesizedExpression' ? children(t) : [t];
    known = exceptHandlers(children(statement)).some((h) =>
      h.types.some((t) => named(t).some((n) => s.walk.chunk.text(n) === 'NameError')),
    );
    s.catchesNameError.set(statement.from, known);
  }
  return known;
}
