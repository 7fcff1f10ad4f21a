import { promises as fs } from 'node:fs';
import { join } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.venv', 'venv', '__pycache__']);

export interface Target {
  readonly path: string;
  /** Named on the command line (checked whatever it holds), rather than found in a directory. */
  readonly explicit: boolean;
}

/** Expands the command line's paths: files as given, directories searched for `.json` files. */
export async function discover(paths: readonly string[]): Promise<{ targets: Target[]; unreadable: string[] }> {
  const targets: Target[] = [];
  const unreadable: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory() && !SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(p);
      else if (e.isFile() && e.name.endsWith('.json')) targets.push({ path: p, explicit: false });
    }
  };
  for (const p of paths) {
    try {
      const stat = await fs.stat(p);
      if (stat.isDirectory()) await walk(p);
      else targets.push({ path: p, explicit: true });
    } catch {
      unreadable.push(p);
    }
  }
  return { targets, unreadable };
}
