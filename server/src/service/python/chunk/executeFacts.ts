// The tool's contract: the top-level functions and classes, each top-level `def execute` checked
// (executeContract.ts), and `execute` defined where it cannot be checked (nested, or bound otherwise).
import type { SyntaxNode } from '@lezer/common';
import { checkExecute, type ParamInfo } from '../executeContract';
import { importsExecute } from '../importedModules';
import { child, children } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

interface Definitions {
  readonly walk: ChunkWalk;
  /** The parameters of the top-level defs, by the def's start. */
  readonly params: Map<number, readonly ParamInfo[]>;
}

export const executeFacts: Visitor<Definitions> = {
  start: (walk) => ({ walk, params: new Map() }),
  enter: {
    FunctionDefinition: definition,
    ClassDefinition: definition,
    AssignStatement({ walk }, node) {
      if (!walk.atTopLevel || walk.broken(node)) return;
      for (const g of walk.assignment(node).targets) {
        const ann = g.findIndex((n) => n.name === 'TypeDef');
        const targets = ann >= 0 ? g.slice(0, ann) : g;
        if (targets.some((n) => n.name === 'VariableName' && walk.chunk.text(n) === 'execute'))
          walk.facts.boundExecute = true;
      }
    },
    ImportStatement({ walk }, node) {
      if (walk.atTopLevel && importsExecute(walk.chunk, node)) walk.facts.boundExecute = true;
    },
  },
  parameters(s, check, owner) {
    if (owner.name === 'FunctionDefinition' && s.walk.atTopLevel) s.params.set(owner.from, check.info);
  },
  leaveScope({ walk, params }, scope) {
    const node = scope.node;
    if (scope.kind !== 'function' || !node || !walk.atTopLevel) return;
    const name = child(node, 'VariableName');
    if (!name || walk.chunk.text(name) !== 'execute') return;
    const kids = children(node);
    walk.facts.executes.push(
      checkExecute(walk.chunk, {
        node,
        name,
        isAsync: scope.async,
        params: kids.find((k) => k.name === 'ParamList'),
        info: params.get(node.from) ?? [],
        body: kids.find((k) => k.name === 'Body'),
        yields: !!scope.generator,
      }),
    );
  },
};

function definition({ walk }: Definitions, node: SyntaxNode): void {
  const { chunk, facts } = walk;
  const name = walk.children(node).find((k) => k.name === 'VariableName');
  if (!name) return;
  if (!walk.atTopLevel) {
    if (node.name === 'FunctionDefinition' && chunk.text(name) === 'execute') facts.nestedExecute = true;
    return;
  }
  // The whole definition, decorators included.
  const outer = node.parent?.name === 'DecoratedStatement' ? node.parent : node;
  facts.functions.push({
    name: chunk.text(name),
    kind: node.name === 'ClassDefinition' ? 'class' : 'function',
    start: chunk.rel(outer.from),
    end: chunk.rel(outer.to),
    nameStart: chunk.rel(name.from),
    nameEnd: chunk.rel(name.to),
    async: node.firstChild?.name === 'async',
  });
}
