// A tests file's diagnostics in the editor: its cases checked against the definition beside it. Its
// JSON and shape are the JSON language's, through schemas/tool-tests.schema.json (package.json's
// jsonValidation), so they are not reported twice.
import { Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ToolModel } from '../model';
import { toRange } from '../positions';
import { LSP_SEVERITY } from '../rules';
import type { Settings } from '../settings';
import { effectiveSeverity } from '../validation/index';
import { definitionPathFor } from './paths';
import { parsedTests } from './parsed';
import { testsSupport } from './load';
import type { TestsProblem } from './testsFile';

/** `definition`: the definition's model, undefined when there is no such file. */
export function testsDiagnostics(
  doc: TextDocument,
  definition: ToolModel | undefined,
  settings: Settings,
): Diagnostic[] {
  const { readTestsFile, checkCasesAgainst } = testsSupport();
  const parsed = parsedTests(doc);
  const file = readTestsFile(parsed);
  const problems: TestsProblem[] = file.problems.filter((p) => p.code !== 'tests-shape');
  if (!definition) {
    if (!parsed.syntaxErrors.length) {
      const name = definitionPathFor(doc.uri).replace(/^.*\//, '');
      problems.push({
        code: 'tests-no-definition',
        offset: 0,
        length: 1,
        message: `No definition ${decodeURIComponent(name)} beside this tests file: its cases cannot be checked or run. Rename the file after its definition.`,
      });
    }
  } else problems.push(...checkCasesAgainst(file.cases, definition));
  const out: Diagnostic[] = [];
  for (const p of problems.sort((a, b) => a.offset - b.offset)) {
    const severity = effectiveSeverity(p.code, settings);
    if (severity === 'off') continue;
    out.push(Diagnostic.create(toRange(doc, p), p.message, LSP_SEVERITY[severity], p.code, 'tooldef'));
  }
  return out;
}
