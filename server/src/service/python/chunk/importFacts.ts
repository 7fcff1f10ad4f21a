// The modules the chunk imports, each marked guarded when it stands in the body of a `try` whose
// handlers catch a failed import (requirements.ts does not ask for those).
import type { SyntaxNode } from '@lezer/common';
import { importedModules } from '../importedModules';
import { exceptHandlers } from '../statementForms';
import { children } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

const CATCHES_IMPORT_ERROR = /\b(ImportError|ModuleNotFoundError|Exception|BaseException)\b/;

export const importFacts: Visitor<ChunkWalk> = {
  start: (walk) => walk,
  enter: {
    ImportStatement(walk, node) {
      const guarded = walk.tries.some((t) => catchesImportError(walk, t));
      walk.facts.imports.push(...importedModules(walk.chunk, walk.children(node), guarded));
    },
  },
};

function catchesImportError(walk: ChunkWalk, statement: SyntaxNode): boolean {
  return exceptHandlers(children(statement)).some(
    (h) => !h.types.length || h.types.some((t) => CATCHES_IMPORT_ERROR.test(walk.chunk.text(t))),
  );
}
