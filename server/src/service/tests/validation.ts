// A tests file's diagnostics in the editor: its cases checked against the definition beside it. Its
// JSON and shape are the JSON language's, through schemas/tool-tests.schema.json (package.json's
// jsonValidation), so they are not reported twice.
import { CodeAction, CodeActionKind, DeleteFile, Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ToolModel } from '../model';
import { toRange } from '../positions';
import { LSP_SEVERITY } from '../rules';
import type { Settings } from '../settings';
import { effectiveSeverity } from '../validation/index';
import { definitionPathFor, goldenDirFor } from './paths';
import { parsedTests } from './parsed';
import { testsSupport } from './load';
import type { TestsProblem } from './testsFile';

/** An approved output no case owns: its file, for the fix that deletes it. */
export interface OrphanGoldenData {
  readonly fix: 'delete-golden';
  readonly uri: string;
}

/**
 * `definition`: the definition's model, undefined when there is no such file; `goldenFiles`: the names
 * of the files in its golden folder.
 */
export function testsDiagnostics(
  doc: TextDocument,
  definition: ToolModel | undefined,
  goldenFiles: readonly string[],
  settings: Settings,
): Diagnostic[] {
  const { readTestsFile, checkCasesAgainst, orphanGoldenNames, orphanGoldenMessage } = testsSupport();
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
  const orphanSeverity = effectiveSeverity('tests-orphan-golden', settings);
  if (orphanSeverity === 'off' || !definition) return out;
  // On the "tests" key: the folder is the file's, not one case's.
  const at = parsed.root?.children?.find((p) => p.children?.[0]?.value === 'tests')?.children?.[0] ?? {
    offset: 0,
    length: 1,
  };
  const folder = goldenDirFor(definition.document.uri);
  const folderName = decodeURIComponent(folder.replace(/^.*\//, ''));
  for (const name of orphanGoldenNames(file.cases, goldenFiles)) {
    const d = Diagnostic.create(
      toRange(doc, at),
      orphanGoldenMessage(folderName, name),
      LSP_SEVERITY[orphanSeverity],
      'tests-orphan-golden',
      'tooldef',
    );
    d.data = { fix: 'delete-golden', uri: `${folder}/${encodeURIComponent(name)}` } satisfies OrphanGoldenData;
    out.push(d);
  }
  return out;
}

/** The fixes of a tests file's diagnostics: an orphan approved output is deleted. */
export function testsCodeActions(diagnostics: readonly Diagnostic[]): CodeAction[] {
  return diagnostics.flatMap((d) => {
    const data = d.data as OrphanGoldenData | undefined;
    if (d.source !== 'tooldef' || d.code !== 'tests-orphan-golden' || data?.fix !== 'delete-golden') return [];
    const name = decodeURIComponent(data.uri.replace(/^.*\//, ''));
    const action = CodeAction.create(
      `Delete ${name}`,
      { documentChanges: [DeleteFile.create(data.uri, { ignoreIfNotExists: true })] },
      CodeActionKind.QuickFix,
    );
    action.diagnostics = [d];
    return [action];
  });
}
