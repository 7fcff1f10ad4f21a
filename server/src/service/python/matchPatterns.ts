// The checks CPython makes of a `match` statement's patterns that the grammar lets through: its
// parser's (a `_` target, positional after keyword patterns, complex literals, `**rest` placement)
// and its compiler's (unreachable cases, names bound twice or differently, duplicate keys).
import type { SyntaxNode } from '@lezer/common';
import { children } from './syntaxNodes';

export interface PatternError {
  from: number;
  to: number;
  message: string;
  stage: 'parser' | 'compiler';
}

interface Context {
  /** Whether a pattern that always matches is allowed here (CPython's `allow_irrefutable`). */
  allowIrrefutable: boolean;
  /** The names bound so far, in CPython's order. */
  stores: string[];
}

/** The pattern errors of a MatchStatement, in the order CPython meets them. */
export function matchErrors(match: SyntaxNode, src: string): PatternError[] {
  const out: PatternError[] = [];
  const text = (n: SyntaxNode) => src.slice(n.from, n.to);
  const fail = (n: { from: number; to: number }, message: string, stage: PatternError['stage'] = 'compiler') =>
    out.push({ from: n.from, to: n.to, message, stage });

  const store = (name: string, at: SyntaxNode, pc: Context) => {
    if (pc.stores.includes(name)) fail(at, `multiple assignments to name '${name}' in pattern`);
    else pc.stores.push(name);
  };

  const sub = (nodes: SyntaxNode[], pc: Context) => {
    const saved = pc.allowIrrefutable;
    pc.allowIrrefutable = true;
    for (const n of nodes) pattern(n, pc);
    pc.allowIrrefutable = saved;
  };

  const sequence = (items: SyntaxNode[], at: { from: number; to: number }, pc: Context) => {
    if (items.filter((n) => n.name === 'StarPattern').length > 1)
      fail(at, 'multiple starred names in sequence pattern');
    sub(items, pc);
  };

  const pattern = (node: SyntaxNode, pc: Context): void => {
    switch (node.name) {
      case 'CapturePattern': {
        const name = text(node);
        if (!pc.allowIrrefutable)
          fail(
            node,
            name === '_'
              ? 'wildcard makes remaining patterns unreachable'
              : `name capture '${name}' makes remaining patterns unreachable`,
          );
        else if (name !== '_') store(name, node, pc);
        return;
      }
      case 'AsPattern': {
        const kids = children(node);
        const name = kids[kids.length - 1];
        if (name.name === 'VariableName' && text(name) === '_')
          return void fail(name, "cannot use '_' as a target", 'parser');
        pattern(kids[0], pc);
        if (name.name === 'VariableName') store(text(name), node, pc);
        return;
      }
      case 'OrPattern': {
        // The grammar reads `0 | 1 as z` as `0 | (1 as z)`; Python as `(0 | 1) as z`.
        const alternatives = children(node).filter((k) => k.name !== 'LogicOp');
        const last = alternatives[alternatives.length - 1];
        const name = last.name === 'AsPattern' ? last.lastChild : null;
        if (!name || name.name !== 'VariableName' || !last.firstChild) return orPattern(alternatives, pc);
        orPattern([...alternatives.slice(0, -1), last.firstChild], pc);
        if (text(name) === '_') fail(name, "cannot use '_' as a target", 'parser');
        else store(text(name), node, pc);
        return;
      }
      case 'StarPattern': {
        const inner = node.lastChild;
        if (inner?.name === 'CapturePattern' && text(inner) !== '_') store(text(inner), inner, pc);
        return;
      }
      case 'SequencePattern': {
        // `(p)` groups a pattern; `(p,)` and `[p]` are sequences.
        const kids = children(node);
        if (kids[0].name === '(' && kids.length === 3) return pattern(kids[1], pc);
        return sequence(
          children(node).filter(
            (k) => k.name !== ',' && k.name !== '[' && k.name !== ']' && k.name !== '(' && k.name !== ')',
          ),
          node,
          pc,
        );
      }
      case 'MappingPattern':
        return mapping(node, pc);
      case 'ClassPattern':
        return classPattern(node, pc);
      case 'LiteralPattern':
        return complexLiteral(node);
    }
  };

  const orPattern = (alternatives: SyntaxNode[], pc: Context) => {
    let first: string[] | undefined;
    alternatives.forEach((alt, i) => {
      const inner: Context = {
        allowIrrefutable: i === alternatives.length - 1 && pc.allowIrrefutable,
        stores: [],
      };
      pattern(alt, inner);
      if (!first) first = inner.stores;
      else if (inner.stores.length !== first.length || inner.stores.some((s) => !first!.includes(s)))
        fail(alt, 'alternative patterns bind different names');
    });
    for (const name of first ?? []) store(name, alternatives[0], pc);
  };

  const mapping = (node: SyntaxNode, pc: Context) => {
    const items: SyntaxNode[][] = [[]];
    for (const k of children(node).slice(1, -1)) {
      if (k.name === ',') items.push([]);
      else items[items.length - 1].push(k);
    }
    const seen = new Map<string, string>();
    const values: SyntaxNode[] = [];
    items.forEach((item, i) => {
      if (!item.length) return;
      if (item[0].name === '**') {
        const rest = item[1];
        if (rest && text(rest) === '_') fail(rest, 'invalid syntax', 'parser');
        else if (i < items.length - 1 && items[i + 1].length) fail(items[i + 1][0], 'invalid syntax', 'parser');
        return;
      }
      if (item[0].name === 'LiteralPattern') complexLiteral(item[0]);
      const key = literalKey(item[0], src);
      if (key) {
        if (seen.has(key.key)) fail(node, `mapping pattern checks duplicate key (${key.repr})`);
        seen.set(key.key, key.repr);
      }
      values.push(...item.slice(2));
    });
    sub(values, pc);
    const rest = items.find((item) => item[0]?.name === '**')?.[1];
    if (rest?.name === 'CapturePattern' && text(rest) !== '_') store(text(rest), rest, pc);
  };

  const classPattern = (node: SyntaxNode, pc: Context) => {
    const args = node.lastChild;
    if (args?.name !== 'PatternArgList') return;
    const items = children(args).filter((k) => k.name !== ',' && k.name !== '(' && k.name !== ')');
    const keywords: string[] = [];
    let sawKeyword = false;
    const patterns: SyntaxNode[] = [];
    for (const item of items) {
      if (item.name === 'KeywordPattern') {
        sawKeyword = true;
        const name = item.firstChild ? text(item.firstChild) : '';
        const value = item.lastChild ?? item;
        if (keywords.includes(name)) fail(value, `attribute name repeated in class pattern: ${name}`);
        keywords.push(name);
        patterns.push(value);
      } else {
        if (sawKeyword) fail(item, 'positional patterns follow keyword patterns', 'parser');
        patterns.push(item);
      }
    }
    sub(patterns, pc);
  };

  const complexLiteral = (node: SyntaxNode) => {
    const numbers = children(node).filter((k) => k.name === 'Number');
    if (numbers.length !== 2) return;
    if (isImaginary(text(numbers[0]))) fail(numbers[0], 'real number required in complex literal', 'parser');
    else if (!isImaginary(text(numbers[1]))) fail(numbers[1], 'imaginary number required in complex literal', 'parser');
  };

  const clauses = children(match.lastChild ?? match).filter((k) => k.name === 'MatchClause');
  clauses.forEach((clause, i) => {
    const kids = children(clause);
    const parts = kids.slice(1).filter((k) => k.name !== 'Guard' && k.name !== 'Body');
    const guarded = kids.some((k) => k.name === 'Guard');
    const pc: Context = { allowIrrefutable: guarded || i === clauses.length - 1, stores: [] };
    if (parts.some((k) => k.name === ',')) {
      const items = parts.filter((k) => k.name !== ',');
      if (items.length) sequence(items, { from: items[0].from, to: items[items.length - 1].to }, pc);
    } else if (parts.length === 1) pattern(parts[0], pc);
  });
  return out;
}

function isImaginary(number: string): boolean {
  return /[jJ]$/.test(number);
}

/**
 * A mapping pattern's literal key as CPython compares it (equal numbers are one key: 0, 0.0, False,
 * 0j) with the `repr` its message shows; undefined for keys it cannot decide (escapes, attributes).
 */
function literalKey(node: SyntaxNode, src: string): { key: string; repr: string } | undefined {
  if (node.name !== 'LiteralPattern') return undefined;
  const parts = children(node);
  const text = (n: SyntaxNode) => src.slice(n.from, n.to);
  const only = parts.length === 1 ? parts[0] : undefined;
  if (only?.name === 'None') return { key: 'None', repr: 'None' };
  if (only?.name === 'Boolean') {
    const t = text(only) === 'True';
    return { key: `n:${t ? 1 : 0}:0`, repr: text(only) };
  }
  if (only?.name === 'String') {
    const m = /^([rRbBuU]{0,2})('''|"""|'|")([^]*)\2$/.exec(text(only));
    if (!m || (m[3].includes('\\') && !/[rR]/.test(m[1]))) return undefined;
    const bytes = /[bB]/.test(m[1]);
    const quote = m[3].includes("'") && !m[3].includes('"') ? '"' : "'";
    return { key: `${bytes ? 'b' : 's'}:${m[3]}`, repr: `${bytes ? 'b' : ''}${quote}${m[3]}${quote}` };
  }
  // [-] Number [(+|-) Number]
  let sign = 1;
  let re = 0;
  let im = 0;
  let reRepr = '';
  let imRepr = '';
  for (const p of parts) {
    if (p.name === 'ArithOp') sign = text(p) === '-' ? -1 : 1;
    else if (p.name === 'Number') {
      const n = parseNumber(text(p));
      if (!n) return undefined;
      if (n.imaginary) {
        im = sign * n.value;
        imRepr = `${sign < 0 ? '-' : parts.length > 2 ? '+' : ''}${n.repr}j`;
      } else {
        re = sign * n.value;
        reRepr = `${sign < 0 && n.value !== 0 ? '-' : ''}${n.repr}`;
      }
    } else return undefined;
  }
  const repr = reRepr && imRepr ? `(${reRepr}${imRepr})` : reRepr || imRepr;
  return { key: `n:${re === 0 ? 0 : re}:${im === 0 ? 0 : im}`, repr };
}

/** A Python number literal's value and its `repr` (ints exactly as written in decimal). */
function parseNumber(literal: string): { value: number; repr: string; imaginary: boolean } | undefined {
  const t = literal.replace(/_/g, '');
  const imaginary = /[jJ]$/.test(t);
  const body = imaginary ? t.slice(0, -1) : t;
  if (/^0[xXoObB]/.test(body)) {
    const n = BigInt(body.toLowerCase());
    return { value: Number(n), repr: n.toString(), imaginary };
  }
  if (!imaginary && /^\d+$/.test(body)) {
    const n = BigInt(body);
    return { value: Number(n), repr: n.toString(), imaginary };
  }
  const value = Number(body);
  if (Number.isNaN(value)) return undefined;
  return { value, repr: floatRepr(value, imaginary), imaginary };
}

/** Python's repr of a float (an imaginary part drops a trailing `.0`: `0j`, `1.5j`). */
function floatRepr(v: number, imaginary: boolean): string {
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  const abs = Math.abs(v);
  if (abs !== 0 && (abs >= 1e16 || abs < 1e-4)) {
    const [mantissa, exp] = v.toExponential().split('e');
    const e = Number(exp);
    return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const s = String(v);
  if (Number.isInteger(v)) return imaginary ? s : `${s}.0`;
  return s;
}
