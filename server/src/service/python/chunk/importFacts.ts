// The modules the chunk imports, each marked guarded when it stands in the body of a `try` whose
// handlers catch a failed import (requirements.ts does not ask for those).
import type { SyntaxNode } from '@lezer/common';
import { importedModules } from '../importedModules';
import { exceptHandlers } from '../statementForms';
import { children } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

const CATCHES_IMPORT_ERROR = /\b(ImportError|ModuleNotFoundError|Exception|BaseException)\b/;

interface Imports {
  readonly walk: ChunkWalk;
  /** For each open Body: whether it is a guarding `try` body. */
  readonly open: boolean[];
  guards: number;
}

export const importFacts: Visitor<Imports> = {
  start: (walk) => ({ walk, open: [], guards: 0 }),
  enter: {
    Body(s, body) {
      const guard = guarding(s.walk, body);
      s.open.push(guard);
      if (guard) s.guards++;
    },
    ImportStatement(s, node) {
      s.walk.facts.imports.push(...importedModules(s.walk.chunk, s.walk.children(node), s.guards > 0));
    },
  },
  leave: {
    Body(s) {
      if (s.open.pop()) s.guards--;
    },
  },
};

function guarding(walk: ChunkWalk, body: SyntaxNode): boolean {
  const statement = body.parent;
  if (statement?.name !== 'TryStatement' || body.prevSibling?.name !== 'try') return false;
  return exceptHandlers(children(statement)).some(
    (h) => !h.types.length || h.types.some((t) => CATCHES_IMPORT_ERROR.test(walk.chunk.text(t))),
  );
}
