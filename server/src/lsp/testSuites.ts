// The Test Explorer's questions about tests files: their cases with where they are, the definition's
// runnable tool, and what keeps them from running; and `json` expectations checked by their schema.
// The client runs the cases (the engine) but never reads a tests file itself.
import type { Connection } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { suiteToolOf, type SuiteTool } from '../engine/tests/tool';
import {
  TestSuiteRequest,
  ValidateJsonRequest,
  type SuiteCase,
  type SuiteError,
  type TestSuiteAnswer,
} from '../protocol';
import type { JsonNode } from '../service/json/tree';
import { jsonSchemaSupport } from '../service/jsonSchema/load';
import type { ToolModel } from '../service/model';
import { toRange } from '../service/positions';
import { RULES, type RuleCode } from '../service/rules';
import { testsSupport } from '../service/tests/load';
import { parsedTests } from '../service/tests/parsed';
import { definitionPathFor, goldenDirFor } from '../service/tests/paths';
import { runSafe, runSafeAsync } from './runSafe';

export interface TestSuiteSources {
  /** A tests file's document: open in the editor, else as on disk. */
  readonly tests: (uri: string) => Promise<TextDocument | undefined>;
  /** The definition beside a tests file, as the editor validates it. */
  readonly definitionBeside: (tests: TextDocument) => Promise<ToolModel | undefined>;
}

export function registerTestSuiteRequests(connection: Connection, sources: TestSuiteSources): void {
  connection.onRequest(TestSuiteRequest, (p, token) =>
    runSafeAsync(connection, 'test suite', null, token, async () => {
      const doc = await sources.tests(p.uri);
      return doc ? testSuite(doc, await sources.definitionBeside(doc)) : null;
    }),
  );
  connection.onRequest(ValidateJsonRequest, (p, token) =>
    runSafe(connection, 'validate JSON', [], token, () => {
      const schema = jsonSchemaSupport().compileSchema(p.schema);
      return 'error' in schema ? [schema.error] : schema.errors(p.value);
    }),
  );
}

function testSuite(doc: TextDocument, definition: ToolModel | undefined): TestSuiteAnswer {
  const { readTestsFile, checkCasesAgainst } = testsSupport();
  const json = parsedTests(doc);
  const file = readTestsFile(json);
  const errors: SuiteError[] = [];
  const report = (code: RuleCode, span: { offset: number; length: number }, message: string, uri = doc.uri) => {
    if (RULES[code].severity === 'error') errors.push({ uri, range: toRange(doc, span), code, message });
  };
  for (const e of json.syntaxErrors) report('json-syntax', e, `${e.message}.`);
  for (const p of file.problems) report(p.code, p, p.message);
  const definitionUri = definitionPathFor(doc.uri);
  let tool: SuiteTool | undefined;
  if (!definition?.kind)
    report('tests-no-definition', { offset: 0, length: 0 }, 'No tool definition beside this tests file.');
  else {
    for (const p of checkCasesAgainst(file.cases, definition)) report(p.code, p, p.message);
    const runnable = suiteToolOf(definition);
    if ('tool' in runnable) tool = runnable.tool;
    else for (const p of runnable.problems) report('tests-no-definition', { offset: 0, length: 0 }, p, definitionUri);
  }
  const cases = file.cases.map((c): SuiteCase => ({
    name: c.name,
    index: c.index,
    inputs: [...c.inputs].map(([name, { value }]) => [name, value]),
    expect: c.expect,
    range: toRange(doc, c.node),
    nameRange: toRange(doc, c.nameNode),
    expectRanges: Object.fromEntries(
      (c.expectNode?.children ?? []).flatMap((p) => {
        const key: JsonNode | undefined = p.children?.[0];
        return key ? [[String(key.value), toRange(doc, key)]] : [];
      }),
    ),
  }));
  return { definitionUri, goldenDirUri: goldenDirFor(definitionUri), tool, cases, errors };
}
