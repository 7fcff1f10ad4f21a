// The variable-key rule apart from the analysis: validation runs it on facts (also kept ones, see
// node/analysisCache.ts) without loading the parser.
import { closest } from '../similar';
import type { ProblemOf, PythonFacts } from './types';

/**
 * `unknown-variable-key` for every literal key that names no declared variable. `data` is
 * `{ name, candidates }`: the closest declared names, best first (for "did you mean" fixes), and the
 * key itself (for an "add variable" fix).
 */
export function checkVariableKeys(
  facts: Pick<PythonFacts, 'keys'>,
  declaredNames: readonly string[],
): ProblemOf<'unknown-variable-key'>[] {
  const declared = new Set(declaredNames);
  const out: ProblemOf<'unknown-variable-key'>[] = [];
  for (const k of facts.keys) {
    if (declared.has(k.name)) continue;
    const candidates = closest(k.name, declared);
    out.push({
      code: 'unknown-variable-key',
      start: k.start,
      end: k.end,
      message: `No variable is named "${k.name}"${candidates.length ? `; did you mean "${candidates[0]}"?` : '.'} Keys of "variables" are the names of the tool's variables.`,
      data: { name: k.name, candidates },
    });
  }
  return out;
}
