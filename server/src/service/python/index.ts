// Embedded-Python analysis of a smart tool's `metadata.tool_code`: a pure module (no LSP types) that
// works on the decoded Python source; offsets are UTF-16 offsets into that string.
//
//   const doc = new PythonDocument();          // one per open definition file; keeps the tree
//   const facts = doc.update(toolCode);        // incremental re-parse + analysis
//   facts.problems                             // python-syntax, missing-execute, execute-*, hardcoded-secret
//
// The checks validation runs on facts, which need no parser, are modules of their own that the server
// bundle holds (not this lazily loaded one): checkVariableKeys (variableKeyCheck.ts) and
// checkRequirements (requirements.ts, with stdlib.ts and distributions.ts).
//
// The parser is lezer (a fork of @lezer/python's grammar, see grammar/python.grammar): synchronous,
// no initialisation.
import { PythonDocument } from './document';
import type { PyProblem, PythonFacts } from './types';

export type {
  PyProblem,
  PyProblemCode,
  ProblemOf,
  VariableKeyRef,
  ImportRef,
  FunctionInfo,
  PythonFacts,
} from './types';
export { PythonDocument, diffRange } from './document';
export { redact } from './secrets';
export { secretReferences, secretNames, type SecretRef } from './secretRefs';

/** One-shot analysis of a source (no incremental state). */
export function analyzePython(source: string): PythonFacts {
  return new PythonDocument().update(source);
}

/**
 * The python-syntax problem CPython would report for the whole module (it reports exactly one). The
 * parser stops at the first error; for an unexpected indent it reports that, for a tokenizer error
 * that; for any other parser error it first tokenizes the rest of the file and reports the first
 * tokenizer error found there instead, if any. Compiler errors come only from a module that parses.
 */
export function firstCPythonError(problems: readonly PyProblem[]): PyProblem | undefined {
  const syntax = problems.filter((p) => p.code === 'python-syntax');
  const stage = (p: PyProblem) => (p.code === 'python-syntax' ? p.data.stage : undefined);
  const first = syntax.find((p) => stage(p) !== 'compiler' && stage(p) !== 'symtable');
  if (!first) return syntax.find((p) => stage(p) === 'symtable') ?? syntax[0];
  if (stage(first) === 'tokenizer' || stage(first) === 'indent') return first;
  return syntax.find((p) => stage(p) === 'tokenizer') ?? first;
}

/**
 * The key being typed at `offset` for completion: inside the quotes of `variables["…`,
 * `variables.get("…` (also `.pop`/`.setdefault`) or `"…" in variables`, even while the string is
 * still unterminated. Returns the key's current characters (`start`..`end`, the whole key when the
 * cursor is in its middle) and the quote, or undefined.
 */
export function variableKeyAt(
  source: string,
  offset: number,
): { start: number; end: number; quote: string; prefix: string } | undefined {
  let lineStart = offset;
  while (lineStart > 0 && source[lineStart - 1] !== '\n' && source[lineStart - 1] !== '\r') lineStart--;
  const before = source.slice(lineStart, offset);
  const m =
    /\bvariables\s*(?:\[\s*|\.\s*(?:get|pop|setdefault)\s*\(\s*)([rRuU]?)("|')([^"'\\\r\n]*)$/.exec(before) ??
    /(?:^|[^\w"'])([rRuU]?)("|')([^"'\\\r\n]*)$/.exec(before);
  if (!m) return undefined;
  const quote = m[2];
  const start = offset - m[3].length;
  let end = offset;
  while (end < source.length && !/["'\\\r\n]/.test(source[end])) end++;
  if (!/\bvariables\s*[[.]/.test(m[0])) {
    // `"…" in variables`: only when the string is followed by `in variables`.
    const after = source.slice(end, end + 40);
    if (!new RegExp(`^${quote}\\s+(?:not\\s+)?in\\s+variables\\b`).test(after)) return undefined;
  }
  return { start, end, quote, prefix: m[3] };
}

/** Hard-coded credentials in a source (the same problems `update()` reports, on their own). */
export function findSecrets(source: string): PyProblem[] {
  return analyzePython(source).problems.filter((p) => p.code === 'hardcoded-secret');
}
