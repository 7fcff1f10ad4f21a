// Reading lezer's Python syntax tree: children, separators, string literals, and a chunk's offsets.
import type { SyntaxNode } from '@lezer/common';

/** The chunk being analysed: the whole source, and where the chunk starts in it. */
export class Chunk {
  constructor(
    readonly src: string,
    readonly base: number,
  ) {}

  /** An absolute offset as an offset in the chunk. */
  rel(offset: number): number {
    return offset - this.base;
  }

  /** A node's source text. */
  text(node: SyntaxNode): string {
    return this.src.slice(node.from, node.to);
  }
}

/** Child nodes, comments left out. */
export function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name !== 'Comment') out.push(c);
  return out;
}

/** The first child of `node` named `name` (a cursor: no node is made for the others). */
export function child(node: SyntaxNode, name: string): SyntaxNode | undefined {
  const c = node.cursor();
  if (c.firstChild())
    do {
      if (c.name === name) return c.node;
    } while (c.nextSibling());
  return undefined;
}

/** The first error node inside `node` (document order), if any. */
export function firstError(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type.isError) return node;
  const c = node.cursor();
  const end = node.to;
  while (c.next()) {
    if (c.from > end || (c.from === end && c.to === end && !c.type.isError)) break;
    if (c.type.isError) return c.node;
  }
  return undefined;
}

/**
 * Whether `node` is or holds a grammar error (inside it only, unlike firstError, which also meets an
 * error standing right at its end). Walks a cursor: `toTree()` would copy the node out of its buffer.
 */
export function containsError(node: SyntaxNode): boolean {
  if (node.type.isError) return true;
  const c = node.cursor();
  let depth = 0;
  for (;;) {
    if (c.firstChild()) depth++;
    else {
      while (depth > 0 && !c.nextSibling()) {
        c.parent();
        depth--;
      }
      if (depth === 0) return false;
    }
    if (c.type.isError) return true;
  }
}

/** Splits arguments at commas, except the commas of a comprehension's target list (`for k, v in`). */
export function splitArgs(nodes: SyntaxNode[]): SyntaxNode[][] {
  const out: SyntaxNode[][] = [[]];
  let inTargets = false;
  for (const n of nodes) {
    if (n.name === 'for') inTargets = true;
    else if (n.name === 'in') inTargets = false;
    if (n.name === ',' && !inTargets) out.push([]);
    else out[out.length - 1].push(n);
  }
  return out;
}

/** Splits a child list at separator nodes (by name); separators are dropped. */
export function split(nodes: SyntaxNode[], sep: string): SyntaxNode[][] {
  const out: SyntaxNode[][] = [[]];
  for (const n of nodes) {
    if (n.name === sep) out.push([]);
    else out[out.length - 1].push(n);
  }
  return out;
}

/** The string value of a plain (non-f, non-bytes) string literal without escapes, or undefined. */
export function plainString(
  node: SyntaxNode,
  src: string,
): { value: string; start: number; end: number; quote: string } | undefined {
  if (node.name !== 'String') return undefined;
  const text = src.slice(node.from, node.to);
  const m = /^([rRuU]?)('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  const q = m[2];
  if (!text.endsWith(q) || text.length < m[0].length + q.length) return undefined;
  const value = text.slice(m[0].length, text.length - q.length);
  if (value.includes('\\')) return undefined;
  return { value, start: node.from + m[0].length, end: node.to - q.length, quote: q };
}

/** Decodes a string literal's value well enough for the secret rules (escapes kept verbatim). */
export function stringValue(node: SyntaxNode, src: string): string | undefined {
  const text = src.slice(node.from, node.to);
  const m = /^([rRuUbB]{0,2})('''|"""|'|")/.exec(text);
  if (!m) return undefined;
  return text.slice(m[0].length, Math.max(m[0].length, text.length - m[2].length));
}

export const COMPREHENSIONS: Record<string, string> = {
  ArrayComprehensionExpression: 'list comprehension',
  SetComprehensionExpression: 'set comprehension',
  DictionaryComprehensionExpression: 'dict comprehension',
  ComprehensionExpression: 'generator expression',
};

/** The expression inside any parentheses around `node` (`((x))` gives `x`). */
export function unparenthesized(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (n.name === 'ParenthesizedExpression') {
    const inner = n.firstChild?.nextSibling;
    if (!inner || inner.name === ')') break;
    n = inner;
  }
  return n;
}

/** What CPython calls an expression that cannot be a target. */
export function describe(node: SyntaxNode, src: string): string {
  switch (node.name) {
    case 'CallExpression':
      return 'function call';
    case 'Number':
    case 'String':
    case 'ContinuedString':
      return 'literal';
    case 'FormatString':
      return 'f-string expression';
    case 'None':
      return 'None';
    case 'Boolean':
      return src.slice(node.from, node.to);
    case 'Ellipsis':
      return 'ellipsis';
    case 'ConditionalExpression':
      return 'conditional expression';
    case 'LambdaExpression':
      return 'lambda';
    case 'AwaitExpression':
      return 'await expression';
    case 'YieldExpression':
      return 'yield expression';
    case 'NamedExpression':
      return 'named expression';
    case 'DictionaryExpression':
      return 'dict literal';
    case 'SetExpression':
      return 'set display';
    case 'BinaryExpression': {
      const op = node.firstChild?.nextSibling;
      if (op && (op.name === 'CompareOp' || op.name === 'in' || op.name === 'not' || op.name === 'is'))
        return 'comparison';
      return 'expression';
    }
    default:
      return COMPREHENSIONS[node.name] ?? 'expression';
  }
}

/** An operand of `|` or tighter: what CPython's grammar calls a bitwise_or. */
export function isOperand(node: SyntaxNode, constants: boolean): boolean {
  switch (node.name) {
    case 'ConditionalExpression':
    case 'LambdaExpression':
    case 'NamedExpression':
    case 'YieldExpression':
    case '*':
      return false;
    case 'None':
    case 'Boolean':
      return constants;
    case 'UnaryExpression':
      return node.firstChild?.name !== 'not';
    case 'BinaryExpression': {
      const op = node.firstChild?.nextSibling;
      return !!op && (op.name === 'BitOp' || op.name === 'ArithOp');
    }
    default:
      return true;
  }
}
