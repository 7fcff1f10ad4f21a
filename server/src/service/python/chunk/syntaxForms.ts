// Forms CPython's parser refuses that the grammar lets through (reported as the parser's errors), and
// the grammar's own error nodes: targets that cannot be assigned, misplaced starred expressions,
// `try` and `import` forms, f-string fields, patterns, parameters and arguments.
import type { SyntaxNode } from '@lezer/common';
import { matchErrors } from '../matchPatterns';
import { assignToYield, comparisonLike, exceptHandlers, KEYWORDS } from '../statementForms';
import { children, describe, unparenthesized } from '../syntaxNodes';
import type { Visitor } from './visitor';
import type { ChunkWalk } from './walker';

interface Forms {
  readonly walk: ChunkWalk;
  /** The target of `target = value` that CPython reports with "Maybe you meant '=='" (its start). */
  comparisonHint: number;
}

export const syntaxForms: Visitor<Forms> = {
  start: (walk) => ({ walk, comparisonHint: -1 }),
  error: ({ walk }, node) => walk.problems.grammarError(node),
  enter: {
    AssignStatement(s, node) {
      const walk = s.walk;
      if (walk.broken(node)) return;
      const { targets, value } = walk.assignment(node);
      if (targets.length > 1 && targets[0].some((n) => n.name === 'TypeDef'))
        refuse(walk, children(node).filter((k) => k.name === 'AssignOp')[1], 'invalid syntax');
      for (const g of targets) {
        const ann = g.findIndex((n) => n.name === 'TypeDef');
        if (ann < 0) {
          if (targets.length === 1 && value.length) s.comparisonHint = comparisonLike(g, value);
          continue;
        }
        const tnodes = g.slice(0, ann);
        if (tnodes.some((n) => n.name === ','))
          refuse(walk, span(tnodes), 'only single target (not tuple) can be annotated');
        if (tnodes.length !== 1) continue;
        const t = unparenthesized(tnodes[0]);
        if (t.name === 'TupleExpression') refuse(walk, t, 'only single target (not tuple) can be annotated');
        else if (t.name === 'ArrayExpression') refuse(walk, t, 'only single target (not list) can be annotated');
        else if (t.name !== 'VariableName' && t.name !== 'MemberExpression')
          refuse(walk, t, 'illegal target for annotation');
      }
    },
    UpdateStatement({ walk }, node) {
      const kids = walk.children(node);
      const op = kids.findIndex((k) => k.name === 'UpdateOp');
      const targets = kids.slice(0, op).filter((k) => k.name !== '⚠');
      if (targets.length === 1 && !walk.broken(targets[0])) {
        const t = unparenthesized(targets[0]);
        if (t.name === 'VariableName' || t.name === 'MemberExpression') return;
        const what =
          t.name === 'TupleExpression' ? 'tuple' : t.name === 'ArrayExpression' ? 'list' : describe(t, walk.chunk.src);
        refuse(walk, t, `'${what}' is an illegal expression for augmented assignment`);
      } else if (targets.length > 1 && kids.slice(0, op).some((k) => k.name === ','))
        refuse(walk, span(kids.slice(0, op)), "'tuple' is an illegal expression for augmented assignment");
    },
    RaiseStatement({ walk }, node) {
      const comma = walk.children(node).find((k) => k.name === ',');
      if (comma) refuse(walk, comma, 'invalid syntax');
    },
    ImportStatement({ walk }, node) {
      const kids = walk.children(node);
      const paren = kids.find((k) => k.name === '(');
      const last = kids[kids.length - 1];
      if (kids[0]?.name === 'import' && paren) refuse(walk, paren, 'invalid syntax');
      else if (!paren && last?.name === ',')
        refuse(walk, last, 'trailing comma not allowed without surrounding parentheses');
    },
    TryStatement({ walk }, node) {
      const kids = walk.children(node);
      const handlers = exceptHandlers(kids);
      if (!handlers.length && !kids.some((k) => k.name === 'finally') && !walk.broken(node)) {
        const at = nextToken(walk.chunk.src, node.to);
        refuse(walk, { from: at, to: at + 1 }, "expected 'except' or 'finally' block");
      }
      const mixed = handlers.find((h) => !!h.star !== !!handlers[0].star);
      if (mixed) refuse(walk, mixed.at, "cannot have both 'except' and 'except*' on the same 'try'");
      for (const h of handlers)
        if (h.star && !h.types.length)
          refuse(walk, { from: h.star.to, to: h.body.from + 1 }, 'expected one or more exception types');
        else if (h.comma) refuse(walk, span(h.types), 'multiple exception types must be parenthesized');
    },
    MatchStatement({ walk }, node) {
      if (!walk.broken(node))
        for (const e of matchErrors(node, walk.chunk.src)) walk.problems.add(e.stage, e.from, e.to, e.message);
    },
    MemberExpression({ walk }, node) {
      const property = node.lastChild;
      if (property?.name === 'PropertyName' && KEYWORDS.has(walk.chunk.text(property)))
        refuse(walk, property, 'invalid syntax');
    },
    ParenthesizedExpression({ walk }, node) {
      const inner = node.firstChild?.nextSibling;
      if (inner?.name === '*')
        refuse(walk, { from: inner.from, to: (node.lastChild ?? inner).from }, 'cannot use starred expression here');
    },
    FormatReplacement({ walk }, node) {
      // `{lambda x: x}` ends the expression at its ':'; `{*a}` is no tuple.
      const kids = children(node);
      const first = kids[1];
      if (first?.name === 'LambdaExpression') refuse(walk, first.getChild(':') ?? first, 'f-string: invalid syntax');
      else if (first?.name === '*' && !kids.some((k) => k.name === ','))
        refuse(walk, { from: first.from, to: kids[2]?.to ?? first.to }, 'f-string: cannot use starred expression here');
    },
    NamedExpression({ walk }, node) {
      const t = node.firstChild;
      if (!t || t.name === 'VariableName' || t.type.isError) return;
      const what =
        t.name === 'MemberExpression'
          ? t.lastChild?.name === ']'
            ? 'subscript'
            : 'attribute'
          : describe(t, walk.chunk.src);
      refuse(walk, t, `cannot use assignment expressions with ${what}`);
    },
    ContinuedString({ walk }, node) {
      const bytes = children(node).map((p) => /^[rRfFuU]?[bB]/.test(walk.chunk.text(p)));
      if (bytes.some((b) => b) && bytes.some((b) => !b)) refuse(walk, node, 'cannot mix bytes and nonbytes literals');
    },
    AwaitExpression({ walk }, node) {
      const operand = node.firstChild?.nextSibling;
      if (operand?.name === 'AwaitExpression' && operand.firstChild) refuse(walk, operand.firstChild, 'invalid syntax');
    },
    ArrayComprehensionExpression: comprehensionNode,
    SetComprehensionExpression: comprehensionNode,
    DictionaryComprehensionExpression: comprehensionNode,
    ComprehensionExpression: comprehensionNode,
  },
  leave: {
    AssignStatement: (s) => void (s.comparisonHint = -1),
  },
  target(s, node, ctx) {
    const walk = s.walk;
    switch (node.name) {
      case 'VariableName':
      case 'MemberExpression':
      case '⚠':
      case ',':
        return;
      case 'ParenthesizedExpression': {
        const inner = node.firstChild?.nextSibling;
        if (inner?.name === '*')
          refuse(walk, { from: inner.from, to: node.to - 1 }, 'cannot use starred expression here');
        else if (inner?.name === 'YieldExpression') refuse(walk, inner, assignToYield(ctx, true));
        return;
      }
      case 'TupleExpression':
      case 'ArrayExpression': {
        const star = ctx === 'del' ? children(node).find((n) => n.name === '*') : undefined;
        if (star) refuse(walk, star, 'cannot delete starred');
        return;
      }
    }
    if (node.type.isError) return;
    if (node.name === 'YieldExpression') return refuse(walk, node, assignToYield(ctx, false));
    const message = `cannot ${ctx === 'del' ? 'delete' : 'assign to'} ${describe(node, walk.chunk.src)}`;
    refuse(
      walk,
      node,
      node.from === s.comparisonHint ? `${message} here. Maybe you meant '==' instead of '='?` : message,
    );
  },
  parameters({ walk }, check) {
    for (const p of check.problems) walk.problems.add(p.stage, p.from, p.to, p.message);
  },
  arguments({ walk }, check) {
    for (const p of check.problems) walk.problems.add(p.stage, p.from, p.to, p.message);
    for (const seg of check.segments) if (seg.some((n) => n.name === 'for')) comprehension(walk, seg);
  },
};

function refuse(walk: ChunkWalk, at: { from: number; to: number }, message: string): void {
  walk.problems.add('parser', at.from, at.to, message);
}

/** From the first node's start to the last one's end. */
function span(nodes: SyntaxNode[]): { from: number; to: number } {
  return { from: nodes[0].from, to: nodes[nodes.length - 1].to };
}

/** `[*x for x in y]`, `{**d for d in ds}`: unpacking as a comprehension's element. */
function comprehension(walk: ChunkWalk, parts: SyntaxNode[]): void {
  const start = parts.findIndex((k) => k.name === 'for' || k.name === 'async');
  const star = parts[0];
  if (start > 0 && (star.name === '*' || star.name === '**'))
    refuse(
      walk,
      { from: star.from, to: parts[start - 1].to },
      star.name === '*'
        ? 'iterable unpacking cannot be used in comprehension'
        : 'dict unpacking cannot be used in dict comprehension',
    );
}

function comprehensionNode({ walk }: Forms, node: SyntaxNode): void {
  comprehension(walk, children(node).slice(1, -1));
}

/** The next token's offset after `pos` (comments and blank lines skipped), or the end of the last line. */
function nextToken(src: string, pos: number): number {
  const m = /^(?:\s|#[^\n\r]*)*/.exec(src.slice(pos))!;
  if (pos + m[0].length < src.length) return pos + m[0].length;
  let end = pos;
  while (end > 0 && /\s/.test(src[end - 1])) end--;
  return end;
}
