// Commands through the API: all registered, kind-specific ones offered (code lenses, palette `when`
// clauses) only for their kind, and refusing a file of the other kind.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterEach, before, describe, it } from 'mocha';
import { llmTool, OTHER_JSON, smartTool } from './fixtures';
import { activeExtension, closeAll, openAs, until, writeFixture } from './workspace';
import { clickAction } from '../../client/src/statusBar';

interface Manifest {
  contributes: {
    commands: { command: string; category: string }[];
    menus: { commandPalette: { command: string; when: string }[] };
  };
}

const SMART_ONLY = [
  'tooldef.runSmartTool',
  'tooldef.runSmartToolWithDefaults',
  'tooldef.stopRun',
  'tooldef.editToolCode',
];
const LLM_ONLY = ['tooldef.previewPrompt', 'tooldef.runLlmTool', 'tooldef.editModelPrompt'];
const ANY_DEFINITION = ['tooldef.upload', 'tooldef.setAvatar'];

async function lensCommands(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
  return lenses.map((l) => l.command?.command ?? '').sort();
}

describe('commands', () => {
  let manifest: Manifest;
  before(async () => {
    manifest = (await activeExtension()).packageJSON as Manifest;
  });
  afterEach(closeAll);

  it('registers every contributed command, each in the Tool Definition category', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      manifest.contributes.commands.filter((c) => !registered.has(c.command)).map((c) => c.command),
      [],
    );
    assert.deepEqual(
      manifest.contributes.commands.filter((c) => c.category !== 'Tool Definition').map((c) => c.command),
      [],
    );
  });

  it('shows kind-specific commands in the palette only for their kind', () => {
    const when = new Map(manifest.contributes.menus.commandPalette.map((m) => [m.command, m.when]));
    for (const id of SMART_ONLY) assert.equal(when.get(id), 'tooldef.activeKind == smart', id);
    for (const id of LLM_ONLY) assert.equal(when.get(id), 'tooldef.activeKind == llm', id);
    for (const id of ANY_DEFINITION) assert.equal(when.get(id), 'tooldef.activeKind', id);
  });

  it('offers code lenses per kind, and none on other JSON', async () => {
    const smart = await writeFixture('lens_smart.json', smartTool('lens_smart'));
    const llm = await writeFixture('lens_llm.json', llmTool('lens_llm'));
    const other = await writeFixture('lens_other.json', OTHER_JSON);
    await openAs(smart, 'tooldef');
    await openAs(llm, 'tooldef');
    await openAs(other, 'json');
    // The workspace is trusted here, so a smart tool can run.
    assert.deepEqual(await lensCommands(smart), [
      'tooldef.editToolCode',
      'tooldef.runSmartTool',
      'tooldef.runSmartToolWithDefaults',
      'tooldef.upload',
    ]);
    assert.deepEqual(await lensCommands(llm), [
      'tooldef.editModelPrompt',
      'tooldef.previewPrompt',
      'tooldef.runLlmTool',
      'tooldef.upload',
    ]);
    assert.deepEqual(await lensCommands(other), []);
  });

  it('runs a tool again in its own terminal and result tab, not new ones', async () => {
    const uri = await writeFixture(
      'rerun_tool.json',
      smartTool('rerun_tool', 'def execute(variables):\n    return "ran"\n'),
    );
    await openAs(uri, 'tooldef');
    const results: unknown[] = [];
    for (let i = 0; i < 2; i++)
      results.push(await vscode.commands.executeCommand('tooldef.runSmartToolWithDefaults', uri));
    assert.deepEqual(
      results.map((r) => (r as { ok: boolean; result?: string }).result),
      ['ran', 'ran'],
    );
    assert.equal(vscode.window.terminals.filter((t) => t.name === 'Run: rerun_tool').length, 1);
    const resultTabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'tooldef-result');
    assert.deepEqual(
      resultTabs.map((t) => t.label.replace(/\(.*\)/, '(…)')),
      ['rerun_tool result (…)'],
    );
  });

  it('refuses Edit as Python on an LLM tool and Edit model_prompt on a smart tool', async () => {
    const smart = await writeFixture('refuse_smart.json', smartTool('refuse_smart'));
    const llm = await writeFixture('refuse_llm.json', llmTool('refuse_llm'));
    await openAs(smart, 'tooldef');
    await openAs(llm, 'tooldef');
    assert.equal(await vscode.commands.executeCommand('tooldef.editToolCode', llm), undefined);
    assert.equal(await vscode.commands.executeCommand('tooldef.editModelPrompt', smart), undefined);
    const prompt = await vscode.commands.executeCommand<vscode.TextEditor>('tooldef.editModelPrompt', llm);
    await until('the prompt view', () => prompt?.document.getText() === 'Summarise {{text}} in {{target language}}.');
    assert.equal(prompt.document.languageId, 'markdown');
  });

  it('completes the declared variable names after {{ in the model_prompt view', async () => {
    const llm = await writeFixture('complete_llm.json', llmTool('complete_llm'));
    await openAs(llm, 'tooldef');
    const prompt = await vscode.commands.executeCommand<vscode.TextEditor>('tooldef.editModelPrompt', llm);
    await until('the prompt view', () => prompt?.document.getText().startsWith('Summarise'));
    const end = prompt.document.positionAt(prompt.document.getText().length);
    await prompt.edit((b) => b.insert(end, ' {{'));
    const at = prompt.document.positionAt(prompt.document.getText().length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      prompt.document.uri,
      at,
      '{',
    );
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const name of ['text', 'target language']) assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
    const item = list.items.find((i) => i.label === 'target language')!;
    assert.equal(item.insertText, 'target language}}');
  });

  it('the status bar item runs a smart tool, previews an LLM tool, and shows problems where running is disabled', async () => {
    const uri = vscode.Uri.file('/tools/x.json');
    const registered = new Set(await vscode.commands.getCommands(true));
    const command = (c: vscode.Command | string) => (typeof c === 'string' ? c : c.command);
    assert.equal(command(clickAction('smart', true, uri).command), 'tooldef.runSmartToolWithDefaults');
    assert.equal(command(clickAction('llm', true, uri).command), 'tooldef.previewPrompt');
    assert.equal(command(clickAction('llm', false, uri).command), 'tooldef.previewPrompt');
    assert.equal(command(clickAction('smart', false, uri).command), 'workbench.actions.view.problems');
    for (const [kind, trusted] of [
      ['smart', true],
      ['llm', true],
      ['smart', false],
    ] as const) {
      assert.ok(registered.has(command(clickAction(kind, trusted, uri).command)), `${kind} ${trusted}`);
    }
  });
});
