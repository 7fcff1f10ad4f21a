// Credentials written into tool_code as string literals (hardcoded-secret).
import type { SyntaxNode } from '@lezer/common';
import type { RelProblem } from './chunkFacts';
import { secretInAssignment, secretInString, type SecretHit } from './secrets';
import { plainString, stringValue, type Chunk } from './syntaxNodes';

/** A string literal that looks like a credential by its content (a key's prefix and shape). */
export function literalSecret(chunk: Chunk, node: SyntaxNode): RelProblem | undefined {
  if (node.to - node.from < 12) return undefined;
  const v = stringValue(node, chunk.src);
  const hit = v === undefined ? undefined : secretInString(v);
  return hit && secretProblem(chunk, node, hit);
}

/** A string assigned to a name that says it holds a secret (`api_key = "…"`, `cfg["token"] = "…"`). */
export function assignedSecret(chunk: Chunk, target: SyntaxNode, value: SyntaxNode): RelProblem | undefined {
  let name: string | undefined;
  if (target.name === 'VariableName') name = chunk.text(target);
  else if (target.name === 'MemberExpression') {
    const last = target.lastChild;
    if (last?.name === 'PropertyName') name = chunk.text(last);
    else if (last?.name === ']') {
      const k = last.prevSibling && plainString(last.prevSibling, chunk.src);
      if (k) name = k.value;
    }
  }
  return name ? keywordSecret(chunk, name, value) : undefined;
}

/** A string given to a keyword or key that says it holds a secret (`f(password="…")`, `{"token": "…"}`). */
export function keywordSecret(chunk: Chunk, name: string, value: SyntaxNode): RelProblem | undefined {
  if (value.name !== 'String') return undefined;
  const v = stringValue(value, chunk.src);
  if (v === undefined || secretInString(v)) return undefined; // the latter reported by literalSecret
  const hit = secretInAssignment(name, v);
  return hit && secretProblem(chunk, value, hit);
}

function secretProblem(chunk: Chunk, node: SyntaxNode, hit: SecretHit): RelProblem {
  return {
    code: 'hardcoded-secret',
    start: chunk.rel(node.from),
    end: chunk.rel(node.to),
    message: `${hit.what} hard-coded in tool_code (${hit.redacted}). Replace it with a secret reference such as "<API_KEY>": its value is then supplied at run time (VS Code's secret storage, or TOOLDEF_SECRET_API_KEY for the CLI) and never kept in the file.`,
    data: { kind: hit.kind },
  };
}
