// The `tooldef check` task through the API: provided for the workspace folder, run, and what the CLI
// reports lands in the Problems panel through the `$tooldef` problem matcher, at the file, line and rule.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { before, describe, it } from 'mocha';
import { smartTool } from '../fixtures';
import { activeExtension, until, writeFixture } from './workspace';

describe('the tooldef check task', () => {
  before(activeExtension);

  it('puts what tooldef check reports in the Problems panel through $tooldef', async () => {
    const text = smartTool({
      metadata: { tool_name: 'task_broken' },
      variables: [{ name: 'count', description: 'How many', default: 5 }],
      code: 'def execute(variables):\n    return variables["count"]\n',
    });
    const uri = await writeFixture('task_broken.json', text);
    const tasks = await vscode.tasks.fetchTasks({ type: 'tooldef' });
    const provided = tasks.find((t) => t.name === 'check');
    assert.ok(provided, `a check task among ${tasks.map((t) => t.name).join(', ')}`);
    assert.equal(provided.group?.id, vscode.TaskGroup.Build.id);
    // The provided task's command on this file only (the folder holds every other suite's fixtures too).
    const run = provided.execution as vscode.ProcessExecution;
    assert.deepEqual(run.args.slice(-2), ['check', '.']);
    const task = new vscode.Task(
      provided.definition,
      vscode.workspace.workspaceFolders![0],
      'check',
      'tooldef',
      new vscode.ProcessExecution(run.process, [...run.args.slice(0, -1), 'task_broken.json'], run.options),
      '$tooldef',
    );
    const ended = new Promise<number | undefined>((resolve) =>
      vscode.tasks.onDidEndTaskProcess((e) => e.execution.task.name === 'check' && resolve(e.exitCode)),
    );
    await vscode.tasks.executeTask(task);
    assert.equal(await ended, 1, 'check exits 1 when it finds errors');
    const fromTask = await until(
      "the task's problems for task_broken.json",
      () => {
        const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tooldef check');
        return found.length ? found : undefined;
      },
      // The problem matcher reads the task's terminal in the workbench: slower on a loaded machine.
      90_000,
    ).catch((e: Error) => {
      const all = vscode.languages
        .getDiagnostics()
        .flatMap(([u, ds]) =>
          ds.filter((d) => d.source === 'tooldef check').map((d) => `${u.toString()} ${String(d.code)}`),
        );
      throw new Error(
        `${e.message}; what the task put in the Problems panel: ${all.slice(0, 5).join(' | ') || 'nothing'}`,
      );
    });
    const mismatch = fromTask.find((d) => d.code === 'default-type-mismatch');
    assert.ok(mismatch, JSON.stringify(fromTask.map((d) => [d.code, d.message])));
    assert.equal(mismatch.severity, vscode.DiagnosticSeverity.Error);
    const line = text.split('\n').findIndex((l) => l.includes('"default": 5'));
    assert.equal(mismatch.range.start.line, line);
    assert.match(mismatch.message, /must be a string: quote it/);
  });
});
