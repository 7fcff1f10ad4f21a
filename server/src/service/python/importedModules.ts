// The modules a chunk imports, for the requirement rules (missing-requirement, unused-requirement).
import type { SyntaxNode } from '@lezer/common';
import type { RelImport } from './chunkFacts';
import { split, type Chunk } from './syntaxNodes';

/**
 * The modules of an import statement (its child nodes `kids`): each dotted name of `import a.b, c`, or
 * the module of `from m import x` (relative ones start with a dot). `guarded`: inside a `try` whose
 * handler catches ImportError, so a missing module is expected.
 */
export function importedModules(chunk: Chunk, kids: readonly SyntaxNode[], guarded: boolean): RelImport[] {
  if (kids[0]?.name === 'import') {
    const out: RelImport[] = [];
    for (const seg of split([...kids.slice(1)], ',')) {
      const dotted: SyntaxNode[] = [];
      for (const n of seg) {
        if (n.name === 'as') break;
        if (n.name === 'VariableName') dotted.push(n);
      }
      if (!dotted.length) continue;
      const from = dotted[0].from;
      const to = dotted[dotted.length - 1].to;
      out.push({
        module: chunk.src.slice(from, to).replace(/\s+/g, ''),
        start: chunk.rel(from),
        end: chunk.rel(to),
        guarded,
        relative: false,
      });
    }
    return out;
  }
  if (kids[0]?.name !== 'from') return [];
  const imp = kids.findIndex((k) => k.name === 'import');
  const modParts = kids.slice(1, imp < 0 ? kids.length : imp);
  if (!modParts.length) return [];
  const text = chunk.src.slice(modParts[0].from, modParts[modParts.length - 1].to).replace(/\s+/g, '');
  if (!text) return [];
  const relative = text.startsWith('.');
  const names = modParts.filter((n) => n.name === 'VariableName');
  const start = relative ? modParts[0].from : (names[0]?.from ?? modParts[0].from);
  return [
    { module: text, start: chunk.rel(start), end: chunk.rel(modParts[modParts.length - 1].to), guarded, relative },
  ];
}

/** The `*` of `from m import *`, if the statement is one. */
export function starImport(kids: readonly SyntaxNode[]): SyntaxNode | undefined {
  if (kids[0]?.name !== 'from') return undefined;
  const imp = kids.findIndex((k) => k.name === 'import');
  return imp >= 0 ? kids.slice(imp + 1).find((k) => k.name === '*') : undefined;
}

/** Whether the import binds the name `execute` (`from m import execute`, `import x as execute`). */
export function importsExecute(chunk: Chunk, node: SyntaxNode): boolean {
  return /\bexecute\s*(?:,|\)|$)/.test(chunk.text(node).replace(/^.*\bimport\b/s, ''));
}
