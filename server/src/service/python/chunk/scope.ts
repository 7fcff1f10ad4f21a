// A scope of the chunk walk (walker.ts): what the walk knows of it, and what the visitors record on it.
import type { SyntaxNode } from '@lezer/common';
import type { ComprehensionClause } from '../statementForms';

export interface Scope {
  readonly kind: 'module' | 'function' | 'class' | 'lambda' | 'comprehension';
  /** The def, lambda, class or comprehension (undefined for the module). */
  readonly node?: SyntaxNode;
  /** The scope this one is nested in (undefined for the module). */
  readonly parent?: Scope;
  /** Functions: `async def`. */
  readonly async: boolean;
  /** Functions and lambdas: a `yield` in their own body makes them generators. */
  generator?: boolean;
  /** Comprehensions: CPython's word for them ('list comprehension'…) and their clauses. */
  readonly what?: string;
  readonly clauses?: readonly ComprehensionClause[];

  // Recorded by the compiler checks (compilerChecks.ts).
  /** Inside a loop's body (not its `else`), nearer than any function. */
  loop?: boolean;
  /** CPython's frame blocks (loops, with, try) around the statement being walked. */
  blocks?: number;
  /** Inside an `except*` body: how many are open, and whether one is nearer than any loop. */
  starDepth?: number;
  starInnermost?: boolean;
  /** Functions: where `return value` stands. */
  returnsWithValue?: { start: number; end: number }[];
  /** Comprehensions: `async for` or `await` in it (or in a comprehension inside it). */
  awaits?: boolean;

  // Recorded by the symbol table (symbolTable.ts).
  /** Names seen in this scope with their SymbolFlags. */
  symbols?: Map<string, number>;
  /** This scope's `global` and `nonlocal` statements, for the checks made once the chunk is walked. */
  directives?: { name: string; from: number; to: number }[];
  /** Comprehensions: the iteration variables so far, and the names their `:=` bind outside. */
  iterationVariables?: Set<string>;
  walrusTargets?: Set<string>;
}
