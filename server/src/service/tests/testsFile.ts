// A tests file (`<name>.tests.json`, beside `<name>.json`): saved cases of a tool with what their output
// must be. Read here into cases and problems with exact ranges, for the language server and the CLI alike.
import { getNodeValue } from 'jsonc-parser';
import { child } from '../json/nodes';
import type { JsonNode, ParsedJson } from '../json/tree';
import type { RuleCode } from '../rules';
import { goldenFileName } from './paths';

/** The keys `expect` may combine, as schemas/tool-tests.schema.json lists them. */
export const EXPECT_KEYS = [
  'equals',
  'contains',
  'not_contains',
  'matches',
  'json',
  'golden',
  'error',
  'max_seconds',
  'max_memory_mb',
] as const;
export type ExpectKey = (typeof EXPECT_KEYS)[number];

/** `error` values that name a limit rather than an exception type. */
export const LIMIT_ERRORS = ['timeout', 'memory'] as const;

export interface Expectations {
  readonly equals?: string;
  readonly contains?: readonly string[];
  readonly not_contains?: readonly string[];
  /** A JavaScript regular expression (Unicode), searched for anywhere in the output. */
  readonly matches?: string;
  /** A JSON schema the output, parsed as JSON, must satisfy. */
  readonly json?: unknown;
  readonly golden?: boolean;
  /** The exception type the run must fail with, or `timeout` / `memory`. */
  readonly error?: string;
  readonly max_seconds?: number;
  readonly max_memory_mb?: number;
}

export type InputValue = string | readonly string[];

export interface TestCase {
  readonly name: string;
  readonly index: number;
  /** The case's object in the tests file. */
  readonly node: JsonNode;
  readonly nameNode: JsonNode;
  /** Given inputs, in file order; the property node of each. */
  readonly inputs: ReadonlyMap<string, { readonly value: InputValue; readonly property: JsonNode }>;
  readonly expect: Expectations;
  /** The `expect` object (absent: only "the run succeeds"). */
  readonly expectNode?: JsonNode;
}

export interface TestsProblem {
  readonly code: RuleCode;
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

export interface TestsFile {
  readonly cases: readonly TestCase[];
  readonly problems: readonly TestsProblem[];
}

/** The `.txt` files of a golden folder that no golden case owns, sorted. */
export function orphanGoldenNames(cases: readonly TestCase[], fileNames: readonly string[]): string[] {
  const owned = new Set(cases.filter((c) => c.expect.golden).map((c) => goldenFileName(c.name)));
  return fileNames.filter((n) => n.endsWith('.txt') && !owned.has(n)).sort();
}

/** What to do about an approved output no case owns (`folder`: the golden folder as shown). */
export function orphanGoldenMessage(folder: string, name: string): string {
  return `No golden case of ${folder} owns ${name}: delete it, or name a case after it.`;
}

type Report = (code: RuleCode, node: JsonNode, message: string) => void;

/** The cases of a parsed tests file and what is wrong with its shape. */
export function readTestsFile(parsed: ParsedJson): TestsFile {
  const problems: TestsProblem[] = [];
  const report: Report = (code, node, message) =>
    problems.push({ code, offset: node.offset, length: node.length, message });
  const root = parsed.root;
  if (parsed.syntaxErrors.length || !root) return { cases: [], problems };
  if (root.type !== 'object') {
    report('tests-shape', root, 'A tests file is an object: { "tests": [ { "name", "inputs", "expect" } ] }.');
    return { cases: [], problems };
  }
  for (const prop of root.children ?? []) {
    const key = String(prop.children?.[0]?.value);
    if (key !== 'tests' && key !== '$schema')
      report('tests-shape', prop.children![0], `Unknown key "${key}": a tests file holds "tests" (and "$schema").`);
  }
  const tests = child(root, 'tests');
  if (!tests) {
    report('tests-shape', root, 'Add "tests": an array of cases, each { "name", "inputs", "expect" }.');
    return { cases: [], problems };
  }
  if (tests.type !== 'array') {
    report('tests-shape', tests, '"tests" must be an array of cases.');
    return { cases: [], problems };
  }
  const cases: TestCase[] = [];
  const byGoldenFile = new Map<string, string>();
  for (const [index, node] of (tests.children ?? []).entries()) {
    const c = readCase(node, index, report);
    if (!c) continue;
    cases.push(c);
    const file = goldenFileName(c.name);
    const first = byGoldenFile.get(file);
    if (first === undefined) byGoldenFile.set(file, c.name);
    else
      report(
        'tests-duplicate-name',
        c.nameNode,
        first === c.name
          ? `Another case is named "${c.name}": give each case its own name.`
          : `"${c.name}" and "${first}" share the approved-output file ${file}: rename one.`,
      );
  }
  return { cases, problems };
}

const CASE_KEYS = new Set(['name', 'inputs', 'expect', 'description']);

function readCase(node: JsonNode, index: number, report: Report): TestCase | undefined {
  if (node.type !== 'object') {
    report('tests-shape', node, 'A case is an object: { "name", "inputs", "expect" }.');
    return undefined;
  }
  for (const prop of node.children ?? []) {
    const key = String(prop.children?.[0]?.value);
    if (!CASE_KEYS.has(key))
      report('tests-shape', prop.children![0], `Unknown key "${key}" in a case: use "name", "inputs" and "expect".`);
  }
  const nameNode = child(node, 'name');
  if (nameNode?.type !== 'string' || !(nameNode.value as string).trim()) {
    report('tests-shape', nameNode ?? node, 'Give the case a "name": a non-empty string, unique in the file.');
    return undefined;
  }
  const inputs = new Map<string, { value: InputValue; property: JsonNode }>();
  const inputsNode = child(node, 'inputs');
  if (inputsNode && inputsNode.type !== 'object')
    report('tests-shape', inputsNode, '"inputs" must be an object: { "variable name": "value" }.');
  for (const prop of inputsNode?.type === 'object' ? (inputsNode.children ?? []) : []) {
    const [keyNode, valueNode] = prop.children ?? [];
    if (!keyNode || !valueNode) continue;
    const value = inputValue(valueNode);
    if (value === undefined)
      report('tests-shape', valueNode, 'An input is a string (an array of strings for a multi-select variable).');
    else inputs.set(String(keyNode.value), { value, property: prop });
  }
  const expectNode = child(node, 'expect');
  const expect = expectNode ? readExpect(expectNode, report) : {};
  return { name: nameNode.value as string, index, node, nameNode, inputs, expect, expectNode };
}

function inputValue(node: JsonNode): InputValue | undefined {
  if (node.type === 'string') return node.value as string;
  if (node.type === 'array' && (node.children ?? []).every((c) => c.type === 'string'))
    return (node.children ?? []).map((c) => c.value as string);
  return undefined;
}

function readExpect(node: JsonNode, report: Report): Expectations {
  if (node.type !== 'object') {
    report('tests-shape', node, `"expect" must be an object with any of ${EXPECT_KEYS.join(', ')}.`);
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const prop of node.children ?? []) {
    const [keyNode, value] = prop.children ?? [];
    if (!keyNode || !value) continue;
    const key = String(keyNode.value);
    if (!(EXPECT_KEYS as readonly string[]).includes(key)) {
      report('tests-shape', keyNode, `Unknown expectation "${key}": use ${EXPECT_KEYS.join(', ')}.`);
      continue;
    }
    const read = readExpectation(key as ExpectKey, value, report);
    if (read !== undefined) out[key] = read;
  }
  return out as Expectations;
}

function readExpectation(key: ExpectKey, value: JsonNode, report: Report): unknown {
  const wrong = (what: string): undefined => {
    report('tests-shape', value, `"${key}" must be ${what}.`);
    return undefined;
  };
  switch (key) {
    case 'equals':
      return value.type === 'string' ? value.value : wrong('a string: the whole output');
    case 'contains':
    case 'not_contains': {
      const list = inputValue(value);
      return Array.isArray(list) ? list : wrong('an array of strings');
    }
    case 'matches': {
      if (value.type !== 'string') return wrong('a string: a regular expression');
      const problem = regexProblem(value.value as string);
      if (problem) {
        report('tests-invalid-regex', value, `Not a valid regular expression: ${problem}. Fix the pattern.`);
        return undefined;
      }
      return value.value;
    }
    case 'json': {
      if (value.type !== 'object' && value.type !== 'boolean')
        return wrong('a JSON schema (an object, or true / false)');
      return getNodeValue(value);
    }
    case 'golden':
      return value.type === 'boolean' ? value.value : wrong('true or false');
    case 'error':
      return value.type === 'string' && (value.value as string).trim()
        ? value.value
        : wrong('an exception type such as "ValueError", or "timeout" or "memory"');
    case 'max_seconds':
    case 'max_memory_mb':
      return value.type === 'number' && (value.value as number) > 0 ? value.value : wrong('a positive number');
  }
}

/** Why `pattern` is not a valid (Unicode) regular expression, or undefined. */
export function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (e) {
    return (e instanceof Error ? e.message : String(e)).replace(/^Invalid regular expression: /, '');
  }
}
