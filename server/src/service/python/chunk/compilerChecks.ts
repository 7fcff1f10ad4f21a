// What CPython's compiler refuses in a tree that parses: statements outside their context (`return`,
// `break`, `continue`, `await`, `yield`, `async for`/`with`, asynchronous comprehensions), starred
// expressions standing alone, binding `__debug__`, too many nested blocks, the 3.12 `type` forms.
import type { SyntaxNode } from '@lezer/common';
import { EXCEPT_STAR_EXIT, exceptHandlers, MAX_BLOCKS } from '../statementForms';
import { child } from '../syntaxNodes';
import type { Scope } from './scope';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

interface Compiler {
  readonly walk: ChunkWalk;
  /** For each open Body that changes its scope's frame context: that context before it. */
  readonly saved: (Pick<Scope, 'loop' | 'blocks' | 'starDepth' | 'starInnermost'> | undefined)[];
}

export const compilerChecks: Visitor<Compiler> = {
  start: (walk) => ({ walk, saved: [] }),
  enter: {
    Body: enterBody,
    ReturnStatement({ walk }, node) {
      const fn = walk.functionScope();
      if (!fn || fn.kind !== 'function') refuse(walk, node, "'return' outside function");
      const kids = walk.children(node).slice(1);
      if (kids.length && fn) (fn.returnsWithValue ??= []).push({ start: node.from, end: node.to });
      if (walk.scope.starDepth) refuse(walk, { from: kids[0]?.from ?? node.from, to: node.to }, EXCEPT_STAR_EXIT);
      starredValue(walk, kids);
    },
    BreakStatement: ({ walk }, node) => loopExit(walk, node, "'break' outside loop"),
    ContinueStatement: ({ walk }, node) => loopExit(walk, node, "'continue' not properly in loop"),
    YieldStatement: yieldAt,
    YieldExpression: yieldAt,
    ExpressionStatement({ walk }, node) {
      const kids = walk.children(node);
      if (kids[0]?.name === '*' && !kids.some((k) => k.name === ','))
        refuse(walk, { from: kids[0].from, to: node.to }, "can't use starred expression here");
    },
    AssignStatement({ walk }, node) {
      if (!walk.broken(node)) starredValue(walk, walk.assignment(node).value);
    },
    TypeDefinition: ({ walk }, node) => refuse(walk, node, "the 'type' statement requires Python 3.12 or later"),
    FunctionDefinition: typeParams,
    ClassDefinition: typeParams,
    ForStatement: ({ walk }, node) => asyncStatement(walk, node, 'for'),
    WithStatement: ({ walk }, node) => asyncStatement(walk, node, 'with'),
    TryStatement({ walk }, node) {
      const handlers = exceptHandlers(walk.children(node));
      handlers.forEach((h, i) => {
        if (!h.types.length && !h.star && i < handlers.length - 1) refuse(walk, h.at, "default 'except:' must be last");
      });
    },
    AwaitExpression({ walk }, node) {
      const scope = walk.scope;
      if (scope.kind === 'comprehension') {
        scope.awaits = true;
        // Only a generator expression may await outside an async function; others are checked whole.
        if (scope.what !== 'generator expression') return;
      }
      const fn = walk.functionScope();
      // A generator expression with `await` is an asynchronous generator expression, legal in any function.
      const inGenexp = walk.scopes.some((s) => s.kind === 'comprehension' && s.what === 'generator expression');
      if (!fn) refuse(walk, node, "'await' outside function");
      else if (!inGenexp && (!fn.async || fn.kind !== 'function')) refuse(walk, node, "'await' outside async function");
    },
  },
  leave: { Body: leaveBody },
  bind({ walk }, name, _flag, _scope, how) {
    if (isDebug(walk, name)) refuse(walk, debugReportedAt(name), how === 'del' ? 'cannot delete __debug__' : DEBUG);
  },
  target({ walk }, node, ctx) {
    if (node.name === 'MemberExpression' && ctx === 'assign' && node.lastChild?.name === 'PropertyName')
      if (isDebug(walk, node.lastChild)) refuse(walk, node, DEBUG);
  },
  targetList({ walk }, nodes, items, tuple) {
    let stars = 0;
    for (const item of items) {
      if (item[0].name !== '*') continue;
      stars++;
      if (!tuple && items.length === 1)
        refuse(
          walk,
          { from: item[0].from, to: item[item.length - 1].to },
          'starred assignment target must be in a list or tuple',
        );
    }
    if (stars > 1)
      refuse(
        walk,
        { from: nodes[0].from, to: nodes[nodes.length - 1].to },
        'multiple starred expressions in assignment',
      );
  },
  arguments({ walk }, check) {
    for (const k of check.keywords) if (isDebug(walk, k.name)) refuse(walk, k.name, DEBUG);
  },
  enterScope(_s, scope) {
    if (scope.kind === 'comprehension') scope.awaits = scope.clauses!.some((c) => c.async);
  },
  leaveScope({ walk }, scope) {
    if (scope.kind === 'function' && scope.async && scope.generator)
      for (const r of scope.returnsWithValue ?? [])
        refuse(walk, { from: r.start, to: r.end }, "'return' with value in async generator");
    // `async for` or `await` (here or in a comprehension inside) makes a comprehension asynchronous: a
    // generator expression may be, the others only in an async function.
    if (scope.kind !== 'comprehension' || !scope.awaits || scope.what === 'generator expression') return;
    const outer = scope.parent!;
    if (outer.kind === 'comprehension') outer.awaits = true;
    else if (outer.kind !== 'function' || !outer.async)
      refuse(walk, scope.node!, 'asynchronous comprehension outside of an asynchronous function');
  },
};

function refuse(walk: ChunkWalk, at: { from: number; to: number }, message: string): void {
  walk.problems.add('compiler', at.from, at.to, message);
}

/** `__debug__` is a constant: CPython refuses to bind it. */
const DEBUG = 'cannot assign to __debug__';

function isDebug(walk: ChunkWalk, name: SyntaxNode): boolean {
  return name.to - name.from === 9 && walk.chunk.text(name) === '__debug__';
}

/** `x = *a` / `return *a`: a lone starred expression as a value. */
function starredValue(walk: ChunkWalk, nodes: SyntaxNode[]): void {
  if (nodes.length >= 2 && nodes[0].name === '*' && !nodes.some((n) => n.name === ','))
    refuse(walk, { from: nodes[0].from, to: nodes[nodes.length - 1].to }, "can't use starred expression here");
}

function asyncStatement(walk: ChunkWalk, node: SyntaxNode, what: string): void {
  const kw = node.firstChild;
  if (kw?.name !== 'async') return;
  const fn = walk.functionScope();
  if (!fn || !fn.async || fn.kind !== 'function') refuse(walk, kw, `'async ${what}' outside async function`);
}

function yieldAt({ walk }: Compiler, node: SyntaxNode): void {
  const s = walk.scope;
  if (s.kind === 'comprehension') return walk.problems.add('symtable', node.from, node.to, `'yield' inside ${s.what}`);
  if (s.kind !== 'function' && s.kind !== 'lambda') return refuse(walk, node, "'yield' outside function");
  if (s.async && /^yield\s+from\b/.test(walk.chunk.text(node)))
    refuse(walk, node, "'yield from' inside async function");
}

function typeParams({ walk }: Compiler, node: SyntaxNode): void {
  const list = walk.children(node).find((k) => k.name === 'TypeParamList');
  if (list) refuse(walk, list, 'type parameter lists require Python 3.12 or later');
}

/** `break`, `continue`: inside a loop, and not leaving an `except*` body. */
function loopExit(walk: ChunkWalk, node: SyntaxNode, outside: string): void {
  const scope = walk.scope;
  if (scope.starInnermost) refuse(walk, node, EXCEPT_STAR_EXIT);
  else if (!scope.loop) refuse(walk, node, outside);
}

/** A body's frame blocks (CPython allows 20 in a function) and its loop and `except*` context. */
function enterBody({ walk, saved }: Compiler, body: SyntaxNode): void {
  const statement = body.parent!;
  const depth = frameBlocks(body, statement);
  const scope = walk.scope;
  const { loop, blocks, starDepth, starInnermost } = scope;
  saved.push(depth ? { loop, blocks, starDepth, starInnermost } : undefined);
  if (!depth) return;
  scope.blocks = (blocks ?? 0) + depth;
  if (scope.blocks > MAX_BLOCKS && (blocks ?? 0) <= MAX_BLOCKS)
    refuse(
      walk,
      { from: statement.from, to: child(statement, 'Body')?.from ?? statement.to },
      'too many statically nested blocks',
    );
  if (statement.name === 'ForStatement' || statement.name === 'WhileStatement') {
    scope.loop = true; // a loop's `else` adds no block: not here
    scope.starInnermost = false;
  } else if (statement.name === 'TryStatement' && isStarHandler(body)) {
    scope.starInnermost = true;
    scope.starDepth = (starDepth ?? 0) + 1;
  }
}

function leaveBody({ walk, saved }: Compiler): void {
  const before = saved.pop();
  if (!before) return;
  const scope = walk.scope;
  scope.loop = before.loop;
  scope.blocks = before.blocks;
  scope.starDepth = before.starDepth;
  scope.starInnermost = before.starInnermost;
}

/** Where CPython reports binding `__debug__`: the def, class, import, pattern or handler binding it. */
function debugReportedAt(name: SyntaxNode): SyntaxNode {
  const parent = name.parent;
  switch (parent?.name) {
    case 'FunctionDefinition':
    case 'ClassDefinition':
    case 'ImportStatement':
    case 'CapturePattern':
    case 'AsPattern':
      return parent;
    case 'ParamList':
      return parent.parent ?? parent;
    case 'TryStatement': {
      let at: SyntaxNode | null = name.prevSibling;
      while (at && at.name !== 'except') at = at.prevSibling;
      return at ?? name;
    }
    default:
      return name;
  }
}

/** How many of CPython's frame blocks a body adds (loops, with; try, its handlers and finally). */
function frameBlocks(body: SyntaxNode, statement: SyntaxNode): number {
  switch (statement.name) {
    case 'ForStatement':
    case 'WhileStatement':
      return body.prevSibling?.name === 'else' ? 0 : 1;
    case 'WithStatement':
      return 1;
    case 'TryStatement': {
      // The try body is in one block (two with both handlers and finally), a handler's body in two
      // more, and all but the finally body inside the finally's.
      const part = precedingKeyword(body);
      const outer = child(statement, 'finally') ? 1 : 0;
      if (part === 'try') return outer + (child(statement, 'except') ? 1 : 0);
      if (part === 'except') return outer + 2;
      return part === 'else' ? outer : 1;
    }
    default:
      return 0;
  }
}

/** The keyword that opens a try statement's clause: `try`, `except`, `else` or `finally`. */
function precedingKeyword(body: SyntaxNode): string | undefined {
  for (let k = body.prevSibling; k; k = k.prevSibling)
    if (k.name === 'try' || k.name === 'except' || k.name === 'else' || k.name === 'finally') return k.name;
  return undefined;
}

/** Whether a try statement's body is an `except*` handler's. */
function isStarHandler(body: SyntaxNode): boolean {
  let star = false;
  for (let k = body.prevSibling; k && k.name !== 'Body'; k = k.prevSibling)
    if (k.name === '*') star = true;
    else if (k.name === 'except') return star;
  return false;
}
