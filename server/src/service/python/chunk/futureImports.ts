// `from __future__ import …`: CPython allows it only before any other statement but a docstring, and
// knows a fixed set of features. The chunk records what its statements are so that the module's check
// (document.ts) can span chunks.
import type { SyntaxNode } from '@lezer/common';
import type { ChunkFacts } from '../chunkFacts';
import { FUTURE_FEATURES } from '../statementForms';
import { children, type Chunk } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

export const futureImports: Visitor<ChunkWalk> = {
  start: (walk) => walk,
  done(walk) {
    const { chunk, facts, problems } = walk;
    const statements: SyntaxNode[] = [];
    for (const node of walk.nodes)
      if (node.name === 'StatementGroup') statements.push(...children(node).filter((k) => k.name !== ';'));
      else if (node.name !== 'Comment') statements.push(node);
    statements.forEach((node, i) => {
      const kind = statementKind(chunk, node);
      if (i === 0) facts.first = kind;
      else if (kind === 'future') facts.futures.push({ start: chunk.rel(node.from), end: chunk.rel(node.to) });
      if (kind !== 'future') return;
      for (const f of features(chunk, node))
        if (f.name === 'braces') problems.add('compiler', f.from, f.to, 'not a chance');
        else if (!FUTURE_FEATURES.has(f.name))
          problems.add('compiler', f.from, f.to, `future feature ${f.name} is not defined`);
    });
  },
};

function statementKind(chunk: Chunk, node: SyntaxNode): ChunkFacts['first'] {
  const first = node.firstChild;
  if (node.name === 'ExpressionStatement' && first?.name === 'String' && !first.nextSibling) return 'docstring';
  if (node.name === 'ExpressionStatement' && first?.name === 'ContinuedString') return 'docstring';
  if (node.name === 'ImportStatement' && /^from\s+__future__\s+import\b/.test(chunk.text(node))) return 'future';
  return 'other';
}

/** The features a `from __future__ import` names (`*` for a star import). */
function features(chunk: Chunk, node: SyntaxNode): { name: string; from: number; to: number }[] {
  const kids = children(node);
  const out: { name: string; from: number; to: number }[] = [];
  for (let j = kids.findIndex((k) => k.name === 'import') + 1; j < kids.length; j++) {
    const k = kids[j];
    if (k.name === 'VariableName' && kids[j - 1]?.name !== 'as')
      out.push({ name: chunk.text(k), from: k.from, to: k.to });
  }
  if (/\bimport\s*\*/.test(chunk.text(node))) out.push({ name: '*', from: node.from, to: node.to });
  return out;
}
