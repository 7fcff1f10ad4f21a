import { promises as fs } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { child } from '../service/json/nodes';
import type { LanguageService, ModelCache } from '../service/languageService';
import { runInSlices } from './slices';

/** What is kept for files not open is bounded: at most this many files … */
const MAX_FILES = 8;
/**
 * … holding at most this much tool_code in all: a 5,000-line tool_code is about 200,000 characters,
 * and its analysis (syntax tree, facts per statement) keeps 7-15 MB of the server's memory.
 */
const MAX_CODE_CHARS = 600_000;

/**
 * Analyses the embedded Python of smart tools on disk while the server is idle, in slices like any
 * analysis, and keeps the results in the model cache: opening one of those files then shows its
 * diagnostics at once instead of after a whole parse (100-200 ms for a 5,000-line tool_code). A file
 * opened meanwhile is skipped, or abandoned half-way: its document's own analysis takes over.
 * `uris` in order of preference (most recently modified first).
 */
export async function analyseAhead(
  uris: readonly string[],
  service: LanguageService,
  cache: ModelCache,
  isOpen: (uri: string) => boolean,
): Promise<{ files: number; lines: number }> {
  let files = 0;
  let chars = 0;
  let lines = 0;
  for (const uri of uris) {
    if (files >= MAX_FILES) break;
    if (isOpen(uri)) continue;
    let text: string;
    try {
      text = await fs.readFile(fileURLToPath(uri), 'utf8');
    } catch {
      continue; // gone since the scan
    }
    const model = service.parse(TextDocument.create(uri, 'tooldef', 0, text));
    const code = child(model.metadata, 'tool_code');
    if (model.kind !== 'smart' || code?.type !== 'string' || chars + code.length > MAX_CODE_CHARS) continue;
    const steps = model.pythonSteps();
    if (steps && !(await runInSlices(steps, () => isOpen(uri), 'background'))) continue;
    if (isOpen(uri)) continue;
    cache.prepare(model);
    files++;
    chars += code.length;
    lines += lineCount(model.python?.embedded.text ?? '');
  }
  return { files, lines };
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
