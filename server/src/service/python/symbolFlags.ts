// How names occur in a scope, as CPython's symbol table records them for its checks of `global` and
// `nonlocal` (chunk/symbolTable.ts per chunk, document.ts across the module's chunks).
/**
 * How a name occurs in a scope, after CPython's symtable: only what its checks of `global` and
 * `nonlocal` statements read (an import binds a name but is no error before `global`).
 */
export const enum SymbolFlag {
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
