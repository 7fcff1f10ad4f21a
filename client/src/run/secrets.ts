import * as vscode from 'vscode';

/** SecretStorage cannot list its keys: the names stored are kept beside them (names only, never values). */
const NAMES_KEY = 'tooldef.secretNames';
const keyOf = (name: string): string => `tooldef.secret.${name}`;

function storedNames(ext: vscode.ExtensionContext): string[] {
  return ext.globalState.get<string[]>(NAMES_KEY) ?? [];
}

async function store(ext: vscode.ExtensionContext, name: string, value: string): Promise<void> {
  await ext.secrets.store(keyOf(name), value);
  const names = storedNames(ext);
  if (!names.includes(name)) await ext.globalState.update(NAMES_KEY, [...names, name].sort());
}

async function forget(ext: vscode.ExtensionContext, name: string): Promise<void> {
  await ext.secrets.delete(keyOf(name));
  await ext.globalState.update(
    NAMES_KEY,
    storedNames(ext).filter((n) => n !== name),
  );
}

function askValue(name: string, why: string): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: `Secret <${name}>`,
    prompt: `${why} It is kept in VS Code's secret storage, written only into the copy of tool_code that runs, and redacted from the output.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v ? undefined : 'Enter the value, or press Escape to cancel.'),
  });
}

/**
 * The values of the secrets a tool references, from secret storage, asking once for each one not
 * stored yet; undefined when the user cancels.
 */
export async function secretValues(
  ext: vscode.ExtensionContext,
  names: readonly string[],
): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (const name of names) {
    let value = await ext.secrets.get(keyOf(name));
    if (!value) {
      value = await askValue(name, `tool_code references <${name}>: enter its value to run the tool.`);
      if (!value) return undefined;
      await store(ext, name, value);
    }
    values[name] = value;
  }
  return values;
}

/**
 * Keeps a secret that Move to secret took out of tool_code (the server's STORE_SECRET_COMMAND): a
 * different value already stored under the name is replaced only if the user agrees.
 */
export function storeSecretCommand(ext: vscode.ExtensionContext) {
  return async (name: string, value: string): Promise<void> => {
    const stored = await ext.secrets.get(keyOf(name));
    if (stored && stored !== value) {
      const replace = await vscode.window.showWarningMessage(
        `A different value of <${name}> is stored already. Replace it with the one moved out of tool_code?`,
        { modal: true },
        'Replace',
      );
      if (!replace) return;
    }
    await store(ext, name, value);
    void vscode.window.showInformationMessage(
      `The secret is now <${name}> in tool_code; its value is kept in VS Code's secret storage (Manage Secrets).`,
    );
  };
}

/** Tool Definition: Manage Secrets — change or forget a stored secret, or add one. */
export function manageSecretsCommand(ext: vscode.ExtensionContext) {
  return async (): Promise<void> => {
    const add = '$(add) Add a secret…';
    const names = storedNames(ext);
    const picked = await vscode.window.showQuickPick([...names.map((n) => `<${n}>`), add], {
      title: 'Secrets for secret references in tool_code',
      placeHolder: names.length ? 'Pick a secret to change or forget' : 'No secret is stored yet',
    });
    if (!picked) return;
    let name = picked.slice(1, -1);
    if (picked === add) {
      const typed = await vscode.window.showInputBox({
        title: 'Add a secret',
        prompt: 'The NAME of a reference <NAME> in tool_code (A–Z, 0–9, _).',
        validateInput: (v) => (/^[A-Z][A-Z0-9_]*$/.test(v) ? undefined : 'Upper-case letters, digits and _.'),
      });
      if (!typed) return;
      name = typed;
    } else {
      const action = await vscode.window.showQuickPick(['Change the value', 'Forget it'], { title: `<${name}>` });
      if (!action) return;
      if (action === 'Forget it') {
        await forget(ext, name);
        void vscode.window.showInformationMessage(`<${name}> is forgotten; a run that needs it will ask again.`);
        return;
      }
    }
    const value = await askValue(name, `The value of <${name}>.`);
    if (value) await store(ext, name, value);
  };
}
