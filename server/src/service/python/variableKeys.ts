// How `tool_code` reads its `variables`: the keys it names, or a use the analysis cannot follow.
import type { SyntaxNode } from '@lezer/common';
import type { RelKey } from './chunkFacts';
import { plainString, type Chunk } from './syntaxNodes';

/**
 * A use of the name `variables`: a key read with a literal (`variables["x"]`, `.get("x")`,
 * `"x" in variables`), the parameter itself, or anything else (`dynamic`: keys cannot be checked).
 */
export type VariablesUse = RelKey | 'parameter' | 'dynamic';

export function variablesUse(chunk: Chunk, node: SyntaxNode): VariablesUse {
  const parent = node.parent;
  if (!parent) return 'dynamic';
  // variables["x"]
  if (parent.name === 'MemberExpression' && parent.firstChild?.from === node.from) {
    const next = node.nextSibling;
    if (next?.name === '[') {
      const key = next.nextSibling;
      const s = key && plainString(key, chunk.src);
      if (s && key!.nextSibling?.name === ']') return keyRef(chunk, s);
      return 'dynamic';
    }
    if (next?.name === '.') {
      const prop = next.nextSibling;
      const call = parent.parent;
      if (prop && call?.name === 'CallExpression' && call.firstChild?.from === parent.from) {
        const method = chunk.text(prop);
        if (method === 'get' || method === 'pop' || method === 'setdefault') {
          const args = call.lastChild;
          const first = args?.name === 'ArgList' ? args.firstChild?.nextSibling : undefined;
          const s = first && plainString(first, chunk.src);
          const afterFirst = first?.nextSibling;
          if (s && (afterFirst?.name === ',' || afterFirst?.name === ')')) return keyRef(chunk, s);
        }
      }
      return 'dynamic';
    }
  }
  // "x" in variables / "x" not in variables
  if (parent.name === 'BinaryExpression' && parent.lastChild?.from === node.from) {
    const op = node.prevSibling;
    const left = parent.firstChild;
    if (op?.name === 'in' && left) {
      const s = plainString(left, chunk.src);
      if (
        s &&
        (left.nextSibling?.name === 'in' ||
          (left.nextSibling?.name === 'not' && left.nextSibling.nextSibling?.name === 'in'))
      )
        return keyRef(chunk, s);
    }
  }
  // The parameter itself.
  if (parent.name === 'ParamList') return 'parameter';
  return 'dynamic';
}

function keyRef(chunk: Chunk, s: { value: string; start: number; end: number; quote: string }): RelKey {
  return { name: s.value, start: chunk.rel(s.start), end: chunk.rel(s.end), quote: s.quote };
}
