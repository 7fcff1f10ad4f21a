// Python analyses kept across sessions, in the extension's storage ($TOOLDEF_ANALYSIS_CACHE): a
// smart tool opened again, in a new window, shows its complete diagnostics from here at once instead
// of after a cold parse (issue 17). An entry is named for the hash of the analysed source, in a folder
// named for the analyser's build, so that no build ever reads another's facts; it is written to a
// temporary name and renamed, so that servers side by side never read half a file. The folder is
// bounded (the least recently used entries go first) and every failure is a miss.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { AnalysisCache } from '../lsp/runtime';
import type { PythonFacts } from '../service/python/types';

/** Below this many characters an analysis takes a few milliseconds: not worth a file. */
export const MIN_KEPT_LENGTH = 20_000;
const MAX_ENTRIES = 100;
const MAX_BYTES = 50 * 1024 * 1024;

/** The cache in `dir` for the analyser whose build `analyser` tells (asked on first use). */
export function analysisCache(dir: string, analyser: () => string): AnalysisCache {
  let folderMemo: string | undefined;
  const folder = () => (folderMemo ??= join(dir, hash(analyser()).slice(0, 16)));
  const file = (text: string) => join(folder(), `${hash(text)}.json`);
  let tidied = false;
  return {
    get(text) {
      if (text.length < MIN_KEPT_LENGTH) return undefined;
      const path = file(text);
      let facts: unknown;
      try {
        facts = JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        facts = undefined;
      }
      if (!isFacts(facts)) {
        forget(path); // none, or damaged: the next analysis writes it anew
        return undefined;
      }
      try {
        const now = new Date();
        utimesSync(path, now, now); // recently used: kept longest
      } catch {
        // still a hit
      }
      return facts;
    },
    put(text, facts) {
      if (text.length < MIN_KEPT_LENGTH) return;
      try {
        const path = file(text);
        if (existsSync(path)) return;
        mkdirSync(folder(), { recursive: true });
        const temporary = `${path}.${process.pid}.tmp`;
        writeFileSync(temporary, JSON.stringify(facts));
        renameSync(temporary, path);
        if (!tidied) {
          tidied = true;
          // Other builds' analyses are never read again.
          for (const name of readdirSync(dir))
            if (join(dir, name) !== folder()) rmSync(join(dir, name), { recursive: true, force: true });
        }
        bound(folder());
      } catch {
        // an optimisation: the next analysis tries again
      }
    },
  };
}

/** Drops the least recently used entries beyond MAX_ENTRIES or MAX_BYTES. */
function bound(folder: string): void {
  const entries = readdirSync(folder)
    .map((name) => {
      const s = statSync(join(folder, name));
      return { name, size: s.size, used: s.mtimeMs };
    })
    .sort((a, b) => b.used - a.used);
  let bytes = 0;
  entries.forEach((e, i) => {
    bytes += e.size;
    if (i >= MAX_ENTRIES || bytes > MAX_BYTES) rmSync(join(folder, e.name), { force: true });
  });
}

function forget(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // read-only storage: a miss each time
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The shape of PythonFacts, enough that a damaged entry is a miss rather than a crash. */
function isFacts(v: unknown): v is PythonFacts {
  const f = v as Partial<PythonFacts> | null;
  return (
    !!f &&
    Array.isArray(f.problems) &&
    Array.isArray(f.keys) &&
    Array.isArray(f.imports) &&
    Array.isArray(f.functions) &&
    typeof f.dynamicVariables === 'boolean'
  );
}
