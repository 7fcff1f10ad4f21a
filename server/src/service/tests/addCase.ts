// A case added to a tests file from a run (Save as Test Case): its inputs, and its output approved as a
// golden file by the client. The edit keeps the file's layout; a missing file gets its whole text.
import type { OffsetEdit } from '../json/edits';
import { appendMember, indentUnit } from '../json/edits';
import { child } from '../json/nodes';
import type { ParsedJson } from '../json/tree';
import { goldenFileName } from './paths';
import { readTestsFile, type InputValue } from './testsFile';

export interface NewCase {
  readonly name: string;
  readonly inputs: Readonly<Record<string, InputValue>>;
}

export type AddCaseResult =
  | {
      readonly edit: OffsetEdit;
      /** The case's name, made unique in the file (`name (2)` …). */
      readonly name: string;
    }
  | { readonly error: string };

/** The edit that appends a golden case to the tests file's `tests` (`text` empty: the file is new). */
export function addTestCase(text: string, json: ParsedJson, c: NewCase): AddCaseResult {
  const unit = indentUnit(text);
  if (!text.trim()) {
    const body = caseText(c.name, c.inputs, unit).replace(/\n/g, `\n${unit}${unit}`);
    return {
      edit: { offset: 0, length: text.length, newText: `{\n${unit}"tests": [\n${unit}${unit}${body}\n${unit}]\n}\n` },
      name: c.name,
    };
  }
  const root = json.root;
  if (json.syntaxErrors.length || root?.type !== 'object')
    return { error: 'The tests file is not a valid JSON object: fix it, then save the case again.' };
  const taken = new Set(readTestsFile(json).cases.map((t) => goldenFileName(t.name)));
  let name = c.name;
  for (let i = 2; taken.has(goldenFileName(name)); i++) name = `${c.name} (${i})`;
  const tests = child(root, 'tests');
  const item = caseText(name, c.inputs, unit);
  if (!tests)
    return { edit: appendMember(text, root, 'tests', `[\n${unit}${item.replace(/\n/g, `\n${unit}`)}\n]`), name };
  if (tests.type !== 'array') return { error: '"tests" is not an array: fix it, then save the case again.' };
  return { edit: appendMember(text, tests, undefined, item), name };
}

function caseText(name: string, inputs: Readonly<Record<string, InputValue>>, unit: string): string {
  const json = (v: InputValue): string =>
    typeof v === 'string' ? JSON.stringify(v) : `[${v.map((e) => JSON.stringify(e)).join(', ')}]`;
  const given = Object.entries(inputs).map(([k, v]) => `${JSON.stringify(k)}: ${json(v)}`);
  return [
    '{',
    `${unit}"name": ${JSON.stringify(name)},`,
    `${unit}"inputs": ${given.length ? `{ ${given.join(', ')} }` : '{}'},`,
    `${unit}"expect": { "golden": true }`,
    '}',
  ].join('\n');
}
