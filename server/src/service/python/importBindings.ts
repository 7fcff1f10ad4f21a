// What an import statement binds, as pyflakes names it: each name with its display (`os.path`,
// `m.x as y`), whether it re-exports on purpose (`import a as a`), and the characters that removing
// it deletes (its line, or the name with a comma) for the unused-import fix.
import type { SyntaxNode } from '@lezer/common';
import { children, type Chunk } from './syntaxNodes';

export interface ImportBinding {
  readonly name: string;
  /** What pyflakes calls it: `os.path` for `import os.path`, `m.x` for `from m import x`. */
  readonly display: string;
  /** From the imported name's start to the bound name's end (absolute offsets). */
  readonly from: number;
  readonly to: number;
  readonly remove: { readonly from: number; readonly to: number };
  /** `import a as a`, `from m import x as x`: a re-export, never unused. */
  readonly reexport: boolean;
  /** `import a.b as c`: the root it also uses (`a`). */
  readonly aliasOf?: string;
}

/** The statement's kind and what it binds; `future`: `from __future__ import …`, `star`: `import *`. */
export interface ImportStatementNames {
  readonly future: boolean;
  readonly futureAnnotations: boolean;
  readonly star: boolean;
  readonly bindings: ImportBinding[];
}

export function importStatementNames(chunk: Chunk, n: SyntaxNode): ImportStatementNames {
  const src = chunk.src;
  const cs = children(n).filter((c) => c.name !== '(' && c.name !== ')');
  const from = cs[0]?.name === 'from';
  let i = from ? cs.findIndex((c) => c.name === 'import') + 1 : 1;
  const none = { future: false, futureAnnotations: false, star: false, bindings: [] };
  if (from && i < 3) return none; // `from import x`, `from m` (a syntax error: nothing is bound)
  const module = from ? src.slice(cs[1].from, cs[i - 1].from).trim() : '';
  if (from && module === '__future__')
    return {
      ...none,
      future: true,
      futureAnnotations: cs.some((c) => c.name === 'VariableName' && chunk.text(c) === 'annotations'),
    };
  const items: { nodes: SyntaxNode[]; alias?: SyntaxNode }[] = [];
  let item: SyntaxNode[] = [];
  let alias: SyntaxNode | undefined;
  for (; i <= cs.length; i++) {
    const c = cs[i];
    if (!c || c.name === ',') {
      if (item.length) items.push({ nodes: item, alias });
      item = [];
      alias = undefined;
    } else if (c.name === '*') return { ...none, star: true };
    else if (c.name === 'as') alias = cs[++i];
    else if (c.name === 'VariableName') item.push(c);
  }
  const bindings = items.map((it, k): ImportBinding => {
    const first = it.nodes[0];
    const dotted = src.slice(first.from, it.nodes[it.nodes.length - 1].to);
    const nameNode = it.alias ?? first;
    const name = chunk.text(nameNode);
    const full = module.endsWith('.') ? `${module}${dotted}` : `${module}.${dotted}`;
    return {
      name,
      display: it.alias ? `${from ? full : dotted} as ${name}` : from ? full : dotted,
      from: first.from,
      to: nameNode.to,
      remove:
        items.length === 1
          ? statementLine(src, n)
          : itemWithComma(src, first.from, (it.alias ?? it.nodes[it.nodes.length - 1]).to, k === items.length - 1),
      reexport: !!it.alias && chunk.text(it.alias) === (from ? dotted : dotted.split('.').pop()),
      aliasOf: it.alias && !from ? dotted.split('.')[0] : undefined,
    };
  });
  return { ...none, bindings };
}

/** The whole line of a statement, its line break included, when it is alone on its lines. */
function statementLine(src: string, n: SyntaxNode): { from: number; to: number } {
  let start = n.from;
  while (start > 0 && ' \t'.includes(src[start - 1])) start--;
  let end = n.to;
  while (end < src.length && ' \t'.includes(src[end])) end++;
  const alone = (start === 0 || '\r\n'.includes(src[start - 1])) && (end >= src.length || '\r\n#'.includes(src[end]));
  if (!alone) {
    // `import os; x = 1`: the statement and its `;`, so that what stays still parses.
    if (src[end] !== ';') return { from: n.from, to: n.to };
    end++;
    while (end < src.length && ' \t'.includes(src[end])) end++;
    return { from: n.from, to: end };
  }
  if (src[end] === '\r' && src[end + 1] === '\n') end += 2;
  else if (end < src.length && '\r\n'.includes(src[end])) end++;
  return { from: start, to: end };
}

/** One name of an import list with the comma after it (or, for the last, the comma before). */
function itemWithComma(src: string, from: number, to: number, last: boolean): { from: number; to: number } {
  if (last) {
    let s = from;
    while (s > 0 && /\s/.test(src[s - 1])) s--;
    if (src[s - 1] === ',') s--;
    return { from: s, to };
  }
  let e = to;
  while (e < src.length && src[e] === ' ') e++;
  if (src[e] === ',') e++;
  while (e < src.length && src[e] === ' ') e++;
  return { from, to: e };
}
