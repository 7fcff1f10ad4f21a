import * as vscode from 'vscode';
import {
  isTestsFileName,
  testsPathFor,
  toolName,
  type RunnableCase,
  type RunnableSuite,
} from '../../../server/src/engine/tests';
import type { SuiteCase, TestSuiteAnswer } from '../../../server/src/protocol';
import type { DocumentQueries } from '../documentQueries';

/** A case as the explorer runs it: what the engine needs, and where it is (from the server). */
export interface EditorCase extends RunnableCase {
  readonly info: SuiteCase;
}

/** A tests file as the server read it, ready for the engine to run. */
export interface EditorSuite extends RunnableSuite<EditorCase> {
  readonly testsUri: vscode.Uri;
  readonly answer: TestSuiteAnswer;
}

/** What a case item stands for: its suite (as last read) and its case. */
export interface CaseRef {
  readonly suite: EditorSuite;
  readonly case: EditorCase;
}

/** Whether a suite cannot run: its definition is not runnable, or either file has errors. */
export function isInvalid(suite: EditorSuite): boolean {
  return !suite.tool || suite.answer.errors.length > 0;
}

/**
 * The Test Explorer's tree: one item per definition with a tests file (its id the tests file's URI),
 * one child per case, located on its line of the tests file. The server reads the files (the open
 * document's text, else the disk's); a tests file is read again when it or its definition changes.
 */
export class TestTree implements vscode.Disposable {
  private readonly cases = new WeakMap<vscode.TestItem, CaseRef>();
  private readonly suites = new WeakMap<vscode.TestItem, EditorSuite>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Items were added, removed or re-read. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    readonly controller: vscode.TestController,
    private readonly queries: DocumentQueries,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.json');
    this.disposables.push(
      watcher,
      watcher.onDidCreate((uri) => void this.refreshFor(uri)),
      watcher.onDidChange((uri) => void this.refreshFor(uri)),
      watcher.onDidDelete((uri) => this.forget(uri)),
    );
    controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    controller.refreshHandler = () => this.discover();
  }

  /** Every tests file of the workspace, read afresh. */
  async discover(): Promise<void> {
    const found = await vscode.workspace.findFiles('**/*.tests.json', '**/node_modules/**');
    const ids = new Set(found.map((u) => u.toString()));
    this.controller.items.forEach((item) => {
      if (!ids.has(item.id)) this.controller.items.delete(item.id);
    });
    await Promise.all(found.map((uri) => this.read(uri)));
  }

  /** The suite and case of a case item; undefined for other items. */
  caseOf(item: vscode.TestItem): CaseRef | undefined {
    return this.cases.get(item);
  }

  /** The suite of a definition's item, as last read. */
  suiteOf(item: vscode.TestItem): EditorSuite | undefined {
    return this.suites.get(item);
  }

  /** The item of the definition at `definition` (a definition file's URI), if it has a tests file. */
  itemForDefinition(definition: vscode.Uri): vscode.TestItem | undefined {
    return this.controller.items.get(testsUriFor(definition).toString());
  }

  /** Reads one tests file into its item and its children (which keep their results by their ids). */
  async read(testsUri: vscode.Uri): Promise<vscode.TestItem | undefined> {
    const answer = await this.queries.testSuite(testsUri);
    if (!answer) {
      this.controller.items.delete(testsUri.toString());
      this.changed.fire();
      return undefined;
    }
    const suite = editorSuite(testsUri, answer, this.queries);
    const name = toolName(suite);
    const item =
      this.controller.items.get(testsUri.toString()) ??
      this.controller.createTestItem(testsUri.toString(), name, vscode.Uri.parse(answer.definitionUri));
    item.label = name;
    item.description = vscode.workspace.asRelativePath(testsUri);
    item.error = isInvalid(suite) ? errorsOf(suite) : undefined;
    this.suites.set(item, suite);
    const seen = new Set<string>();
    item.children.replace(
      suite.cases.map((c) => {
        // Duplicate names are a diagnostic of the tests file; their items still need ids of their own.
        const id = seen.has(c.name) ? `${c.name}#${c.index}` : c.name;
        seen.add(c.name);
        const child = item.children.get(id) ?? this.controller.createTestItem(id, c.name, testsUri);
        child.range = rangeOf(c.info.range);
        this.cases.set(child, { suite, case: c });
        return child;
      }),
    );
    this.controller.items.add(item);
    this.changed.fire();
    return item;
  }

  private async refreshFor(uri: vscode.Uri): Promise<void> {
    if (isTestsFileName(uri.path)) await this.read(uri);
    else if (this.itemForDefinition(uri)) await this.read(testsUriFor(uri));
  }

  private forget(uri: vscode.Uri): void {
    if (isTestsFileName(uri.path)) this.controller.items.delete(uri.toString());
    else {
      const item = this.itemForDefinition(uri);
      if (item) void this.read(vscode.Uri.parse(item.id));
    }
    this.changed.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** `weather.json` → `weather.tests.json`, as URIs. */
export function testsUriFor(definition: vscode.Uri): vscode.Uri {
  return definition.with({ path: testsPathFor(definition.path) });
}

/** A protocol range as VS Code's. */
export function rangeOf(r: SuiteCase['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function editorSuite(testsUri: vscode.Uri, answer: TestSuiteAnswer, queries: DocumentQueries): EditorSuite {
  return {
    testsUri,
    answer,
    definitionPath: vscode.Uri.parse(answer.definitionUri).fsPath,
    goldenDir: vscode.Uri.parse(answer.goldenDirUri).fsPath,
    tool: answer.tool,
    cases: answer.cases.map((info) => ({
      name: info.name,
      index: info.index,
      inputs: new Map(info.inputs.map(([name, value]) => [name, { value }])),
      expect: info.expect,
      info,
    })),
    validateJson: (c, value) => queries.validateJson(c.expect.json, value),
    checkOutput: (text, expected) => queries.checkOutput(text, expected),
  };
}

/** Why a suite cannot run, as the explorer shows it on the definition's item. */
function errorsOf(suite: EditorSuite): vscode.MarkdownString {
  const errors = suite.answer.errors;
  const lines = errors.slice(0, 10).map((e) => {
    const where = `${vscode.workspace.asRelativePath(vscode.Uri.parse(e.uri))}:${e.range.start.line + 1}:${e.range.start.character + 1}`;
    return `- ${where} ${e.message} (${e.code})`;
  });
  if (errors.length > 10) lines.push(`- … and ${errors.length - 10} more`);
  if (!suite.tool && !lines.length) lines.push('- The definition cannot run.');
  const text = new vscode.MarkdownString();
  text.appendText('These tests cannot run until this is fixed:\n');
  text.appendMarkdown(lines.map((l) => l.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&')).join('\n'));
  return text;
}
