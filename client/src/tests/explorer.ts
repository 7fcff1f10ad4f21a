import * as vscode from 'vscode';
import { definitionPathFor, goldenFileName, isTestsFileName } from '../../../server/src/engine/tests';
import { LANGUAGE_ID } from '../definitionDocuments';
import type { RunContext } from '../run/runSmartTool';
import { runRequest } from './runCases';
import { TestTree } from './testTree';

/**
 * The Test Explorer for tests files: a controller whose items are read by TestTree, one Run profile,
 * Approve Output on a golden mismatch, and a "Run N tests" lens on each definition that has cases.
 */
export class TestExplorer implements vscode.Disposable, vscode.CodeLensProvider {
  readonly controller = vscode.tests.createTestController('tooldef', 'Tool Definition');
  readonly tree: TestTree;
  readonly onDidChangeCodeLenses: vscode.Event<void>;
  private readonly disposables: vscode.Disposable[];
  private readonly profile: vscode.TestRunProfile;

  constructor(private readonly ctx: RunContext) {
    this.tree = new TestTree(this.controller, ctx.queries);
    this.disposables = [this.tree, this.controller];
    this.profile = this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => runRequest(ctx, this.tree, request, token),
      true,
    );
    this.onDidChangeCodeLenses = this.tree.onDidChange;
    this.disposables.push(vscode.languages.registerCodeLensProvider({ language: LANGUAGE_ID }, this));
    // Lenses need the tree before the explorer is first opened.
    void this.tree.discover();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const item = this.tree.itemForDefinition(doc.uri);
    if (!item || !vscode.workspace.isTrusted) return [];
    const n = item.children.size;
    return [
      new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
        title: `$(beaker) Run ${n} test${n === 1 ? '' : 's'}`,
        command: 'tooldef.runTests',
        arguments: [doc.uri],
      }),
    ];
  }

  /** Tool Definition: Run Tests — a definition's (or tests file's) cases, else every case of the workspace. */
  runTestsCommand() {
    return async (uri?: vscode.Uri): Promise<void> => {
      uri ??= vscode.window.activeTextEditor?.document.uri;
      const definition = uri && isTestsFileName(uri.path) ? uri.with({ path: definitionPathFor(uri.path) }) : uri;
      if (!definition || !this.tree.itemForDefinition(definition)) await this.tree.discover();
      const item = definition && this.tree.itemForDefinition(definition);
      await this.run(item ? [item] : undefined);
    };
  }

  /**
   * Approve Output (on a golden message in the test peek or results): writes the case's output as its
   * approved output, then runs the case again so the explorer shows it passing.
   */
  approveOutputCommand() {
    return async (arg?: { test?: vscode.TestItem; message?: vscode.TestMessage }): Promise<void> => {
      const ref = arg?.test && this.tree.caseOf(arg.test);
      const output = arg?.message?.actualOutput;
      if (!ref || output === undefined) {
        void vscode.window.showWarningMessage('Approve Output works on a golden case’s result: run the case first.');
        return;
      }
      const dir = vscode.Uri.file(ref.suite.goldenDir);
      const file = vscode.Uri.joinPath(dir, goldenFileName(ref.case.name));
      await vscode.workspace.fs.createDirectory(dir);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(output));
      this.ctx.log.info(`Approved the output of "${ref.case.name}" as ${file.fsPath}.`);
      await this.run([arg.test!]);
    };
  }

  private async run(include: vscode.TestItem[] | undefined): Promise<void> {
    const cancel = new vscode.CancellationTokenSource();
    try {
      await runRequest(this.ctx, this.tree, new vscode.TestRunRequest(include, undefined, this.profile), cancel.token);
    } finally {
      cancel.dispose();
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
