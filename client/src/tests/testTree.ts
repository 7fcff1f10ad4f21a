import * as vscode from 'vscode';
import { isInvalid, loadSuite, toolName, type Suite, type TestCase } from '../../../server/src/engine/tests';

/** What a case item stands for: its suite (as last read) and its case. */
export interface CaseRef {
  readonly suite: Suite;
  readonly case: TestCase;
}

/**
 * The Test Explorer's tree: one item per definition with a tests file (its id the tests file's URI),
 * one child per case, located on its line of the tests file. Read from disk, as runs are: a tests
 * file is re-read when it (or its definition) is saved.
 */
export class TestTree implements vscode.Disposable {
  private readonly cases = new WeakMap<vscode.TestItem, CaseRef>();
  private readonly suites = new WeakMap<vscode.TestItem, Suite>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Items were added, removed or re-read. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(readonly controller: vscode.TestController) {
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
  suiteOf(item: vscode.TestItem): Suite | undefined {
    return this.suites.get(item);
  }

  /** The item of the definition at `definition` (a definition file's URI), if it has a tests file. */
  itemForDefinition(definition: vscode.Uri): vscode.TestItem | undefined {
    return this.controller.items.get(definition.toString().replace(/\.json$/i, '.tests.json'));
  }

  /** Reads one tests file into its item and its children; the item keeps the cases' results by their ids. */
  async read(testsUri: vscode.Uri): Promise<vscode.TestItem> {
    const suite = await loadSuite(testsUri.fsPath);
    const definition = vscode.Uri.file(suite.definitionPath);
    const item =
      this.controller.items.get(testsUri.toString()) ??
      this.controller.createTestItem(testsUri.toString(), toolName(suite), definition);
    item.label = toolName(suite);
    item.description = vscode.workspace.asRelativePath(testsUri);
    item.error = isInvalid(suite) ? problemsOf(suite) : undefined;
    this.suites.set(item, suite);
    const seen = new Set<string>();
    item.children.replace(
      suite.cases.map((c) => {
        // Duplicate names are a diagnostic of the tests file; their items still need ids of their own.
        const id = seen.has(c.name) ? `${c.name}#${c.index}` : c.name;
        seen.add(c.name);
        const child = item.children.get(id) ?? this.controller.createTestItem(id, c.name, testsUri);
        const start = suite.positionAt(c.node.offset);
        const end = suite.positionAt(c.node.offset + c.node.length);
        child.range = new vscode.Range(start.line, start.character, end.line, end.character);
        this.cases.set(child, { suite, case: c });
        return child;
      }),
    );
    this.controller.items.add(item);
    this.changed.fire();
    return item;
  }

  private async refreshFor(uri: vscode.Uri): Promise<void> {
    const path = uri.path;
    if (path.endsWith('.tests.json')) await this.read(uri);
    else if (this.itemForDefinition(uri)) await this.read(uri.with({ path: path.replace(/\.json$/i, '.tests.json') }));
  }

  private forget(uri: vscode.Uri): void {
    if (uri.path.endsWith('.tests.json')) this.controller.items.delete(uri.toString());
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

/** Why a suite cannot run, as the explorer shows it on the definition's item. */
function problemsOf(suite: Suite): vscode.MarkdownString {
  const errors = suite.problems.filter((p) => p.severity === 'error');
  const lines = errors
    .slice(0, 10)
    .map((p) => `- ${vscode.workspace.asRelativePath(p.file)}:${p.line}:${p.column} ${p.message} (${p.code})`);
  if (errors.length > 10) lines.push(`- … and ${errors.length - 10} more`);
  if (!suite.tool && !lines.length) lines.push('- The definition cannot run.');
  const text = new vscode.MarkdownString();
  text.appendText('These tests cannot run until this is fixed:\n');
  text.appendMarkdown(lines.map((l) => l.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&')).join('\n'));
  return text;
}
