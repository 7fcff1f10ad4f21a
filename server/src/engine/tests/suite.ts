// A definition with its tests file, read from disk and checked before anything runs.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { child } from '../../service/json/nodes';
import { compileSchema, type CompiledSchema } from '../../service/jsonSchema';
import { parseJson } from '../../service/json/tree';
import { getLanguageService } from '../../service/languageService';
import { RULES, type RuleCode, type Severity } from '../../service/rules';
import { checkCasesAgainst } from '../../service/tests/againstDefinition';
import { definitionPathFor, goldenDirFor } from '../../service/tests/paths';
import { orphanGoldenMessage, orphanGoldenNames, readTestsFile, type TestCase } from '../../service/tests/testsFile';
import { checkOutput } from '../llm';
import { suiteToolOf, type SuiteTool } from './tool';

export type { SuiteTool };

export interface SuiteProblem {
  readonly file: string;
  readonly code: RuleCode;
  readonly severity: Severity;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

export interface Suite {
  readonly definitionPath: string;
  readonly testsPath: string;
  readonly goldenDir: string;
  /** Absent when the definition cannot run (its problems say why). */
  readonly tool?: SuiteTool;
  readonly cases: readonly TestCase[];
  readonly problems: readonly SuiteProblem[];
  /** The errors of a parsed output against the case's `json` schema (empty: it fits). */
  validateJson(c: TestCase, value: unknown): string[];
  checkOutput: typeof checkOutput;
}

/** Whether the suite cannot run: a problem of error severity in either file. */
export function isInvalid(suite: Suite): boolean {
  return !suite.tool || suite.problems.some((p) => p.severity === 'error');
}

/** Reads `<name>.tests.json` and the definition beside it. Never throws: what is wrong is a problem. */
export async function loadSuite(testsPath: string): Promise<Suite> {
  const definitionPath = definitionPathFor(testsPath);
  const goldenDir = goldenDirFor(definitionPath);
  const problems: SuiteProblem[] = [];
  const testsText = await readText(testsPath);
  const testsDoc = TextDocument.create(pathToFileURL(testsPath).toString(), 'json', 1, testsText ?? '');
  const schemas = new Map<number, CompiledSchema>();
  const validateJson = (c: TestCase, value: unknown): string[] => {
    const schema = schemas.get(c.index);
    return schema && 'errors' in schema ? schema.errors(value) : [];
  };
  const empty = { definitionPath, testsPath, goldenDir, cases: [], problems, validateJson, checkOutput };
  if (testsText === undefined) {
    problems.push(problemAt(testsPath, 'tests-shape', 1, 1, 'The tests file cannot be read.'));
    return empty;
  }
  const at = (code: RuleCode, offset: number, message: string): SuiteProblem => {
    const pos = testsDoc.positionAt(offset);
    return problemAt(testsPath, code, pos.line + 1, pos.character + 1, message);
  };
  const parsed = parseJson(testsText);
  for (const e of parsed.syntaxErrors) problems.push(at('json-syntax', e.offset, `${e.message}.`));
  const file = readTestsFile(parsed);
  for (const p of file.problems) problems.push(at(p.code, p.offset, p.message));

  const definitionText = await readText(definitionPath);
  if (definitionText === undefined) {
    problems.push(
      problemAt(
        testsPath,
        'tests-no-definition',
        1,
        1,
        `No definition ${basename(definitionPath)} beside this tests file.`,
      ),
    );
    return { ...empty, cases: file.cases };
  }
  const model = getLanguageService().parse(
    TextDocument.create(pathToFileURL(definitionPath).toString(), 'json', 1, definitionText),
  );
  const runnable = suiteToolOf(model);
  const tool = 'tool' in runnable ? runnable.tool : undefined;
  if ('problems' in runnable)
    for (const p of runnable.problems) problems.push(problemAt(definitionPath, 'tests-no-definition', 1, 1, p));
  for (const p of checkCasesAgainst(file.cases, model)) problems.push(at(p.code, p.offset, p.message));

  for (const c of file.cases) {
    if (c.expect.json === undefined) continue;
    const schema = compileSchema(c.expect.json);
    schemas.set(c.index, schema);
    if ('error' in schema)
      problems.push(at('tests-invalid-schema', (child(c.expectNode, 'json') ?? c.node).offset, schema.error));
  }
  problems.push(...(await orphanGoldenFiles(goldenDir, file.cases)));
  return { ...empty, tool, cases: file.cases };
}

/** Approved outputs in the golden folder that no `golden` case of the file owns. */
async function orphanGoldenFiles(goldenDir: string, cases: readonly TestCase[]): Promise<SuiteProblem[]> {
  let names: string[];
  try {
    names = await fs.readdir(goldenDir);
  } catch {
    return [];
  }
  const folder = `${basename(dirname(goldenDir))}/${basename(goldenDir)}`;
  return orphanGoldenNames(cases, names).map((n) =>
    problemAt(join(goldenDir, n), 'tests-orphan-golden', 1, 1, orphanGoldenMessage(folder, n)),
  );
}

function problemAt(file: string, code: RuleCode, line: number, column: number, message: string): SuiteProblem {
  return { file, code, severity: RULES[code].severity, line, column, message };
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await fs.readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
