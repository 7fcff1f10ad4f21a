// The wizards and variable prompts through the API, answered by script: New Smart Tool writes a valid
// `<tool_name>.json`, Preview LLM Prompt asks with a text box, a single and a multi pick pre-filled
// with the defaults and shows the filled prompt.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { afterEach, before, describe, it } from 'mocha';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../../server/src/service/languageService';
import { llmTool as llm, smartTool } from '../fixtures';
import { PNG_256, PNG_64 } from '../unit/images';
import { scriptAnswers } from './answers';
import { activeExtension, closeAll, openAs, until, writeFixture } from './workspace';

describe('wizards and variable prompts', () => {
  let restore: (() => void) | undefined;
  before(activeExtension);
  afterEach(async () => {
    restore?.();
    restore = undefined;
    await closeAll();
  });

  it('New Smart Tool creates <tool_name>.json from the answers, with no problems', async () => {
    const script = scriptAnswers([
      { input: 'weather_lookup' },
      { input: 'Looks the weather up.' },
      { input: 'city, units' },
    ]);
    restore = script.restore;
    await openAs(await writeFixture('anchor.json', { note: 'an open file in the folder' }), 'json');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('tooldef.newSmartTool');
    assert.ok(uri, 'no file was created');
    assert.ok(uri.path.endsWith('/weather_lookup.json'), uri.path);
    assert.equal(script.asked.length, 3);
    const doc = await vscode.workspace.openTextDocument(uri);
    const tool = JSON.parse(doc.getText()) as { metadata: { tool_name: string; variables: { name: string }[] } };
    assert.equal(tool.metadata.tool_name, 'weather_lookup');
    assert.deepEqual(
      tool.metadata.variables.map((v) => v.name),
      ['city', 'units'],
    );
    await until('the new file to be adopted as a definition', () =>
      vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString() && d.languageId === 'tooldef'),
    );
    const service = getLanguageService();
    const model = service.parse(TextDocument.create(uri.toString(), 'tooldef', 1, doc.getText()));
    assert.equal(model.kind, 'smart');
    assert.deepEqual(
      service
        .doValidation(model)
        .filter((d) => d.severity === 1)
        .map((d) => `${String(d.code)}: ${d.message}`),
      [],
    );
  });

  it('New Smart Tool checks the name as it is typed, and offers the answers of an unfinished wizard again', async () => {
    await writeFixture('taken_tool.json', smartTool({ metadata: { tool_name: 'taken_tool' } }));
    await openAs(await writeFixture('anchor.json', { note: 'an open file in the folder' }), 'json');
    const first = scriptAnswers([{ input: 'kept_tool' }, { input: 'Kept.' }, { input: undefined }]);
    restore = first.restore;
    assert.equal(await vscode.commands.executeCommand('tooldef.newSmartTool'), undefined);
    const validate = (first.asked[0].options as vscode.InputBoxOptions).validateInput!;
    assert.match(String(await validate('')), /A tool needs a name/);
    assert.match(String(await validate('My:Tool')), /":" cannot be in the name/);
    assert.match(String(await validate('taken_tool')), /taken_tool\.json exists in this folder/);
    assert.equal(await validate('fresh_tool'), undefined);
    const variables = (first.asked[2].options as vscode.InputBoxOptions).validateInput!;
    assert.match(String(await variables('city, {{units}}')), /cannot contain \{\{ or \}\}/);
    first.restore();

    const second = scriptAnswers([{ input: 'kept_tool' }, { input: 'Kept.' }, { input: 'city' }]);
    restore = second.restore;
    const uri = await vscode.commands.executeCommand<vscode.Uri>('tooldef.newSmartTool');
    assert.deepEqual(
      second.asked.map((q) => (q.options as vscode.InputBoxOptions).value),
      ['kept_tool', 'Kept.', undefined],
    );
    assert.ok(uri?.path.endsWith('/kept_tool.json'), uri?.path);
  });

  it('Preview LLM Prompt asks with a text box, a single and a multi pick, pre-filled with the defaults', async () => {
    const text = llm({
      prompt: 'Say {{greeting}} in {{language}} about {{topics}}.',
      metadata: { prompt_name: 'preview_pickers' },
      variables: [
        { name: 'greeting', type: 'text', description: 'A greeting', default: 'hello' },
        {
          name: 'language',
          type: 'single-select',
          description: 'Language',
          default: 'French',
          allowed_values: ['English', 'French'],
        },
        {
          name: 'topics',
          type: 'multi-select',
          description: 'Topics',
          default: ['cats', 'tea'],
          allowed_values: ['cats', 'dogs', 'tea'],
        },
      ],
    });
    const uri = await writeFixture('preview_pickers.json', text);
    await openAs(uri, 'tooldef');
    const script = scriptAnswers([{ input: 'bonjour' }, { pick: ['French'] }, { pick: ['dogs', 'tea'] }]);
    restore = script.restore;
    const prompt = await vscode.commands.executeCommand<string>('tooldef.previewPrompt', uri);
    assert.equal(prompt, 'Say bonjour in French about dogs, tea.');

    const [greeting, language, topics] = script.asked;
    assert.equal((greeting.options as vscode.InputBoxOptions).value, 'hello', 'the text box holds the default');
    assert.equal(language.items?.[0].label, 'French', 'the default comes first, so Enter takes it');
    assert.ok(!(language.options as vscode.QuickPickOptions).canPickMany);
    assert.ok((topics.options as vscode.QuickPickOptions).canPickMany, 'multi-select is a multi pick');
    assert.deepEqual(
      topics.items?.filter((i) => i.picked).map((i) => i.label),
      ['cats', 'tea'],
      'the defaults are checked',
    );
    await until('the filled prompt in a tab', () =>
      vscode.window.visibleTextEditors.some((e) => e.document.getText() === prompt),
    );
  });

  it('Set Avatar from Image embeds the file as base64 and warns only when it is not 256×256', async () => {
    const warnings: string[] = [];
    const window = vscode.window as unknown as { showWarningMessage: (m: string) => Promise<undefined> };
    const original = window.showWarningMessage;
    window.showWarningMessage = async (m: string) => (warnings.push(m), undefined);
    restore = () => (window.showWarningMessage = original);
    for (const [name, png, warned] of [
      ['avatar_small', PNG_64, true],
      ['avatar_exact', PNG_256, false],
    ] as const) {
      const image = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, `${name}.png`);
      await vscode.workspace.fs.writeFile(image, Buffer.from(png, 'base64'));
      const uri = await writeFixture(`${name}.json`, smartTool({ metadata: { tool_name: name } }));
      const editor = await openAs(uri, 'tooldef');
      warnings.length = 0;
      assert.equal(await vscode.commands.executeCommand('tooldef.setAvatar', uri, image), true);
      const metadata = (JSON.parse(editor.document.getText()) as { metadata: { avatar: string; avatar_type: string } })
        .metadata;
      assert.equal(metadata.avatar, png);
      assert.equal(metadata.avatar_type, 'base64');
      assert.deepEqual(
        warnings.map((w) => /64×64/.test(w)),
        warned ? [true] : [],
        warnings.join(' | '),
      );
    }
  });
});
