// Public types of the embedded-Python analysis. All offsets are UTF-16 offsets into the decoded
// Python source (the value of `metadata.tool_code`), `end` exclusive.

export type PyProblemCode =
  | 'python-syntax'
  | 'missing-execute'
  | 'execute-signature'
  | 'execute-async'
  | 'execute-redefined'
  | 'execute-returns-non-string'
  | 'unknown-variable-key'
  | 'missing-requirement'
  | 'unused-requirement'
  | 'invalid-requirement'
  | 'duplicate-requirement'
  | 'hardcoded-secret'
  | 'undefined-name'
  | 'unused-import'
  | 'unused-local';

/**
 * Where in CPython a syntax error arises: decides the one error CPython itself reports
 * (firstCPythonError). Its symbol table runs before its compiler.
 */
export type SyntaxStage = 'tokenizer' | 'indent' | 'parser' | 'symtable' | 'compiler';

/** What a problem carries, by rule: for quick fixes, and for choosing CPython's one syntax error. */
export interface PyProblemData {
  'python-syntax': { readonly stage: SyntaxStage };
  'execute-signature': { readonly expected: '(variables)' };
  'execute-redefined': { readonly first: { readonly start: number; readonly end: number } };
  'duplicate-requirement': { readonly first: { readonly start: number; readonly end: number } };
  'unknown-variable-key': { readonly name: string; readonly candidates: string[] };
  'missing-requirement': { readonly module: string; readonly distribution: string };
  'hardcoded-secret': { readonly kind: string };
  'undefined-name': { readonly name: string; readonly candidates: string[] };
  /** The characters that removing the import deletes (the statement's line, or the name and a comma). */
  'unused-import': { readonly remove: { readonly start: number; readonly end: number } };
}

/**
 * A problem found in the Python source (offsets into the analysed text: the Python source, or the
 * requirements text for requirement codes), with the data its rule carries.
 */
export type PyProblem = { [C in PyProblemCode]: ProblemWith<C> }[PyProblemCode];

type ProblemWith<C extends PyProblemCode> = {
  code: C;
  start: number;
  end: number;
  message: string;
} & (C extends keyof PyProblemData ? { data: PyProblemData[C] } : { data?: never });

/** The problems of one rule. */
export type ProblemOf<C extends PyProblemCode> = Extract<PyProblem, { code: C }>;

/** A literal key of `variables["x"]`, `variables.get("x")` (also `.pop`/`.setdefault`) or `"x" in variables`. */
export interface VariableKeyRef {
  name: string;
  /** The key's characters inside the quotes. */
  start: number;
  end: number;
  /** The quote used: `"`, `'`, `"""` or `'''`. */
  quote: string;
}

export interface ImportRef {
  /** Dotted module name as written (`a.b.c`), with leading dots for relative imports. */
  module: string;
  /** The module name's characters in the source. */
  start: number;
  end: number;
  /** Inside `try:` whose handlers catch ImportError/ModuleNotFoundError (or Exception, or a bare except). */
  guarded: boolean;
  relative: boolean;
}

export interface FunctionInfo {
  name: string;
  kind: 'function' | 'class';
  /** The whole definition, decorators included. */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  async: boolean;
}

export interface PythonFacts {
  /**
   * python-syntax, missing-execute, execute-*, hardcoded-secret, and (once the module compiles)
   * undefined-name, unused-import, unused-local; sorted by start.
   */
  problems: PyProblem[];
  keys: VariableKeyRef[];
  /** `variables` is used in a way that hides which keys it reads (`variables[k]`, passed on, iterated…). */
  dynamicVariables: boolean;
  imports: ImportRef[];
  /** Top-level functions and classes in source order. */
  functions: FunctionInfo[];
}
