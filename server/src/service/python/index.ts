// Embedded-Python analysis of a smart tool's `metadata.tool_code`: a pure module (no LSP types) that
// works on the decoded Python source; offsets are UTF-16 offsets into that string.
//
//   const doc = new PythonDocument();          // one per open definition file; keeps the tree
//   const facts = doc.update(toolCode);        // incremental re-parse + analysis
//   facts.problems                             // python-syntax, missing-execute, execute-*, hardcoded-secret
//   checkVariableKeys(facts, declaredNames)    // unknown-variable-key (+ did-you-mean data)
//   checkRequirements(requirementsText, facts.imports)  // requirement rules, see requirements.ts
//
// The parser is lezer (a fork of @lezer/python's grammar, see grammar/python.grammar) and needs no
// initialisation; `initPython()` exists so that callers can treat it like a parser that does.
import { closest } from '../similar';
import { PythonDocument } from './document';
import type { PyProblem, PythonFacts } from './types';

export type { PyProblem, PyProblemCode, VariableKeyRef, ImportRef, FunctionInfo, PythonFacts } from './types';
export { PythonDocument, diffRange } from './document';
export { checkRequirements, parseRequirements, parseRequirement, type Requirement, type RequirementProblem } from './requirements';
export { isStdlib } from './stdlib';
export { distributionsFor, normalizeName } from './distributions';
export { redact } from './secrets';

/** Resolves at once: the parser is synchronous JavaScript. Kept for callers written against an async parser. */
export async function initPython(): Promise<void> {}

/** Always true (see initPython). */
export function pythonReady(): boolean {
  return true;
}

/** One-shot analysis of a source (no incremental state). */
export function analyzePython(source: string): PythonFacts {
  return new PythonDocument().update(source);
}

/**
 * `unknown-variable-key` for every literal key that names no declared variable. `data` is
 * `{ name, candidates }`: the closest declared names, best first (for "did you mean" fixes), and the
 * key itself (for an "add variable" fix).
 */
export function checkVariableKeys(facts: Pick<PythonFacts, 'keys'>, declaredNames: readonly string[]): PyProblem[] {
  const declared = new Set(declaredNames);
  const out: PyProblem[] = [];
  for (const k of facts.keys) {
    if (declared.has(k.name)) continue;
    const candidates = closest(k.name, declared);
    out.push({
      code: 'unknown-variable-key',
      start: k.start,
      end: k.end,
      message: `No variable is named \`${k.name}\`${candidates.length ? `; did you mean \`${candidates[0]}\`?` : '.'} Keys of \`variables\` are the names of the tool's variables.`,
      data: { name: k.name, candidates },
    });
  }
  return out;
}

/** Hard-coded credentials in a source (the same problems `update()` reports, on their own). */
export function findSecrets(source: string): PyProblem[] {
  return analyzePython(source).problems.filter((p) => p.code === 'hardcoded-secret');
}
