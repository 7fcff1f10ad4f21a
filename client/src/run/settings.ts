import * as vscode from 'vscode';
import { SERVICE_MEMORY_MB, SERVICE_TIMEOUT_MS } from '../../../server/src/engine/run';

/**
 * Settings that decide where and how code runs. They are read from the user's own settings only
 * (`globalValue`): a workspace, trusted or not, can never choose the interpreter or raise a limit.
 */
export interface RunSettings {
  readonly pythonPath?: string;
  readonly timeoutMs: number;
  readonly memoryMb: number;
}

export function readRunSettings(): RunSettings {
  const cfg = vscode.workspace.getConfiguration('tooldef');
  const user = <T>(key: string): T | undefined => cfg.inspect<T>(key)?.globalValue;
  const pythonPath = user<string>('python.path')?.trim() || undefined;
  const seconds = user<number>('run.timeoutSeconds');
  const mb = user<number>('run.memoryMb');
  return {
    pythonPath,
    timeoutMs: Math.min(SERVICE_TIMEOUT_MS, seconds && seconds > 0 ? seconds * 1000 : SERVICE_TIMEOUT_MS),
    memoryMb: Math.min(SERVICE_MEMORY_MB, mb && mb > 0 ? mb : SERVICE_MEMORY_MB),
  };
}

/**
 * Opens the settings editor at `query`. Where a window is remote (Remote SSH, code-server) settings
 * of machine scope live on the Remote tab, which the plain command does not show.
 */
export function openSettings(query: string): Thenable<unknown> {
  const command = vscode.env.remoteName ? 'workbench.action.openRemoteSettings' : 'workbench.action.openSettings';
  return vscode.commands.executeCommand(command, { query });
}
