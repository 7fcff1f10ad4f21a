// The client's questions about a definition's content (server/src/protocol.ts), asked of the built
// server over stdio as the extension asks them: the client never parses a definition itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AvatarEditsRequest,
  CheckOutputRequest,
  EmbeddedPositionsRequest,
  EmbeddedRequest,
  KindRequest,
  LlmToolRequest,
  NewDefinitionRequest,
  SmartToolRequest,
  ValidateForUploadRequest,
  VariablesRequest,
  WriteEmbeddedRequest,
  type AvatarAnswer,
  type EmbeddedAnswer,
  type LlmToolResult,
  type OffsetEdit,
  type SmartToolAnswer,
  type UploadValidation,
  type VariableSummary,
} from '../../server/src/protocol';
import type { Position } from 'vscode-languageserver-types';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { llmTool, smartTool } from '../helpers';
import { PNG_256 } from '../unit/images';
import { LspClient } from './lspClient';

const URI = 'file:///requests/tool.json';

describe('the client asks the server about documents', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client?.dispose();
  });
  const ask = <R>(method: string, params: unknown): Promise<R> => client.request<R>(method, params);

  test('tooldef/kind: detected from the content, or the forced kind; null for other JSON', async () => {
    assert.equal(await ask(KindRequest.method, { uri: URI, text: smartTool() }), 'smart');
    assert.equal(await ask(KindRequest.method, { uri: URI, text: llmTool() }), 'llm');
    assert.equal(await ask(KindRequest.method, { uri: URI, text: '{"name": "package"}' }), null);
    assert.equal(await ask(KindRequest.method, { uri: URI, text: '{"name": "package"}', kind: 'llm' }), 'llm');
  });

  test('tooldef/kind of an open document answers for the text sent, not the text the server holds', async () => {
    const uri = 'file:///requests/open.json';
    await client.open(uri, smartTool());
    assert.equal(await ask(KindRequest.method, { uri, text: smartTool() }), 'smart');
    assert.equal(await ask(KindRequest.method, { uri, text: llmTool() }), 'llm');
    await client.close(uri);
  });

  test('tooldef/smartTool: what a run needs, or why the file cannot run', async () => {
    const answer = await ask<SmartToolAnswer>(SmartToolRequest.method, { uri: URI, text: smartTool() });
    assert.ok('tool' in answer, JSON.stringify(answer));
    assert.equal(answer.tool.name, 'tool');
    assert.match(answer.tool.code, /^def execute\(variables\):/);
    assert.deepEqual(answer.tool.inputs, [{ name: 'name', description: 'Who to greet', default: 'World' }]);
    const llm = await ask<SmartToolAnswer>(SmartToolRequest.method, { uri: URI, text: llmTool() });
    assert.deepEqual(llm, { problems: ['This is an LLM tool (it has model_prompt): only smart tools run code.'] });
    const broken = await ask<SmartToolAnswer>(SmartToolRequest.method, { uri: URI, text: '{"metadata": {' });
    assert.ok(
      'problems' in broken && /not valid JSON \(line 1, column 15/.test(broken.problems[0]),
      JSON.stringify(broken),
    );
  });

  test('tooldef/llmTool and tooldef/variables: the inputs, in array order, with their descriptions', async () => {
    const answer = await ask<LlmToolResult>(LlmToolRequest.method, { uri: URI, text: llmTool() });
    assert.ok(answer.ok, JSON.stringify(answer));
    assert.deepEqual(
      answer.tool.inputs.map((i) => [i.name, i.type, i.default, i.allowedValues]),
      [
        ['text', 'text', '', undefined],
        ['target language', 'single-select', 'English', ['English', 'French']],
      ],
    );
    const smart = await ask<LlmToolResult>(LlmToolRequest.method, { uri: URI, text: smartTool() });
    assert.equal(smart.ok, false);
    const variables = await ask<VariableSummary[]>(VariablesRequest.method, { uri: URI, text: llmTool() });
    assert.deepEqual(variables, [
      { name: 'text', description: 'The text' },
      { name: 'target language', description: 'Language' },
    ]);
  });

  test("tooldef/embedded places the definition's ranges in the decoded field; tooldef/writeEmbedded escapes it back", async () => {
    const code = 'def execute(variables):\n    return "h\\u00e9"\n';
    const text = smartTool({ code });
    const start = text.indexOf('return'); // after the escaped \n of the first line
    const outside = text.indexOf('"tool_name"');
    const answer = await ask<EmbeddedAnswer>(EmbeddedRequest.method, {
      uri: URI,
      text,
      field: 'tool_code',
      ranges: [
        [start, start + 'return'.length],
        [outside, outside + 3],
      ],
    });
    assert.equal(answer.content, code);
    assert.deepEqual(answer.ranges, [{ start: { line: 1, character: 4 }, end: { line: 1, character: 10 } }, null]);
    const edit = await ask<OffsetEdit>(WriteEmbeddedRequest.method, {
      uri: URI,
      text,
      field: 'tool_code',
      content: 'x = "\\"\n',
    });
    const written = text.slice(0, edit.offset) + edit.newText + text.slice(edit.offset + edit.length);
    assert.equal(JSON.parse(written).metadata.tool_code, 'x = "\\"\n');
    assert.equal(await ask(EmbeddedRequest.method, { uri: URI, text: llmTool(), field: 'tool_code' }), null);
    assert.equal(
      await ask(WriteEmbeddedRequest.method, { uri: URI, text: llmTool(), field: 'tool_code', content: 'x' }),
      null,
    );
  });

  test("tooldef/embeddedPositions: where a position of tool_code (a traceback's line, a view's range) is in the JSON", async () => {
    const code = 'def execute(variables):\n\tx = "\u00e9"\n    return x\n';
    const text = smartTool({ code });
    const doc = TextDocument.create(URI, 'json', 1, text);
    const at = (positions: Position[]) =>
      ask<(Position | null)[] | null>(EmbeddedPositionsRequest.method, {
        uri: URI,
        text,
        field: 'tool_code',
        positions,
      });
    // Line 3 starts after the escaped newline that ends line 2 (`\t`, `\"` and `é` are escapes before it);
    // `x` on line 2 is after the escaped tab.
    const [third, x, past, before] = (await at([
      { line: 2, character: 0 },
      { line: 1, character: 1 },
      { line: 9, character: 0 },
      { line: -1, character: 0 },
    ]))!;
    assert.equal(text.slice(doc.offsetAt(third!), doc.offsetAt(third!) + 12), '    return x');
    assert.equal(text.slice(doc.offsetAt(x!), doc.offsetAt(x!) + 7), 'x = \\"é');
    assert.deepEqual([past, before], [null, null]);
    assert.equal(
      await ask(EmbeddedPositionsRequest.method, { uri: URI, text: llmTool(), field: 'tool_code', positions: [] }),
      null,
    );
  });

  test('tooldef/avatarEdits embeds an image, and refuses what is not one', async () => {
    const text = llmTool();
    const answer = await ask<AvatarAnswer>(AvatarEditsRequest.method, { uri: URI, text, base64: PNG_256 });
    assert.ok(answer.image.ok && answer.edits, JSON.stringify(answer));
    assert.equal(answer.advice, undefined, 'a 256×256 image needs no advice');
    let written = text;
    for (const e of [...answer.edits].reverse())
      written = written.slice(0, e.offset) + e.newText + written.slice(e.offset + e.length);
    assert.equal(JSON.parse(written).metadata.avatar, PNG_256);
    const bad = await ask<AvatarAnswer>(AvatarEditsRequest.method, {
      uri: URI,
      text,
      base64: Buffer.from('not an image').toString('base64'),
    });
    assert.deepEqual([bad.image.ok, bad.edits], [false, null]);
  });

  test('tooldef/newDefinition writes a valid definition of either kind', async () => {
    const answers = { name: 'weather', description: 'Weather.', variables: ['city'] };
    const smart = JSON.parse(await ask<string>(NewDefinitionRequest.method, { kind: 'smart', answers }));
    assert.equal(smart.metadata.tool_name, 'weather');
    assert.match(smart.metadata.tool_code, /variables\.get\("city", ""\)/);
    const llm = JSON.parse(await ask<string>(NewDefinitionRequest.method, { kind: 'llm', answers }));
    assert.match(llm.model_prompt, /\{\{city\}\}/);
  });

  test("tooldef/validateForUpload: the bytes as the editor validates them, with the user's rule settings", async () => {
    const bytes = (text: string) => Buffer.from(text).toString('base64');
    const good = await ask<UploadValidation>(ValidateForUploadRequest.method, {
      uri: 'file:///requests/tool.json',
      bytes: bytes(smartTool()),
    });
    assert.deepEqual([good.kind, good.toolName, good.fileName, good.errors], ['smart', 'tool', 'tool.json', 0]);
    const latin1 = await ask<UploadValidation>(ValidateForUploadRequest.method, {
      uri: URI,
      bytes: Buffer.from([0x7b, 0xe9, 0x7d]).toString('base64'),
    });
    assert.ok(
      latin1.problems.some((p) => /not valid UTF-8/.test(p)),
      JSON.stringify(latin1.problems),
    );
    const forced = await ask<UploadValidation>(ValidateForUploadRequest.method, {
      uri: URI,
      bytes: bytes('{"version": "1.0"}'),
      kind: 'llm',
    });
    assert.equal(forced.kind, 'llm');
    assert.ok(forced.diagnostics.some((d) => d.code === 'missing-field'));
  });

  test('garbage parameters get the fallback answer and the server keeps answering', async () => {
    for (const params of [null, {}, { uri: 5, text: 7 }, { uri: URI, text: smartTool(), field: 'nope', ranges: 'x' }]) {
      for (const method of [
        KindRequest.method,
        SmartToolRequest.method,
        EmbeddedRequest.method,
        AvatarEditsRequest.method,
        NewDefinitionRequest.method,
      ]) {
        await client.request(method, params);
      }
    }
    assert.equal(await ask(KindRequest.method, { uri: URI, text: smartTool() }), 'smart');
    assert.ok(client.alive);
  });
});

test('tooldef/checkOutput: an LLM answer against expected_output', async () => {
  const client = await LspClient.start();
  try {
    const expected = { type: 'limited', allowedValues: ['yes', 'no'] };
    assert.deepEqual(await client.request(CheckOutputRequest.method, { text: 'yes', expected }), []);
    const violations = await client.request<{ code: string }[]>(CheckOutputRequest.method, { text: 'maybe', expected });
    assert.ok(violations.length > 0 && violations.every((v) => typeof v.code === 'string'), JSON.stringify(violations));
    assert.deepEqual(await client.request(CheckOutputRequest.method, { text: '', expected: undefined }), []);
  } finally {
    await client.dispose();
  }
});

test("tooldef/validateForUpload: the server's settings apply, its rules only as the user's own", async () => {
  const client = await LspClient.start({
    initializationOptions: { settings: { knownModels: ['house-model'], rules: { 'missing-field': 'off' } } },
  });
  try {
    const bytes = Buffer.from(smartTool({ metadata: { model_version: ['house-model'], tool_code: undefined } }));
    const ask = (userRules?: unknown) =>
      client.request<UploadValidation>(ValidateForUploadRequest.method, {
        uri: URI,
        bytes: bytes.toString('base64'),
        userRules,
      });
    const codes = (v: UploadValidation) => v.diagnostics.map((d) => String(d.code));
    const gate = codes(await ask());
    assert.ok(gate.includes('missing-field'), `missing-field stays on: ${gate.join(', ')}`);
    assert.ok(!gate.includes('unknown-model'), 'house-model is known');
    assert.ok(!codes(await ask({ 'missing-field': 'off' })).includes('missing-field'));
  } finally {
    await client.dispose();
  }
});
