import * as vscode from 'vscode';

export const TASK_TYPE = 'tooldef';

/**
 * The `tooldef check` task of each workspace folder (Terminal ▸ Run Task, or a build task): the CLI this
 * extension ships checks the folder's definitions, and the `$tooldef` problem matcher puts what it
 * reports in the Problems panel, beside (not instead of) the language server's diagnostics.
 */
export class CheckTaskProvider implements vscode.TaskProvider {
  constructor(private readonly extension: vscode.ExtensionContext) {}

  provideTasks(): vscode.Task[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) =>
      this.task({ type: TASK_TYPE, command: 'check' }, folder),
    );
  }

  resolveTask(task: vscode.Task): vscode.Task | undefined {
    const folder = task.scope;
    if (task.definition.type !== TASK_TYPE || typeof folder !== 'object') return undefined;
    return this.task(task.definition, folder);
  }

  private task(definition: vscode.TaskDefinition, folder: vscode.WorkspaceFolder): vscode.Task {
    const paths = Array.isArray(definition.paths) ? (definition.paths as string[]) : ['.'];
    const cli = vscode.Uri.joinPath(this.extension.extensionUri, 'dist', 'cli.js').fsPath;
    // The extension host's own Node (Electron's, run as Node), so that no Node need be installed.
    const execution = new vscode.ProcessExecution(process.execPath, [cli, 'check', ...paths], {
      cwd: folder.uri.fsPath,
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    const task = new vscode.Task(definition, folder, 'check', TASK_TYPE, execution, '$tooldef');
    task.group = vscode.TaskGroup.Build;
    task.detail = `tooldef check ${paths.join(' ')}: the Tool Definition problems of the folder`;
    return task;
  }
}
