import { promises as fs } from 'node:fs';
import { jsonFilesUnder } from '../workspace/jsonFiles';

export interface Target {
  readonly path: string;
  /** Named on the command line (checked whatever it holds), rather than found in a directory. */
  readonly explicit: boolean;
}

/** Expands the command line's paths: files as given, directories searched for `.json` files. */
export async function discover(paths: readonly string[]): Promise<{ targets: Target[]; unreadable: string[] }> {
  const targets: Target[] = [];
  const unreadable: string[] = [];
  for (const p of paths) {
    try {
      const stat = await fs.stat(p);
      if (!stat.isDirectory()) targets.push({ path: p, explicit: true });
      else
        for await (const path of jsonFilesUnder(p, (dir) => unreadable.push(dir)))
          targets.push({ path, explicit: false });
    } catch {
      unreadable.push(p);
    }
  }
  return { targets, unreadable };
}
