// How the code reads `variables`: the literal keys (variableKeys.ts), or that it reads them in a way
// that hides which.
import { variablesUse } from '../variableKeys';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

export const variableFacts: Visitor<ChunkWalk> = {
  start: (walk) => walk,
  enter: {
    VariableName(walk, node) {
      if (node.to - node.from !== 9 || walk.chunk.text(node) !== 'variables') return;
      const use = variablesUse(walk.chunk, node);
      if (use === 'dynamic') walk.facts.dynamicVariables = true;
      else if (use !== 'parameter') walk.facts.keys.push(use);
    },
  },
};
