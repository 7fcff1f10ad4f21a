// Analysis of one top-level chunk of a Python module: the syntax errors CPython 3.11 would raise that
// the grammar tolerates (its parser's, symbol table's and compiler's checks), and the facts the
// tool_code rules need (execute, variables keys, imports, functions, secrets, names). One walk of the chunk
// (chunk/walker.ts) with one visitor per concern. Everything found is relative to the chunk start, so
// a chunk's result can be reused while its text is unchanged (see document.ts).
import type { SyntaxNode } from '@lezer/common';
import type { ChunkFacts } from './chunkFacts';
import { compilerChecks } from './chunk/compilerChecks';
import { executeFacts } from './chunk/executeFacts';
import { futureImports } from './chunk/futureImports';
import { importFacts } from './chunk/importFacts';
import { nameBindings } from './chunk/nameBindings';
import { secretFacts } from './chunk/secretFacts';
import { symbolTable } from './chunk/symbolTable';
import { syntaxForms } from './chunk/syntaxForms';
import { variableFacts } from './chunk/variableFacts';
import type { AnyVisitor } from './chunk/visitor';
import { ChunkWalk } from './chunk/walker';

/** The concerns, in the order they hear of each node (a check that reads another's record comes after it). */
export const CHUNK_VISITORS: readonly AnyVisitor[] = [
  syntaxForms,
  symbolTable,
  compilerChecks,
  futureImports,
  executeFacts,
  importFacts,
  variableFacts,
  secretFacts,
  nameBindings,
];

/**
 * @param src the whole source; `base` the chunk's offset in it; `text` the chunk's text
 * @param nodes the top-level nodes of the chunk (positions absolute)
 */
export function analyzeChunk(src: string, base: number, text: string, nodes: readonly SyntaxNode[]): ChunkFacts {
  return new ChunkWalk(src, base, text, nodes, CHUNK_VISITORS).run();
}
