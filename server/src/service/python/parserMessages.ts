// The messages CPython's parser gives for the common ways a statement fails to parse (its grammar's
// `invalid_*` rules), read off the error-tolerant tree around a grammar error: what the author most
// likely meant, said as CPython says it, where CPython puts it.
import type { SyntaxNode } from '@lezer/common';
import { describe, isOperand, unparenthesized } from './syntaxNodes';

export interface ParserMessage {
  from: number;
  to: number;
  message: string;
}

const BRACKETED = new Set([
  'ArrayExpression',
  'TupleExpression',
  'SetExpression',
  'DictionaryExpression',
  'ParenthesizedExpression',
  'ArgList',
  // CPython 3.11 compiles an f-string field's expression in parentheses.
  'FormatReplacement',
]);

/** Expressions CPython's parser may take for the left side of a mistyped `==`. */
const COMPARABLE = new Set([
  'MemberExpression',
  'CallExpression',
  'Number',
  'String',
  'ContinuedString',
  'FormatString',
  'BinaryExpression',
  'UnaryExpression',
  'ParenthesizedExpression',
  'DictionaryExpression',
  'SetExpression',
  'ArrayComprehensionExpression',
  'SetComprehensionExpression',
  'DictionaryComprehensionExpression',
]);

const NOT_AN_OPERAND = /^(?:for|if|else|elif|async|in|not|and|or|is|as|from|lambda|yield|await)\b/;

/** CPython's message for the grammar error `error`, when the tree around it says which; else undefined. */
export function parserMessage(error: SyntaxNode, src: string): ParserMessage | undefined {
  const parent = error.parent;
  const prev = previous(error);
  const at = nextToken(src, error.from);
  const next = src.slice(at, at + 12);
  const span = (n: { from: number; to: number }, message: string) => ({ from: n.from, to: n.to, message });

  if (parent?.name === 'ConditionalExpression' && !parent.getChild('else') && src[at] !== ':')
    return span(parent, "expected 'else' after 'if' expression");

  if (parent?.name === 'ParamList') {
    if (prev?.name === 'AssignOp') return span(prev, 'expected default value expression');
    if (src[error.from] === '(' && !parent.getChild('*'))
      return span(
        { from: error.from, to: error.from + 1 },
        parent.parent?.name === 'LambdaExpression'
          ? 'Lambda expression parameters cannot be parenthesized'
          : 'Function parameters cannot be parenthesized',
      );
    if (src[at] === '=' && prev) {
      let star = prev;
      while (star.prevSibling && star.name !== '*' && star.name !== '**' && star.name !== ',') star = star.prevSibling;
      if (star.name === '*') return span({ from: at, to: at + 1 }, 'var-positional argument cannot have default value');
      if (star.name === '**') return span({ from: at, to: at + 1 }, 'var-keyword argument cannot have default value');
    }
  }

  // `lambda x, (y, z): …`: the grammar ends the parameters at the parenthesis.
  if (parent?.name === 'LambdaExpression' && prev?.name === 'ParamList' && src[at] === '(')
    return span({ from: at, to: at + 1 }, 'Lambda expression parameters cannot be parenthesized');

  if (parent?.name === 'DeleteStatement' && src[error.from] === '*')
    return span({ from: error.from, to: error.to }, 'cannot delete starred');

  if (parent?.name === 'FunctionDefinition' && prev?.name === 'VariableName' && src[at] !== '(')
    return span({ from: at, to: at + 1 }, "expected '('");

  if (parent?.name === 'ArgList' && src[at] === '=' && src[at + 1] !== '=') {
    let start = prev;
    while (start?.prevSibling && start.prevSibling.name !== ',' && start.prevSibling.name !== '(')
      start = start.prevSibling;
    if (start) return span(unparenthesized(start), 'expression cannot contain assignment, perhaps you meant "=="?');
  }

  if (parent?.name === 'DictionaryExpression' && prev?.name === ':' && src[at] === '*')
    return span({ from: at, to: at + 1 }, 'cannot use a starred expression in a dictionary value');

  if (parent?.name === 'TryStatement') {
    let k = prev;
    let comma = false;
    while (k && k.name !== 'except') {
      if (k.name === ',') comma = true;
      k = k.prevSibling;
    }
    const first = k?.nextSibling?.name === '*' ? k.nextSibling.nextSibling : k?.nextSibling;
    if (k && comma && first)
      return span({ from: first.from, to: error.from }, 'multiple exception types must be parenthesized');
  }

  if (!parent || parent.name === 'Script' || parent.name === 'Body') {
    if (prev?.name === 'YieldStatement' && src[at] === '=' && src[at + 1] !== '=')
      return span(prev, 'assignment to yield expression not possible');
  }

  if (parent && BRACKETED.has(parent.name) && prev) {
    // `[x, y for x, y in z]`
    if (/^for\b/.test(next) && (parent.name === 'ArrayExpression' || parent.name === 'SetExpression')) {
      const first = parent.firstChild?.nextSibling;
      if (first && parent.getChild(','))
        return span({ from: first.from, to: prev.to }, 'did you forget parentheses around the comprehension target?');
    }
    // `[1, 2 3]`: two operands side by side.
    const juxtaposed =
      prev.name !== ',' &&
      prev.name !== ':' &&
      !/^[[({]$/.test(prev.name) &&
      at < src.length &&
      /^[\w'"([{.~+-]/.test(next) &&
      !NOT_AN_OPERAND.test(next) &&
      !(prev.name === 'VariableName' && /^[rbuf]{0,2}['"]/i.test(next));
    if (juxtaposed) return span(prev, 'invalid syntax. Perhaps you forgot a comma?');
  }

  if (src[at] === '=' && src[at + 1] !== '=') return mistypedComparison(error, prev, src);
  return undefined;
}

/**
 * `if x = 1:`, `while a.b = 2:`: a grammar error at `=` after an expression, which CPython's parser
 * reports as a mistyped comparison, on that expression.
 */
function mistypedComparison(error: SyntaxNode, left: SyntaxNode | null, src: string): ParserMessage | undefined {
  const parent = error.parent?.name;
  if (parent === 'ArgList' || parent === 'ParamList' || parent === 'LambdaExpression') return undefined;
  if (!left || !/^\s*=?$/.test(src.slice(left.to, nextToken(src, error.from) + 1))) return undefined;
  if (left.name === 'VariableName')
    return { from: left.from, to: left.to, message: "invalid syntax. Maybe you meant '==' or ':=' instead of '='?" };
  if (!COMPARABLE.has(left.name) || !isOperand(left, false)) return undefined;
  const what =
    left.name === 'MemberExpression' ? (left.lastChild?.name === ']' ? 'subscript' : 'attribute') : describe(left, src);
  return {
    from: left.from,
    to: left.to,
    message: `cannot assign to ${what} here. Maybe you meant '==' instead of '='?`,
  };
}

/** The sibling before `node`, grammar errors passed over. */
function previous(node: SyntaxNode): SyntaxNode | null {
  let p = node.prevSibling;
  while (p && p.type.isError) p = p.prevSibling;
  return p;
}

/** The offset of the next character after `pos` that is not a space or tab. */
function nextToken(src: string, pos: number): number {
  while (pos < src.length && (src[pos] === ' ' || src[pos] === '\t')) pos++;
  return pos;
}

/** Whether a grammar error is inside an f-string's replacement field (CPython prefixes its message). */
export function inFormatField(node: SyntaxNode): boolean {
  for (let p: SyntaxNode | null = node; p; p = p.parent) if (p.name === 'FormatReplacement') return true;
  return false;
}
