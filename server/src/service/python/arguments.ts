// A call's (or a class's) argument list as CPython's parser and compiler check it: keyword and
// positional order, unpacking order, repeated keywords, generator expressions that need their own
// parentheses. Apart from the walk: the analyser reports what this finds and walks the values.
import type { SyntaxNode } from '@lezer/common';
import { children, splitArgs } from './syntaxNodes';

export interface ArgumentCheck {
  problems: { from: number; to: number; message: string; stage: 'parser' | 'compiler' }[];
  /** `name=value` arguments. */
  keywords: { name: SyntaxNode; value: SyntaxNode }[];
  /** The arguments, each as its nodes (a keyword's name included). */
  segments: SyntaxNode[][];
}

/** The arguments of `node` (an ArgList) in `src`; `bases`: a class's, where no generator may stand. */
export function checkArguments(node: SyntaxNode, src: string, bases: boolean): ArgumentCheck {
  const kids = children(node).filter((k) => k.name !== '(' && k.name !== ')');
  const segments = splitArgs(kids).filter((s) => s.length);
  const problems: ArgumentCheck['problems'] = [];
  const keywords: ArgumentCheck['keywords'] = [];
  const problem = (from: number, to: number, message: string, stage: 'parser' | 'compiler' = 'parser') =>
    void problems.push({ from, to, message, stage });
  const whole = (seg: SyntaxNode[]) => [seg[0].from, seg[seg.length - 1].to] as const;
  const trailingComma = kids[kids.length - 1]?.name === ',';
  const generators = segments.filter((s) => s.some((n) => n.name === 'for'));
  for (const seg of generators) {
    const f = seg.find((n) => n.name === 'for')!;
    if (seg[1]?.name === 'AssignOp')
      problem(seg[0].from, seg[1].to, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    else if (trailingComma || segments.length > 1) problem(...whole(seg), 'Generator expression must be parenthesized');
    else if (bases) problem(f.from, f.to, 'invalid syntax');
  }
  let sawKeyword = false;
  let sawKwUnpack = false;
  const names = new Set<string>();
  for (const seg of segments) {
    const first = seg[0];
    if (first.name === '**') sawKwUnpack = true;
    else if (first.name === '*') {
      if (sawKwUnpack) problem(...whole(seg), 'iterable argument unpacking follows keyword argument unpacking');
    } else if (
      seg.length >= 3 &&
      seg[1].name === 'AssignOp' &&
      src.slice(seg[1].from, seg[1].to) === '=' &&
      first.name === 'VariableName'
    ) {
      const name = src.slice(first.from, first.to);
      if (names.has(name)) problem(first.from, first.to, `keyword argument repeated: ${name}`, 'compiler');
      names.add(name);
      sawKeyword = true;
      keywords.push({ name: first, value: seg[2] });
    } else if (sawKwUnpack) problem(...whole(seg), 'positional argument follows keyword argument unpacking');
    else if (sawKeyword) problem(...whole(seg), 'positional argument follows keyword argument');
  }
  return { problems, keywords, segments };
}
