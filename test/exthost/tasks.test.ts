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
    const task = tasks.find((t) => t.name === 'check');
    assert.ok(task, `a check task among ${tasks.map((t) => t.name).join(', ')}`);
    assert.equal(task.group?.id, vscode.TaskGroup.Build.id);
    const ended = new Promise<number | undefined>((resolve) =>
      vscode.tasks.onDidEndTaskProcess((e) => e.execution.task.name === 'check' && resolve(e.exitCode)),
    );
    await vscode.tasks.executeTask(task);
    assert.equal(await ended, 1, 'check exits 1 when it finds errors');
    const fromTask = await until("the task's problems for task_broken.json", () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tooldef check');
      return found.length ? found : undefined;
    });
    const mismatch = fromTask.find((d) => d.code === 'default-type-mismatch');
    assert.ok(mismatch, JSON.stringify(fromTask.map((d) => [d.code, d.message])));
    assert.equal(mismatch.severity, vscode.DiagnosticSeverity.Error);
    const line = text.split('\n').findIndex((l) => l.includes('"default": 5'));
    assert.equal(mismatch.range.start.line, line);
    assert.match(mismatch.message, /must be a string: quote it/);
  });
});
