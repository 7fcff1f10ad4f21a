// Edit tool_code as Python through the API: the save writes back escaped as one undoable edit, and
// closing, renaming or changing the definition behind the view's back loses neither side's edits.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { afterEach, before, describe, it } from 'mocha';
import { SMART_CODE, smartTool } from './fixtures';
import { activeExtension, closeAll, openAs, until, writeFixture } from './workspace';

const ADDED = '# "done"\t\\ é\n';

/** Opens `name` (a fresh smart tool) and its Python view; returns both editors. */
async function openWithView(name: string): Promise<{ definition: vscode.TextEditor; view: vscode.TextEditor }> {
  const definition = await openAs(await writeFixture(`${name}.json`, smartTool(name)), 'tooldef');
  const view = await vscode.commands.executeCommand<vscode.TextEditor>('tooldef.editToolCode', definition.document.uri);
  assert.ok(view, 'Edit tool_code as Python opened no editor');
  assert.equal(view.document.languageId, 'python');
  // A real file, so that Pylance, linters and formatters (which serve `file` documents) work on it.
  assert.equal(view.document.uri.scheme, 'file');
  assert.ok(view.document.uri.path.endsWith(`/${name}.tool_code.py`), view.document.uri.path);
  assert.equal(onDisk(view.document.uri), SMART_CODE);
  assert.equal(view.document.getText(), SMART_CODE);
  return { definition, view };
}

async function append(editor: vscode.TextEditor, text: string): Promise<void> {
  const end = editor.document.positionAt(editor.document.getText().length);
  assert.ok(await editor.edit((b) => b.insert(end, text)));
}

/** Closes the tab showing `uri`. */
async function closeEditorOf(uri: vscode.Uri): Promise<void> {
  const tab = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
  assert.ok(tab && (await vscode.window.tabGroups.close(tab)), `no tab shows ${uri.toString()}`);
}

const toolCode = (text: string): string => (JSON.parse(text) as { metadata: { tool_code: string } }).metadata.tool_code;
const onDisk = (uri: vscode.Uri): string => readFileSync(uri.fsPath, 'utf8');
/** tool_code of the file on disk; undefined while a write is under way (the file is not JSON yet). */
const toolCodeOnDisk = (uri: vscode.Uri): string | undefined => {
  try {
    return toolCode(onDisk(uri));
  } catch {
    return undefined;
  }
};

describe('Edit tool_code as Python', () => {
  before(activeExtension);
  afterEach(closeAll);

  it('writes a save back escaped, as one undoable edit of the definition', async () => {
    const { definition, view } = await openWithView('py_roundtrip');
    const original = definition.document.getText();
    const version = definition.document.version;
    await append(view, ADDED);
    assert.ok(await view.document.save());

    await until('the edit in the definition', () => definition.document.version > version);
    assert.equal(definition.document.version, version + 1, 'one edit');
    assert.equal(toolCode(definition.document.getText()), SMART_CODE + ADDED);
    assert.ok(definition.document.getText().includes('# \\"done\\"\\t\\\\ é\\n'), 'escaped as JSON');
    assert.ok(definition.document.isDirty, 'the definition keeps the edit unsaved, like any other edit');
    assert.equal(onDisk(definition.document.uri), original);

    await vscode.window.showTextDocument(definition.document);
    await vscode.commands.executeCommand('undo');
    await until('one undo to restore the definition', () => definition.document.getText() === original);
    await until(
      'the clean view to follow the undo, and stay clean',
      () => view.document.getText() === SMART_CODE && !view.document.isDirty,
    );
  });

  it('saves into the file on disk when the definition has no editor any more', async () => {
    const { definition, view } = await openWithView('py_closed');
    const uri = definition.document.uri;
    await closeEditorOf(uri);

    await append(view, ADDED);
    assert.ok(await view.document.save());
    await until('the edit saved to disk', () => toolCodeOnDisk(uri) === SMART_CODE + ADDED);
    const reopened = await vscode.workspace.openTextDocument(uri);
    await until('the definition saved', () => !reopened.isDirty);
  });

  it('follows a rename of the definition, so a save lands in the renamed file', async () => {
    const { definition, view } = await openWithView('py_rename');
    const from = definition.document.uri;
    const to = vscode.Uri.joinPath(from, '../py_renamed.json');
    await append(view, ADDED); // unsaved while the file is renamed

    const rename = new vscode.WorkspaceEdit();
    rename.renameFile(from, to);
    assert.ok(await vscode.workspace.applyEdit(rename));
    await until('the renamed file', () => existsSync(to.fsPath) && !existsSync(from.fsPath));

    assert.ok(await view.document.save());
    const renamed = await vscode.workspace.openTextDocument(to);
    await until('the edit in the renamed definition', () => toolCode(renamed.getText()) === SMART_CODE + ADDED);
    assert.ok(!existsSync(from.fsPath), 'the old path is not written again');
    // Edit as Python on the renamed file shows the same view, not a second one.
    const again = await vscode.commands.executeCommand<vscode.TextEditor>('tooldef.editToolCode', to);
    assert.equal(again.document.uri.toString(), view.document.uri.toString());
  });

  it('reloads a clean view when the definition changes on disk', async () => {
    const { definition, view } = await openWithView('py_external_clean');
    const changed = 'def execute(variables):\n    return "changed outside"\n';
    writeFileSync(definition.document.uri.fsPath, smartTool('py_external_clean', changed));
    await until(
      'the view to show the change on disk, and stay clean',
      () => view.document.getText() === changed && !view.document.isDirty,
    );
  });

  it('keeps both sides when the definition changes on disk while the view has unsaved edits', async () => {
    const { definition, view } = await openWithView('py_external_dirty');
    await append(view, ADDED);
    const external = JSON.parse(
      smartTool('py_external_dirty', 'def execute(variables):\n    return "changed outside"\n'),
    ) as { metadata: Record<string, unknown> };
    external.metadata.description = 'Changed outside.';
    const externalText = JSON.stringify(external, null, 2);
    writeFileSync(definition.document.uri.fsPath, externalText);
    await until('the definition to reload from disk', () => definition.document.getText() === externalText);

    // Saving the view now is VS Code's save conflict: refused, and the view keeps its edits.
    assert.equal(await view.document.save(), false);
    assert.ok(view.document.isDirty);
    assert.equal(view.document.getText(), SMART_CODE + ADDED);
    assert.equal(definition.document.getText(), externalText);
    assert.equal(onDisk(definition.document.uri), externalText);

    // Overwrite (what the conflict's compare view offers) writes only the field: the change on disk stays.
    await vscode.window.showTextDocument(view.document);
    await vscode.commands.executeCommand('workbench.files.action.acceptLocalChanges', view.document.uri);
    await until(
      'the view written into the changed definition',
      () => toolCode(definition.document.getText()) === SMART_CODE + ADDED,
    );
    assert.equal(
      (JSON.parse(definition.document.getText()) as typeof external).metadata.description,
      'Changed outside.',
    );
    assert.ok(!view.document.isDirty);
  });

  it('follows a change on disk of a definition whose editor was closed', async () => {
    const { definition, view } = await openWithView('py_closed_external');
    const uri = definition.document.uri;
    await closeEditorOf(uri);
    const changed = 'def execute(variables):\n    return "changed while closed"\n';
    writeFileSync(uri.fsPath, smartTool('py_closed_external', changed));
    await until(
      'the view to show the change on disk, and stay clean',
      () => view.document.getText() === changed && !view.document.isDirty,
    );
  });

  it('reopens a closed view (Reopen Closed Editor) caught up with the definition, and still writes back', async () => {
    const { definition, view } = await openWithView('py_reopen');
    const viewUri = view.document.uri;
    await closeEditorOf(viewUri);
    // VS Code keeps up to 50 documents an extension opened alive for 3 minutes after their editors
    // close; opening 60 more makes it let the view's document go, as time would.
    for (let i = 0; i < 60; i++)
      await vscode.workspace.openTextDocument(await writeFixture(`reopen_filler_${i}.txt`, `${i}\n`));
    await until("VS Code to close the view's document", () => view.document.isClosed, 10_000);
    // The file outlives the editor; make it stale, as a change of the definition while VS Code was closed would.
    assert.equal(onDisk(viewUri), SMART_CODE);
    writeFileSync(viewUri.fsPath, 'def execute(variables):\n    return "stale"\n');

    await vscode.commands.executeCommand('workbench.action.reopenClosedEditor');
    const reopened = await until('the view open again', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === viewUri.toString()),
    );
    await until(
      "the reopened view to show the definition's code, and stay clean",
      () => reopened.document.getText() === SMART_CODE && !reopened.document.isDirty,
    );
    await append(reopened, ADDED);
    assert.ok(await reopened.document.save());
    await until('the edit in the definition', () => toolCode(definition.document.getText()) === SMART_CODE + ADDED);
  });

  it('refreshes a clean view once per change of tool_code, even when save participants alter it', async () => {
    const files = vscode.workspace.getConfiguration('files');
    await files.update('trimTrailingWhitespace', true, vscode.ConfigurationTarget.Global);
    try {
      const { definition, view } = await openWithView('py_participants');
      let saves = 0;
      const counting = vscode.workspace.onDidSaveTextDocument(
        (d) => d.uri.toString() === view.document.uri.toString() && saves++,
      );
      try {
        const edit = async (change: (value: { metadata: Record<string, unknown> }) => void): Promise<void> => {
          const value = JSON.parse(definition.document.getText()) as { metadata: Record<string, unknown> };
          change(value);
          const whole = new vscode.Range(
            definition.document.positionAt(0),
            definition.document.positionAt(definition.document.getText().length),
          );
          assert.ok(await definition.edit((b) => b.replace(whole, JSON.stringify(value, null, 2))));
        };
        const trailing = 'def execute(variables):   \n    return "x"\n';
        await edit((v) => (v.metadata.tool_code = trailing));
        // The refresh saves the view, and the user's trimTrailingWhitespace trims it.
        await until(
          'the refreshed view, trimmed by its save',
          () => view.document.getText() === 'def execute(variables):\n    return "x"\n' && !view.document.isDirty,
        );
        const after = saves;
        for (let i = 0; i < 5; i++) await edit((v) => (v.metadata.description = `Edit ${i}.`));
        await new Promise((resolve) => setTimeout(resolve, 1000));
        assert.equal(saves, after, 'edits elsewhere in the definition must not save the view again');
        assert.equal(toolCode(definition.document.getText()), trailing, 'a refresh never writes back');
      } finally {
        counting.dispose();
      }
    } finally {
      await files.update('trimTrailingWhitespace', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("shows the definition's diagnostics inside tool_code in the view instead, at the same characters", async () => {
    const code = 'def execute(variables):\n\treturn "\\t" + variables["nmae"]\n';
    const definition = await openAs(
      await writeFixture('py_diagnostics.json', smartTool('py_diagnostics', code)),
      'tooldef',
    );
    const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
    const inDefinition = await until('the diagnostic in the definition', () =>
      vscode.languages.getDiagnostics(definition.document.uri).find((d) => codeOf(d) === 'unknown-variable-key'),
    );
    const view = await vscode.commands.executeCommand<vscode.TextEditor>(
      'tooldef.editToolCode',
      definition.document.uri,
    );
    const mirrored = await until('the diagnostic in the view', () =>
      vscode.languages.getDiagnostics(view.document.uri).find((d) => codeOf(d) === 'unknown-variable-key'),
    );
    assert.equal(
      view.document.getText(mirrored.range),
      JSON.parse(`"${definition.document.getText(inDefinition.range)}"`),
    );
    assert.ok(view.document.getText(mirrored.range).includes('nmae'));
    assert.equal(mirrored.message, inDefinition.message);
    // Listed once: while the view is open, the definition no longer shows it.
    await until(
      'the definition to leave it to the view',
      () => !vscode.languages.getDiagnostics(definition.document.uri).some((d) => codeOf(d) === 'unknown-variable-key'),
    );
  });

  it('warns that a lone surrogate in tool_code cannot survive a file, and still opens the view', async () => {
    const warnings: string[] = [];
    const window = vscode.window as unknown as { showWarningMessage: (m: string) => Promise<undefined> };
    const original = window.showWarningMessage;
    window.showWarningMessage = async (m: string) => (warnings.push(m), undefined);
    try {
      const definition = await openAs(
        await writeFixture(
          'py_surrogate.json',
          smartTool('py_surrogate', 'def execute(variables):\n    return "\ud800"\n'),
        ),
        'tooldef',
      );
      assert.ok(definition.document.getText().includes('\\ud800'), 'escaped in the file');
      const view = await vscode.commands.executeCommand<vscode.TextEditor>(
        'tooldef.editToolCode',
        definition.document.uri,
      );
      assert.ok(view);
      assert.deepEqual(warnings.filter((w) => w.includes('lone surrogate')).length, 1, warnings.join(' | '));
    } finally {
      window.showWarningMessage = original;
    }
  });

  it('round-trips CRLF: a CRLF definition file keeps its line ends, CRLF code keeps its \\r\\n', async () => {
    const code = 'def execute(variables):\r\n\treturn "a\\\\b" + variables["name"]\r\n';
    const text = smartTool('py_crlf', code).replace(/\n/g, '\r\n');
    const definition = await openAs(await writeFixture('py_crlf.json', text), 'tooldef');
    assert.equal(definition.document.eol, vscode.EndOfLine.CRLF);
    const view = await vscode.commands.executeCommand<vscode.TextEditor>(
      'tooldef.editToolCode',
      definition.document.uri,
    );
    assert.equal(view.document.getText(), code);
    assert.equal(view.document.eol, vscode.EndOfLine.CRLF);
    await append(view, '# é\r\n');
    assert.ok(await view.document.save());
    await until('the edit in the definition', () => toolCode(definition.document.getText()) === code + '# é\r\n');
    const written = definition.document.getText();
    assert.equal(written.replace(/\r\n/g, '').includes('\n'), false, 'every line end of the file is still CRLF');
    assert.ok(written.includes('\\r\\n# é\\r\\n"'), "the code's CRLF escaped as \\r\\n");
  });
});
