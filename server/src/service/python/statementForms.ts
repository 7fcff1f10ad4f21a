// The shapes of statements that CPython's checks read, taken apart from the error-tolerant tree:
// except handlers, comprehension clauses, the names an import binds, a mistyped comparison; and the
// constants of those checks.
import type { SyntaxNode } from '@lezer/common';
import { isOperand, split, unparenthesized } from './syntaxNodes';

export const FUTURE_FEATURES = new Set([
  'nested_scopes',
  'generators',
  'division',
  'absolute_import',
  'with_statement',
  'print_function',
  'unicode_literals',
  'barry_as_FLUFL',
  'generator_stop',
  'annotations',
]);

export const BLOCK_HEADER =
  /^[ \t]*(?:async[ \t]+)?(?:def|class|if|elif|else|for|while|with|try|except|finally|match|case)\b/;

/**
 * Where CPython's parser takes `target = value` for a mistyped comparison (its invalid_named_expression
 * rule): one `=`, the target next to it and the value both single operands of `|` or tighter (not a
 * comparison, `not`, `and`, `or`, conditional, lambda), the target not a list, tuple, generator or
 * constant. Returns the start of the target CPython names, or -1.
 */
export function comparisonLike(targets: SyntaxNode[], value: SyntaxNode[]): number {
  const t = targets[targets.length - 1];
  if (!t || value.length !== 1 || !isOperand(value[0], true)) return -1;
  if (['TupleExpression', 'ArrayExpression', 'ComprehensionExpression', 'None', 'Boolean'].includes(t.name)) return -1;
  if (!isOperand(t, false)) return -1;
  return unparenthesized(t).from;
}

/** CPython's words for a yield expression as a target (its parser tells the bare one apart). */
export function assignToYield(ctx: 'assign' | 'del', parenthesized: boolean): string {
  if (ctx === 'del') return 'cannot delete yield expression';
  return parenthesized
    ? "cannot assign to yield expression here. Maybe you meant '==' instead of '='?"
    : 'assignment to yield expression not possible';
}

/** Python's keywords: never an attribute name (`obj.None` does not parse). */
export const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** CPython's CO_MAXBLOCKS: how deep loops, with and try statements may nest in one function. */
export const MAX_BLOCKS = 20;

export const EXCEPT_STAR_EXIT = "'break', 'continue' and 'return' cannot appear in an except* block";

export interface ExceptHandler {
  at: SyntaxNode;
  star?: SyntaxNode;
  types: SyntaxNode[];
  /** `except A, B:` (Python 2's form). */
  comma?: SyntaxNode;
  body: SyntaxNode;
}

/** A try statement's `except [*] [types [as name]]:` handlers. */
export function exceptHandlers(kids: SyntaxNode[]): ExceptHandler[] {
  const out: ExceptHandler[] = [];
  for (let i = 0; i < kids.length; i++) {
    if (kids[i].name !== 'except') continue;
    const h: Partial<ExceptHandler> & { types: SyntaxNode[] } = { at: kids[i], types: [] };
    let j = i + 1;
    for (; j < kids.length && kids[j].name !== 'Body'; j++) {
      const k = kids[j];
      if (k.name === '*') h.star = k;
      else if (k.name === ',') h.comma = k;
      else if (k.name === 'as') {
        while (j + 1 < kids.length && kids[j + 1].name !== 'Body') j++;
      } else h.types.push(k);
    }
    if (j < kids.length) out.push({ ...h, at: kids[i], body: kids[j] });
  }
  return out;
}

/** The names an import binds: `a` of `import a.b`, `c` of `… as c`, `x` of `from m import x`. */
export function importedNames(kids: SyntaxNode[]): SyntaxNode[] {
  const names = kids[0]?.name === 'from' ? kids.slice(kids.findIndex((k) => k.name === 'import') + 1) : kids.slice(1);
  const out: SyntaxNode[] = [];
  for (const seg of split(names, ',')) {
    const as = seg.findIndex((n) => n.name === 'as');
    const bound = as >= 0 ? seg[as + 1] : seg.find((n) => n.name === 'VariableName');
    if (bound?.name === 'VariableName') out.push(bound);
  }
  return out;
}

export interface ComprehensionClause {
  async?: SyntaxNode;
  targets: SyntaxNode[];
  iterable: SyntaxNode[];
  conditions: SyntaxNode[];
}

/** `[async] for targets in iterable (if condition)*` clauses, from the first `async` or `for`. */
export function comprehensionClauses(parts: SyntaxNode[]): ComprehensionClause[] {
  const out: ComprehensionClause[] = [];
  let clause: ComprehensionClause | undefined;
  let into: SyntaxNode[] = [];
  let async: SyntaxNode | undefined;
  for (const k of parts) {
    if (k.name === 'async') async = k;
    else if (k.name === 'for') {
      clause = { async, targets: [], iterable: [], conditions: [] };
      async = undefined;
      out.push(clause);
      into = clause.targets;
    } else if (k.name === 'in' && clause && into === clause.targets) into = clause.iterable;
    else if (k.name === 'if' && clause) into = clause.conditions;
    else into.push(k);
  }
  return out;
}
