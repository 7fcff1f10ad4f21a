// The module-level half of the name checks (see names.ts): a name read at module scope must be bound
// before (or, read from a function, anywhere in the module), or built in; an import must be read
// somewhere or listed in `__all__`. Chunks are joined here, so a chunk's own result stays reusable; the
// functions' own findings are placed in the module here too.
import { closest } from '../similar';
import { BUILTINS } from './builtins';
import { unusedImport, unusedLocal, type ChunkNames, type ModuleImport } from './names';
import type { PyProblem } from './types';

export function checkModuleNames(chunks: readonly { base: number; names: ChunkNames }[]): PyProblem[] {
  const firstBound = new Map<string, number>();
  const notImported = new Set<string>();
  const globals = new Set<string>();
  const readNames = new Set<string>();
  const imports = new Map<string, ModuleImport & { base: number }>();
  let star = false;
  let postponed = false;
  let dynamicAll = false;
  const all = new Set<string>();
  for (const { base, names } of chunks) {
    for (const b of names.bound) {
      if (!firstBound.has(b.name)) firstBound.set(b.name, b.start + base);
      if (!b.import) notImported.add(b.name);
    }
    for (const g of names.globals) globals.add(g);
    for (const r of names.reads) readNames.add(r.name);
    for (const n of names.softReads) readNames.add(n);
    for (const i of names.imports) imports.set(i.name, { ...i, base }); // the last import of a name counts
    if (names.starImport) star = true;
    if (names.futureAnnotations) postponed = true;
    if (names.all === null) dynamicAll = true;
    else for (const n of names.all ?? []) all.add(n);
  }
  readNames.add('execute'); // the service reads it
  if (readNames.has('__all__')) dynamicAll = true; // `__all__ += …`, `__all__.extend(…)`
  for (const { names } of chunks) for (const a of names.aliases) if (readNames.has(a.alias)) readNames.add(a.full);
  const problems: PyProblem[] = [];
  if (!star) {
    const known = [...firstBound.keys(), ...BUILTINS];
    for (const { base, names } of chunks) {
      for (const r of names.reads) {
        if (r.guarded || BUILTINS.has(r.name) || globals.has(r.name)) continue;
        const start = r.start + base;
        const bound = firstBound.get(r.name);
        if (bound !== undefined && (r.deferred || bound < start || (postponed && r.annotation))) continue;
        const [candidate] = closest(r.name, known, 1);
        problems.push({
          code: 'undefined-name',
          start,
          end: r.end + base,
          message:
            bound !== undefined
              ? `name '${r.name}' is not defined yet here (it is bound further down), so this line raises NameError: move the definition above it.`
              : `name '${r.name}' is not defined, so this line raises NameError: ${candidate ? `did you mean '${candidate}'? ` : ''}Define or import it.`,
          data: { name: r.name, candidates: bound === undefined && candidate ? [candidate] : [] },
        });
      }
    }
  }
  for (const { base, names } of chunks) {
    for (const i of names.unusedImports) problems.push(unusedImport(i, base));
    for (const l of names.unusedLocals) problems.push(unusedLocal(l, base));
  }
  if (!dynamicAll) {
    for (const [name, i] of imports) {
      if (notImported.has(name) || readNames.has(name) || all.has(name)) continue;
      problems.push(unusedImport(i, i.base));
    }
  }
  return problems;
}
