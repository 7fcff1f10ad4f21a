// The contract between the chunk walk (walker.ts) and the concerns it serves: what a visitor may
// handle, and the dispatch of nodes to handlers (worked out once per list of visitors).
import type { SyntaxNode } from '@lezer/common';
import { parser } from '../grammar/parser';
import type { ArgumentCheck } from '../arguments';
import type { ParameterCheck } from '../parameters';
import type { SymbolFlag } from '../symbolFlags';
import type { Scope } from './scope';
import type { ChunkWalk } from './walker';

export type TargetContext = 'assign' | 'del';
/** How a target name is bound: deleted, or as a comprehension's iteration variable. */
export type BindHow = 'del' | 'iteration' | undefined;

/**
 * One concern of the chunk analysis: handlers the walk calls with the record the concern keeps for
 * the chunk (`start` makes it). Handlers are plain functions, the same for every chunk.
 */
export interface Visitor<S> {
  start(walk: ChunkWalk): S;
  /** By node name: met as a statement or an expression (`Body` too), before its parts are walked. */
  readonly enter?: Readonly<Record<string, (s: S, node: SyntaxNode) => void>>;
  /** By node name: after its parts. */
  readonly leave?: Readonly<Record<string, (s: S, node: SyntaxNode) => void>>;
  /** A node of the grammar's error recovery (the first of each top-level statement before its walk). */
  error?(s: S, node: SyntaxNode): void;
  /** A name bound in `scope`: assigned, deleted, defined, imported, a parameter, a pattern's capture. */
  bind?(s: S, name: SyntaxNode, flag: SymbolFlag, scope: Scope, how: BindHow): void;
  /** One node of a target (assignment, `for`, `with … as`, `del`), before its parts. */
  target?(s: S, node: SyntaxNode, ctx: TargetContext): void;
  /** A comma-separated list of targets, as its items; `tuple`: it unpacks. */
  targetList?(s: S, nodes: SyntaxNode[], items: SyntaxNode[][], tuple: boolean): void;
  /** A def's or lambda's parameters (`owner`: the def or lambda). */
  parameters?(s: S, check: ParameterCheck, owner: SyntaxNode): void;
  /** A call's or a class's arguments. */
  arguments?(s: S, check: ArgumentCheck): void;
  enterScope?(s: S, scope: Scope): void;
  /** After the scope is left: `walk.scope` is its parent again. */
  leaveScope?(s: S, scope: Scope): void;
  /** Once the chunk is walked. */
  done?(s: S): void;
}

/** A visitor of any record (the walk hands each its own). */
export type AnyVisitor = Omit<Visitor<never>, 'start'> & { start(walk: ChunkWalk): unknown };

/** A node handler, and which visitor's record it takes. */
export interface Handler {
  readonly visitor: number;
  readonly handle: (record: never, node: SyntaxNode) => void;
}

/** Each node type's handlers (by type id; null: none), worked out once per list of visitors. */
export interface Dispatch {
  readonly enter: readonly (readonly Handler[] | null)[];
  readonly leave: readonly (readonly Handler[] | null)[];
}

function tables(visitors: readonly AnyVisitor[]): Dispatch {
  const table = (when: 'enter' | 'leave') =>
    parser.nodeSet.types.map((type) => {
      const handlers: Handler[] = [];
      visitors.forEach((v, visitor) => {
        const handle = v[when]?.[type.name];
        if (handle) handlers.push({ visitor, handle });
      });
      return handlers.length ? handlers : null;
    });
  return { enter: table('enter'), leave: table('leave') };
}

const DISPATCH = new WeakMap<readonly AnyVisitor[], Dispatch>();

/** The dispatch of `visitors` (the same list: the same dispatch). */
export function dispatchOf(visitors: readonly AnyVisitor[]): Dispatch {
  let dispatch = DISPATCH.get(visitors);
  if (!dispatch) DISPATCH.set(visitors, (dispatch = tables(visitors)));
  return dispatch;
}
