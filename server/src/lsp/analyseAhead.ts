import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageService, ModelCache } from '../service/languageService';
import { lineCount } from '../service/positions';
import { runInSlices } from './slices';

/**
 * Analyses the embedded Python of smart tools on disk while the server is idle, in slices like any
 * analysis, and keeps the results in the model cache: opening one of those files then shows its
 * diagnostics at once instead of after a whole parse (100-200 ms for a 5,000-line tool_code). A file
 * opened meanwhile is skipped, or abandoned half-way: its document's own analysis takes over.
 * `uris` in order of preference (most recently modified first). A file kept already is analysed
 * again only if it changed on disk, re-parsing what differs (its syntax tree is reused).
 */
export async function analyseAhead(
  uris: readonly string[],
  service: LanguageService,
  cache: ModelCache,
  isOpen: (uri: string) => boolean,
  readFile: (uri: string) => Promise<string>,
): Promise<{ files: number; lines: number }> {
  let files = 0;
  let lines = 0;
  for (const uri of uris) {
    if (isOpen(uri)) continue;
    let text: string;
    try {
      text = await readFile(uri);
    } catch {
      continue; // gone since the scan
    }
    const kept = cache.keptModel(uri);
    if (kept?.text === text) continue;
    // Newest first, while the cache keeps them all: analysing more would only let go of newer ones.
    // A file kept already takes its own place.
    if (!kept && !cache.hasRoomFor(text.length)) {
      if (!cache.hasRoomFor(0)) break;
      continue; // too large for what is left
    }
    const model = service.parse(TextDocument.create(uri, 'tooldef', 0, text), undefined, kept);
    if (!model.pythonNode) continue;
    const steps = model.pythonSteps();
    if (steps && !(await runInSlices(steps, () => isOpen(uri), 'background'))) continue;
    if (isOpen(uri)) continue;
    cache.prepare(model);
    files++;
    lines += lineCount(model.python?.embedded.text ?? '');
  }
  return { files, lines };
}
