// What the analysis of one top-level chunk finds, with offsets relative to the chunk start, so that a
// chunk's result can be reused while its text is unchanged (see document.ts).
import type { ChunkNames } from './names';
import type { FunctionInfo, ImportRef, PyProblem, VariableKeyRef } from './types';

/** A problem of the chunk, its offsets relative to the chunk start. */
export type RelProblem = PyProblem;

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
  /** The chunk's names as pyflakes reads them (chunk/nameBindings.ts), for the module's check. */
  names?: ChunkNames;
}
