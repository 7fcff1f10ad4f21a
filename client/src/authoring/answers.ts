/** Turning the New Smart Tool / New LLM Tool wizard's answers into a file name and a variable list. */

import { sanitizeFileName } from '../../../server/src/engine/upload';

/** A file name for a tool: `<name>.json` as an upload names it (characters file systems refuse replaced). */
export function fileNameFor(name: string): string {
  return `${sanitizeFileName(name)}.json`;
}

/** Variable names from a comma-separated answer, trimmed, empty and repeated ones dropped. */
export function parseVariableList(answer: string): string[] {
  return [
    ...new Set(
      answer
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
