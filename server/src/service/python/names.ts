// Names as pyflakes sees them, one top-level chunk at a time: the scopes' bindings and reads (recorded
// by the chunk walk's chunk/nameBindings.ts), resolved here with Python's scoping rules (function,
// class and comprehension scopes, `global`/`nonlocal`, class bodies invisible to their methods). What
// reaches module scope is kept for the module's own check (moduleNames.ts), which spans chunks; what a
// function's scope alone decides (its unused locals and imports) is decided here. Everything errs
// towards silence: a report must be one pyflakes makes.
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

export type NameScopeKind = 'module' | 'class' | 'function' | 'comprehension';

export interface Binding {
  readonly kind: 'import' | 'assign' | 'other';
  readonly start: number;
  readonly end: number;
  readonly imported?: ModuleImport;
}

export interface Read {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly guarded: boolean;
  readonly annotation: boolean;
}

/** One scope's names (offsets relative to the chunk start). */
export class NameScope {
  readonly bindings = new Map<string, Binding[]>();
  readonly reads: Read[] = [];
  readonly declared = new Map<string, 'global' | 'nonlocal'>();
  /** Names read from this scope by its own code or a nested scope. */
  readonly used = new Set<string>();
  usesLocals = false;
  /** Its code runs when a function is called, after the module ran. */
  readonly deferred: boolean;

  constructor(
    readonly kind: NameScopeKind,
    readonly parent: NameScope | undefined,
  ) {
    this.deferred = !!parent?.deferred || kind === 'function';
  }

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

/** The reads no function or class scope of the chunk binds, and its functions' unused names. */
export function resolveScopes(
  scopes: readonly NameScope[],
): Pick<ChunkNames, 'reads' | 'unusedImports' | 'unusedLocals'> {
  const reads: ModuleRead[] = [];
  const unusedImports: ModuleImport[] = [];
  const unusedLocals: UnusedLocal[] = [];
  for (const scope of scopes) for (const r of scope.reads) resolve(scope, r, reads);
  for (const scope of scopes) if (scope.kind === 'function') unusedInFunction(scope, unusedImports, unusedLocals);
  return { reads, unusedImports, unusedLocals };
}

function resolve(from: NameScope, r: Read, out: ModuleRead[]): void {
  let s: NameScope | undefined = from;
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

function unusedInFunction(scope: NameScope, imports: ModuleImport[], locals: UnusedLocal[]): void {
  for (const [name, list] of scope.bindings) {
    if (scope.used.has(name) || scope.declared.has(name) || IGNORED_LOCALS.has(name)) continue;
    const last = list[list.length - 1];
    if (list.every((b) => b.kind === 'import')) imports.push(last.imported!);
    else if (!scope.usesLocals && list.every((b) => b.kind === 'assign'))
      locals.push({ name, start: last.start, end: last.end });
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
export function identifiers(text: string): string[] {
  return text.match(/[A-Za-z_]\w*/g) ?? [];
}
