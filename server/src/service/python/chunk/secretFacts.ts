// Literals that look like credentials (secretLiterals.ts): by their content, or by the name they are
// assigned to, passed as, or stored under. One finding per literal, the first rule that sees it.
import type { SyntaxNode } from '@lezer/common';
import type { RelProblem } from '../chunkFacts';
import { assignedSecret, keywordSecret, literalSecret } from '../secretLiterals';
import { children, plainString, split } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

export const secretFacts: Visitor<ChunkWalk> = {
  start: (walk) => walk,
  enter: { String: literal, FormatString: literal },
  leave: {
    // NAME = "literal" (after the literal itself was looked at)
    AssignStatement(walk, node) {
      if (walk.broken(node)) return;
      const { targets, value } = walk.assignment(node);
      if (value.length === 1) for (const g of targets) if (g[0]) add(walk, assignedSecret(walk.chunk, g[0], value[0]));
    },
    // {"api_key": "literal"}
    DictionaryExpression(walk, node) {
      for (const item of split(children(node).slice(1, -1), ','))
        if (item.length === 3 && item[1].name === ':') {
          const key = plainString(item[0], walk.chunk.src);
          if (key) add(walk, keywordSecret(walk.chunk, key.value, item[2]));
        }
    },
  },
  // f(api_key="literal"): before the values are walked
  arguments(walk, check) {
    for (const k of check.keywords) add(walk, keywordSecret(walk.chunk, walk.chunk.text(k.name), k.value));
  },
};

function literal(walk: ChunkWalk, node: SyntaxNode): void {
  add(walk, literalSecret(walk.chunk, node));
}

function add(walk: ChunkWalk, problem: RelProblem | undefined): void {
  const secrets = walk.facts.secrets;
  if (problem && !secrets.some((s) => s.start === problem.start)) secrets.push(problem);
}
