import * as vscode from 'vscode';

/** The slice of the Python extension's public API that we use (`ms-python.python`, `environments`). */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment(path: string | { path: string }): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
  };
}

/**
 * The interpreter for a run: the one selected in the Python extension when it is installed, else the
 * user's `tooldef.python.path`; undefined lets the runner look for python3/python on PATH.
 */
export async function chooseInterpreter(
  resource: vscode.Uri,
  settingPath: string | undefined,
  log: vscode.LogOutputChannel,
): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension<PythonExtensionApi>('ms-python.python');
  if (ext) {
    try {
      const api = ext.isActive ? ext.exports : await ext.activate();
      const active = api.environments?.getActiveEnvironmentPath(resource);
      const resolved = active ? await api.environments!.resolveEnvironment(active) : undefined;
      const exe = resolved?.executable?.uri?.fsPath;
      if (exe) return exe;
    } catch (e) {
      log.warn(`The Python extension did not give an interpreter: ${String(e)}`);
    }
  }
  return settingPath;
}

/** Lets the user pick an interpreter file and keeps it in their user settings. */
export async function pickInterpreter(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Use this Python',
    title: 'Select a Python 3.8+ interpreter',
  });
  const path = picked?.[0]?.fsPath;
  if (path)
    await vscode.workspace.getConfiguration('tooldef').update('python.path', path, vscode.ConfigurationTarget.Global);
  return path;
}
