// In-process, the embedded-Python analysis alone (no LSP): the large smart tool's tool_code, and
// one with a long string of escapes (a quadratic there once took 3.2 s on 20,000 of them).
import { analyzePython } from '../../server/src/service/python/index';
import type { BenchFile } from './fixtures';
import { compare, type Compared } from './stats';

export interface PythonResult {
  /** The large smart tool's tool_code (≈5,300 lines), analysed from scratch each time. */
  readonly largeSmart: Compared;
  readonly largeSmartChars: number;
  /** One string literal of 20,000 `\n` escapes (80 KB of source). */
  readonly escapes: Compared;
}

export const ESCAPES = 20_000;

export async function runPythonBench(files: readonly BenchFile[]): Promise<PythonResult> {
  const large = files.find((f) => f.id === 'large-smart')!;
  const source = (JSON.parse(large.text) as { metadata: { tool_code: string } }).metadata.tool_code;
  const escapes = `def execute(variables):\n    text = "${'\\n'.repeat(ESCAPES)}"\n    return text\n`;
  const options = { warmup: 3, perRound: 3, minRounds: 6, maxRounds: 20, budgetMs: 4000 };
  const r = await compare({ large: () => analyzePython(source), escapes: () => analyzePython(escapes) }, options);
  return { largeSmart: r.large, largeSmartChars: source.length, escapes: r.escapes };
}
