// CPython's symbol table for the chunk: how each name occurs in each scope, and the errors it raises
// (`global`/`nonlocal` after a use or a binding, a nonlocal bound nowhere, `:=` in comprehensions,
// `import *` in a function). Module-level names are handed on: the module's own check spans chunks.
import type { SyntaxNode } from '@lezer/common';
import { starImport } from '../importedModules';
import { declarationError, SymbolFlag } from '../symbolFlags';
import { children } from '../syntaxNodes';
import type { Scope } from './scope';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

interface Symbols {
  readonly walk: ChunkWalk;
  /**
   * Names are tracked in function and class scopes only in chunks that mention `global` or `nonlocal`
   * (only those can break CPython's rules there). Module-level names always are: a `global` in a
   * later chunk may need them.
   */
  readonly everywhere: boolean;
  /** Positions of the names that occurrences bind (walked again as expressions, they are no use). */
  readonly bindings: Set<number>;
  /** Function and class scopes holding `global`/`nonlocal` statements. */
  readonly declaring: Scope[];
}

export const symbolTable: Visitor<Symbols> = {
  start: (walk) => ({
    walk,
    everywhere: /\b(?:global|nonlocal)\b/.test(walk.text),
    bindings: new Set(),
    declaring: [],
  }),
  enter: {
    VariableName(s, node) {
      const scope = s.walk.scope;
      if (tracking(s, scope) && !s.bindings.has(node.from)) note(s, scope, s.walk.chunk.text(node), SymbolFlag.Use);
    },
    ScopeStatement: declaration,
    NamedExpression(s, node) {
      const t = node.firstChild;
      if (s.walk.inIterable)
        refuse(s, node, 'assignment expression cannot be used in a comprehension iterable expression');
      else if (t?.name === 'VariableName' && s.walk.scope.kind === 'comprehension') comprehensionWalrus(s, t);
    },
    ImportStatement(s, node) {
      const star = starImport(s.walk.children(node));
      if (star && !s.walk.atTopLevel) refuse(s, star, 'import * only allowed at module level');
    },
  },
  bind(s, name, flag, scope, how) {
    if (how === 'iteration') iterationVariable(s, name);
    // `f(x := 1)`: the grammar makes it keyword-like, not a NamedExpression.
    const value = name.parent?.name === 'ArgList' ? name.nextSibling?.nextSibling : undefined;
    if (value && s.walk.inIterable)
      refuse(
        s,
        { from: name.from, to: value.to },
        'assignment expression cannot be used in a comprehension iterable expression',
      );
    if (!tracking(s, scope)) return;
    const text = s.walk.chunk.text(name);
    // `name: type` after `global`/`nonlocal` (at module level an annotation after `global` is allowed).
    const seen = scope.symbols?.get(text) ?? 0;
    if (flag & SymbolFlag.Annotated && scope.kind !== 'module' && seen & (SymbolFlag.Global | SymbolFlag.Nonlocal))
      refuse(s, name.parent!, `annotated name '${text}' can't be ${seen & SymbolFlag.Global ? 'global' : 'nonlocal'}`);
    s.bindings.add(name.from);
    note(s, scope, text, flag);
  },
  done(s) {
    checkDeclarations(s);
    const moduleNames = s.walk.scopes[0].symbols;
    if (moduleNames) s.walk.facts.moduleNames = moduleNames;
  },
};

function refuse(s: Symbols, at: { from: number; to: number }, message: string): void {
  s.walk.problems.add('symtable', at.from, at.to, message);
}

function tracking(s: Symbols, scope: Scope): boolean {
  return s.everywhere || scope.kind === 'module';
}

function note(s: Symbols, scope: Scope, name: string, flag: SymbolFlag): void {
  if (!tracking(s, scope)) return;
  const symbols = (scope.symbols ??= new Map());
  symbols.set(name, (symbols.get(name) ?? 0) | flag);
}

/** `global`/`nonlocal` names: CPython's checks against what the scope already did with them. */
function declaration(s: Symbols, node: SyntaxNode): void {
  const { chunk, facts } = s.walk;
  const nonlocal = /^nonlocal\b/.test(chunk.text(node));
  const scope = s.walk.scope;
  if (nonlocal && scope.kind === 'module') return refuse(s, node, 'nonlocal declaration not allowed at module level');
  for (const k of children(node)) {
    if (k.name !== 'VariableName') continue;
    const name = chunk.text(k);
    const seen = scope.symbols?.get(name) ?? 0;
    note(s, scope, name, nonlocal ? SymbolFlag.Nonlocal : SymbolFlag.Global);
    if (scope.kind === 'module') {
      // Earlier chunks count too: document.ts makes this check once all chunks are known.
      (facts.moduleGlobals ??= []).push({ name, start: chunk.rel(node.from), end: chunk.rel(node.to), before: seen });
      continue;
    }
    const message = declarationError(name, seen, nonlocal);
    if (message) refuse(s, node, message);
    if (!scope.directives) s.declaring.push(scope);
    (scope.directives ??= []).push({ name, from: node.from, to: node.to });
  }
}

/**
 * What CPython finds once every scope is known: a name both global and nonlocal in one scope, and a
 * nonlocal name that no enclosing function binds (its later statements count; classes do not).
 */
function checkDeclarations(s: Symbols): void {
  if (s.walk.problems.hasSymtableError) return; // an error met while walking comes first
  for (const scope of s.declaring) {
    const reported = new Set<string>();
    for (const d of scope.directives!) {
      if (reported.has(d.name)) continue;
      const flags = scope.symbols!.get(d.name)!;
      if (flags & SymbolFlag.Global && flags & SymbolFlag.Nonlocal) {
        reported.add(d.name);
        refuse(s, d, `name '${d.name}' is nonlocal and global`);
      } else if (flags & SymbolFlag.Nonlocal && !boundOutside(scope, d.name)) {
        reported.add(d.name);
        refuse(s, d, `no binding for nonlocal '${d.name}' found`);
      }
    }
  }
}

function boundOutside(scope: Scope, name: string): boolean {
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

/** A comprehension's `for` target: CPython refuses rebinding a name an earlier `:=` of it bound. */
function iterationVariable(s: Symbols, node: SyntaxNode): void {
  const scope = s.walk.scope;
  const name = s.walk.chunk.text(node);
  if (scope.walrusTargets?.has(name))
    refuse(s, node, `comprehension inner loop cannot rebind assignment expression target '${name}'`);
  (scope.iterationVariables ??= new Set()).add(name);
}

/** `name := …` in a comprehension binds outside it: CPython's checks of the scopes it crosses. */
function comprehensionWalrus(s: Symbols, target: SyntaxNode): void {
  const name = s.walk.chunk.text(target);
  (s.walk.scope.walrusTargets ??= new Set()).add(name);
  for (let scope: Scope | undefined = s.walk.scope; scope; scope = scope.parent) {
    if (scope.kind === 'comprehension') {
      if (scope.iterationVariables?.has(name))
        return refuse(s, target, `assignment expression cannot rebind comprehension iteration variable '${name}'`);
      continue;
    }
    if (scope.kind === 'class')
      refuse(s, target, 'assignment expression within a comprehension cannot be used in a class body');
    return;
  }
}
