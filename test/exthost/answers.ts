// Scripted answers for the window's input boxes and quick picks, so that wizards and variable prompts
// run without a person; every question is recorded with the options and items it was asked with.
import * as vscode from 'vscode';

export type Answer =
  | { readonly input: string | undefined }
  /** The labels to pick (one for a single pick, any number for a multi pick). */
  | { readonly pick: readonly string[] | undefined };

export interface Question {
  readonly kind: 'input' | 'pick';
  readonly options: vscode.InputBoxOptions | vscode.QuickPickOptions | undefined;
  readonly items?: readonly vscode.QuickPickItem[];
}

type Window = { showInputBox: typeof vscode.window.showInputBox; showQuickPick: typeof vscode.window.showQuickPick };

/** Replaces showInputBox/showQuickPick until `restore()`; a question beyond the script fails the test. */
export function scriptAnswers(answers: Answer[]): { readonly asked: Question[]; restore(): void } {
  const window = vscode.window as unknown as Window;
  const original = { showInputBox: window.showInputBox, showQuickPick: window.showQuickPick };
  const asked: Question[] = [];
  const next = (kind: Question['kind']): Answer => {
    const answer = answers.shift();
    if (!answer) throw new Error(`an unexpected ${kind} question (question ${asked.length})`);
    if ('input' in answer !== (kind === 'input'))
      throw new Error(`question ${asked.length} is a ${kind}, the script answers ${JSON.stringify(answer)}`);
    return answer;
  };
  window.showInputBox = (async (options?: vscode.InputBoxOptions) => {
    asked.push({ kind: 'input', options });
    return (next('input') as { input: string | undefined }).input;
  }) as typeof vscode.window.showInputBox;
  window.showQuickPick = (async (
    items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
    options?: vscode.QuickPickOptions,
  ) => {
    const list = [...(await items)];
    asked.push({ kind: 'pick', options, items: list });
    const labels = (next('pick') as { pick: readonly string[] | undefined }).pick;
    if (!labels) return undefined;
    const chosen = labels.map((l) => list.find((i) => i.label === l) ?? assertNever(l));
    return options?.canPickMany ? chosen : chosen[0];
  }) as unknown as typeof vscode.window.showQuickPick;
  return {
    asked,
    restore: () => Object.assign(window, original),
  };
}

function assertNever(label: string): never {
  throw new Error(`no item labelled ${label}`);
}
