// A def's or lambda's parameter list as CPython's parser and symbol table check it (the order of
// defaults, '/', '*' and '**', duplicate names), apart from the walk: the analyser reports what this
// finds, checks each name against __debug__ and walks the annotations and defaults.
import type { SyntaxNode } from '@lezer/common';
import type { ParamInfo } from './executeContract';
import { children } from './syntaxNodes';

export interface ParameterCheck {
  info: ParamInfo[];
  problems: { from: number; to: number; message: string; stage: 'parser' | 'symtable' }[];
  /** The parameters' names. */
  names: SyntaxNode[];
  /** Annotations and defaults: expressions of the scope around the def or lambda. */
  expressions: SyntaxNode[];
}

/** The parameters of `node` (a ParamList) in the source `src`. */
export function checkParameters(node: SyntaxNode, src: string): ParameterCheck {
  const kids = children(node).filter((k) => k.name !== '(' && k.name !== ')');
  const segs: { nodes: SyntaxNode[]; from: number; to: number }[] = [];
  let from = node.firstChild?.name === '(' ? node.firstChild.to : node.from;
  let cur: SyntaxNode[] = [];
  for (const k of kids) {
    if (k.name === ',') {
      segs.push({ nodes: cur, from, to: k.from });
      cur = [];
      from = k.to;
    } else cur.push(k);
  }
  const end = node.lastChild?.name === ')' ? node.lastChild.from : node.to;
  segs.push({ nodes: cur, from, to: end });
  const out: ParamInfo[] = [];
  const seen = new Set<string>();
  const names: SyntaxNode[] = [];
  const expressions: SyntaxNode[] = [];
  const problems: ParameterCheck['problems'] = [];
  const problem = (stage: 'parser' | 'symtable', from: number, to: number, message: string) =>
    void problems.push({ from, to, message, stage });
  let sawDefault = false;
  let sawStar = false;
  let sawKwargs = false;
  let sawSlash = false;
  let bareStar: SyntaxNode | undefined;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const ns = seg.nodes;
    if (!ns.length) {
      const text = src.slice(seg.from, seg.to).trim();
      if (text === '/') {
        const at = src.indexOf('/', seg.from);
        if (sawKwargs) problem('parser', at, at + 1, 'arguments cannot follow var-keyword argument');
        else if (sawSlash) problem('parser', at, at + 1, '/ may appear only once');
        else if (sawStar) problem('parser', at, at + 1, '/ must be ahead of *');
        // `def f(/)` is plain invalid syntax; `def f(/, a)` gets CPython's explanation.
        else if (!out.length)
          problem(
            'parser',
            at,
            at + 1,
            i < segs.length - 1 ? 'at least one argument must precede /' : 'invalid syntax',
          );
        sawSlash = true;
        out.forEach((p) => (p.kind = 'positional-only'));
        out.push({ name: '/', kind: 'marker', hasDefault: false });
      }
      continue;
    }
    if (sawKwargs) problem('parser', ns[0].from, ns[ns.length - 1].to, 'arguments cannot follow var-keyword argument');
    const first = ns[0];
    const nameNode = ns.find((n) => n.name === 'VariableName');
    const pname = nameNode ? src.slice(nameNode.from, nameNode.to) : '';
    if (nameNode) {
      names.push(nameNode);
      if (seen.has(pname))
        problem('symtable', nameNode.from, nameNode.to, `duplicate argument '${pname}' in function definition`);
      seen.add(pname);
    }
    for (const n of ns) if (n.name === 'TypeDef' || n.name === 'StarTypeDef') expressions.push(n);
    const defIdx = ns.findIndex((n) => n.name === 'AssignOp');
    if (defIdx >= 0) expressions.push(...ns.slice(defIdx + 1));
    if (first.name === '*') {
      if (sawStar) problem('parser', first.from, first.to, '* argument may appear only once');
      sawStar = true;
      if (!nameNode) bareStar = first;
      out.push({ name: pname, kind: nameNode ? 'varargs' : 'marker', hasDefault: false });
      continue;
    }
    if (first.name === '**') {
      sawKwargs = true;
      if (bareStar && out[out.length - 1]?.kind === 'marker' && out[out.length - 1].name === '') {
        problem('parser', bareStar.from, bareStar.to, 'named arguments must follow bare *');
      }
      bareStar = undefined;
      out.push({ name: pname, kind: 'kwargs', hasDefault: false });
      continue;
    }
    const hasDefault = defIdx >= 0;
    if (!sawStar) {
      if (hasDefault) sawDefault = true;
      else if (sawDefault && nameNode)
        problem('parser', nameNode.from, nameNode.to, 'non-default argument follows default argument');
    }
    bareStar = undefined;
    out.push({ name: pname, kind: sawStar ? 'keyword-only' : 'positional', hasDefault });
  }
  if (bareStar && out[out.length - 1]?.kind === 'marker')
    problem('parser', bareStar.from, bareStar.to, 'named arguments must follow bare *');
  return { info: out, problems, names, expressions };
}
