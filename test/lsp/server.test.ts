// LSP-level tests: the built server (dist/server.js) driven over stdio by test/lsp/lspClient.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { mulberry32 } from '../random';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  CodeAction,
  CompletionItem,
  CompletionList,
  Diagnostic,
  DocumentHighlight,
  DocumentSymbol,
  Hover,
  InitializeResult,
  Location,
  MarkupContent,
  Position,
  Range,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { cursor, llmTool, smartTool, until } from '../helpers';
import { LspClient, repoRoot } from './lspClient';

// ---------------------------------------------------------------------------------------------
// helpers

let seq = 0;
/** A fresh URI per document, so tests never see each other's documents. */
function uri(name = 'tool.json'): string {
  return `file:///lsp-test/${++seq}/${name}`;
}

/** An LLM tool with a unique prompt_name (open LLM tools share the workspace-wide name check). */
function llm(overrides: Parameters<typeof llmTool>[0] = {}): string {
  return llmTool({ ...overrides, metadata: { prompt_name: `Prompt ${++seq}`, ...overrides.metadata } });
}

function posOf(text: string, needle: string, delta = 0, from = 0): Position {
  const i = text.indexOf(needle, from);
  assert.ok(i >= 0, `fixture lacks ${JSON.stringify(needle)}`);
  return TextDocument.create('x:', 'x', 0, text).positionAt(i + delta);
}

function rangeOf(text: string, needle: string, from = 0): Range {
  const doc = TextDocument.create('x:', 'x', 0, text);
  const i = text.indexOf(needle, from);
  assert.ok(i >= 0, `fixture lacks ${JSON.stringify(needle)}`);
  return { start: doc.positionAt(i), end: doc.positionAt(i + needle.length) };
}

function textAt(doc: TextDocument, r: Range): string {
  return doc.getText(r);
}

function codesOf(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => String(d.code)).sort();
}

/** A diagnostic's message as text (LSP 3.18 also allows markup). */
function msg(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

function summary(ds: readonly Diagnostic[]): string {
  return JSON.stringify(
    ds.map((d) => ({ code: d.code, range: d.range, message: d.message })),
    null,
    1,
  );
}

function applyEdits(doc: TextDocument, edits: readonly TextEdit[]): string {
  return TextDocument.applyEdits(doc, [...edits]);
}

function markdown(h: Hover | null): string {
  assert.ok(h, 'expected a hover');
  const c = h.contents as MarkupContent;
  assert.equal(c.kind, 'markdown');
  return c.value;
}

// ---------------------------------------------------------------------------------------------

describe('tooldef language server over stdio', () => {
  let client: LspClient;

  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client?.dispose();
  });

  test('initialize announces the capabilities the extension relies on', () => {
    const r: InitializeResult = client.initializeResult;
    const caps = r.capabilities;
    assert.equal(r.serverInfo?.name, 'tooldef');
    const sync = caps.textDocumentSync as { openClose?: boolean; change?: number };
    assert.equal(sync.openClose, true);
    assert.equal(sync.change, 2 /* Incremental */);
    assert.ok(caps.completionProvider, 'completionProvider');
    assert.deepEqual(caps.completionProvider.triggerCharacters, ['"', '{', ':'], 'never a comma or a space');
    assert.equal(caps.hoverProvider, true);
    const codeActionKinds = (caps.codeActionProvider as { codeActionKinds?: string[] }).codeActionKinds ?? [];
    assert.ok(
      codeActionKinds.includes('quickfix') && codeActionKinds.includes('refactor.rewrite'),
      JSON.stringify(caps.codeActionProvider),
    );
    assert.deepEqual(caps.renameProvider, { prepareProvider: true });
    for (const key of [
      'documentSymbolProvider',
      'definitionProvider',
      'referencesProvider',
      'documentHighlightProvider',
      'documentFormattingProvider',
      'documentRangeFormattingProvider',
      'foldingRangeProvider',
      'selectionRangeProvider',
    ] as const) {
      assert.equal(caps[key], true, key);
    }
  });

  test('a broken LLM tool gets unknown-placeholder with UTF-16 columns mapped through \\n, \\" and an emoji', async () => {
    const u = uri();
    const text = llm({
      prompt: 'Line one\n"quoted" 😀 then {{langauge}} end',
      variables: [{ name: 'language', type: 'text', description: 'Language', default: '' }],
    });
    // The prompt line as written in the file: escapes take two characters, the emoji two UTF-16 units.
    const promptLine = text.split('\n')[2];
    assert.equal(promptLine, '  "model_prompt": "Line one\\n\\"quoted\\" 😀 then {{langauge}} end",');
    const doc = await client.open(u, text);
    const ds = await client.waitForDiagnostics(u);
    assert.deepEqual(codesOf(ds), ['unknown-placeholder', 'unused-variable'], summary(ds));
    const d = ds.find((x) => x.code === 'unknown-placeholder')!;
    // `  "model_prompt": "` is 19 units; `Line one` 8, `\n` 2, `\"` 2, `quoted` 6, `\"` 2, ` ` 1, 😀 2, ` then ` 6 → 48.
    assert.deepEqual(d.range, { start: { line: 2, character: 48 }, end: { line: 2, character: 60 } });
    assert.equal(promptLine.indexOf('{{langauge}}'), 48);
    assert.equal(textAt(doc, d.range), '{{langauge}}');
    assert.equal(d.severity, 1);
    assert.equal(d.source, 'tooldef');
    assert.match(msg(d), /"langauge"/);
    assert.match(msg(d), /Did you mean "language"\?/);
    const unused = ds.find((x) => x.code === 'unused-variable')!;
    assert.equal(unused.severity, 2);
    assert.equal(textAt(doc, unused.range), '"language"');
    assert.deepEqual(unused.tags, [1 /* Unnecessary */]);
  });

  test('a smart tool gets python-syntax from the lazily loaded Python analysis (dist/python.js)', async () => {
    const u = uri();
    const text = smartToolText('def execute(variables):\n    return (variables["name"]\n');
    await client.open(u, text);
    const ds = await client.waitForDiagnostics(u, (d) => d.some((x) => x.code === 'python-syntax'));
    const d = ds.find((x) => x.code === 'python-syntax')!;
    const line = text.split('\n')[d.range.start.line];
    assert.ok(line.includes('"tool_code"'), line);
    assert.equal(line.slice(d.range.start.character, d.range.start.character + 1), '(');
  });

  test('a smart tool just opened gets its other problems at once, then the complete set with its Python', async () => {
    const u = uri('just_opened.json');
    const text = smartTool({
      code: 'def execute(variables):\n    return (variables["name"]\n',
      metadata: { tool_name: 'just_opened', timestamp: 'yesterday' },
    });
    await client.open(u, text);
    const complete = await client.waitForDiagnostics(u);
    const sets = client.published.filter((p) => p.uri === u);
    assert.deepEqual(
      sets.map((p) => [p.version, p.partial ?? false, codesOf(p.diagnostics)]),
      [
        [1, true, ['invalid-timestamp']],
        [1, false, ['invalid-timestamp', 'python-syntax']],
      ],
    );
    assert.deepEqual(sets[1].diagnostics, complete);
    // An edit keeps the last set until the complete one: no partial set hides the Python's problems.
    const at = posOf(text, 'yesterday');
    await client.change(u, [{ range: { start: at, end: at }, text: 'x' }]);
    await client.waitForDiagnostics(u);
    const later = client.published.filter((p) => p.uri === u).slice(2);
    assert.deepEqual(
      later.map((p) => [p.version, p.partial ?? false, codesOf(p.diagnostics)]),
      [[2, false, ['invalid-timestamp', 'python-syntax']]],
    );
  });

  test('diagnostics follow incremental didChange events', async () => {
    const u = uri();
    const text = llm();
    await client.open(u, text);
    assert.deepEqual(await client.waitForDiagnostics(u), []);

    // One notification, two incremental events applied in order: break a placeholder, then a parameter.
    const name = rangeOf(text, 'text}}');
    name.end = { line: name.start.line, character: name.start.character + 4 };
    const temp = rangeOf(text, '0.2');
    let doc = await client.change(u, [
      { range: name, text: 'txt' },
      { range: temp, text: '3.5' },
    ]);
    assert.equal(doc.version, 2);
    let ds = await client.waitForDiagnostics(u);
    assert.deepEqual(codesOf(ds), ['parameter-out-of-range', 'unknown-placeholder', 'unused-variable'], summary(ds));
    const unknown = ds.find((d) => d.code === 'unknown-placeholder')!;
    assert.equal(textAt(doc, unknown.range), '{{txt}}');
    assert.equal(textAt(doc, ds.find((d) => d.code === 'parameter-out-of-range')!.range), '3.5');
    assert.equal(textAt(doc, ds.find((d) => d.code === 'unused-variable')!.range), '"text"');

    // Insert a character (a pure insertion with an empty range) to fix the placeholder again.
    const at = posOf(doc.getText(), '{{txt}}', 3);
    doc = await client.change(u, [{ range: { start: at, end: at }, text: 'e' }]);
    assert.ok(doc.getText().includes('{{text}}'));
    ds = await client.waitForDiagnostics(u);
    assert.deepEqual(codesOf(ds), ['parameter-out-of-range'], summary(ds));

    // And a deletion (empty text) across the value.
    const t = rangeOf(doc.getText(), '3.5');
    doc = await client.change(u, [
      { range: { start: t.start, end: { line: t.start.line, character: t.start.character + 2 } }, text: '' },
    ]);
    assert.ok(doc.getText().includes('"temperature": 5'));
    ds = await client.waitForDiagnostics(u);
    assert.deepEqual(codesOf(ds), ['parameter-out-of-range'], summary(ds));
    assert.equal(textAt(doc, ds[0].range), '5');
    await client.close(u);
  });

  test('completion after {{ offers every variable name, including one with a space', async () => {
    // Unclosed: the edit inserts the name and the closing braces.
    {
      const { text, offset } = cursor(llm({ prompt: 'Summarise {{| please, in {{target language}} and {{text}}' }));
      const u = uri();
      const doc = await client.open(u, text);
      const pos = doc.positionAt(offset);
      const list = await client.request<CompletionList | CompletionItem[]>('textDocument/completion', {
        textDocument: { uri: u },
        position: pos,
      });
      const items = Array.isArray(list) ? list : list.items;
      assert.deepEqual(
        items.map((i) => i.label),
        ['text', 'target language'],
      );
      const byLabel = new Map(items.map((i) => [i.label, i]));
      const spaced = byLabel.get('target language')!;
      assert.equal(spaced.kind, 6 /* Variable */);
      assert.equal(spaced.detail, 'single-select');
      const edit = spaced.textEdit as TextEdit;
      assert.deepEqual(edit.range, { start: pos, end: pos });
      // `{{| please` is not closed before the next `{{`, so the braces are completed too.
      assert.equal(edit.newText, 'target language}}');
      assert.equal(applyEdits(doc, [edit]).includes('"Summarise {{target language}} please, in'), true);
      await client.close(u);
    }
    // After JSON escapes and an emoji on the same line: the range still lands on the typed characters.
    {
      const { text, offset } = cursor(
        llm({ prompt: 'Tab\there, "quote" 😀\n{{tar|}} and {{text}} {{target language}}' }),
      );
      const u = uri();
      const doc = await client.open(u, text);
      const list = await client.request<CompletionList>('textDocument/completion', {
        textDocument: { uri: u },
        position: doc.positionAt(offset),
      });
      const edit = list.items.find((i) => i.label === 'target language')?.textEdit as TextEdit;
      assert.ok(edit, JSON.stringify(list.items.map((i) => i.label)));
      assert.equal(textAt(doc, edit.range), 'tar');
      assert.equal(
        JSON.parse(applyEdits(doc, [edit])).model_prompt,
        'Tab\there, "quote" 😀\n{{target language}} and {{text}} {{target language}}',
      );
      await client.close(u);
    }
    // Closed with a partly typed name: the edit replaces what is between the braces.
    {
      const { text, offset } = cursor(llm({ prompt: 'Summarise {{ta|rg}} now {{text}} {{target language}}' }));
      const u = uri();
      const doc = await client.open(u, text);
      const list = await client.request<CompletionList>('textDocument/completion', {
        textDocument: { uri: u },
        position: doc.positionAt(offset),
      });
      const spaced = list.items.find((i) => i.label === 'target language');
      assert.ok(spaced, JSON.stringify(list.items.map((i) => i.label)));
      const edit = spaced.textEdit as TextEdit;
      assert.equal(textAt(doc, edit.range), 'targ');
      assert.equal(edit.newText, 'target language');
      assert.ok(applyEdits(doc, [edit]).includes('"Summarise {{target language}} now'));
      await client.close(u);
    }
  });

  test('hover on a placeholder shows the variable with its description', async () => {
    const text = llm({
      variables: [
        { name: 'text', type: 'text', description: 'The passage to summarise, e.g. an article.', default: '' },
        {
          name: 'target language',
          type: 'single-select',
          description: 'Language of the summary.',
          default: 'English',
          allowed_values: ['English', 'French'],
        },
      ],
    });
    const u = uri();
    const doc = await client.open(u, text);
    const h1 = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri: u },
      position: posOf(text, '{{text}}', 4),
    });
    const md1 = markdown(h1);
    assert.match(md1, /\*\*Variable `text`\*\* — text/);
    assert.ok(md1.includes('The passage to summarise, e.g. an article.'), md1);
    assert.equal(textAt(doc, h1.range!), 'text');

    const h2 = await client.request<Hover>('textDocument/hover', {
      textDocument: { uri: u },
      position: posOf(text, '{{target language}}', 9),
    });
    const md2 = markdown(h2);
    assert.match(md2, /\*\*Variable `target language`\*\* — single-select/);
    assert.ok(md2.includes('Language of the summary.'), md2);
    assert.ok(md2.includes('Allowed values: `English`, `French`'), md2);
    assert.deepEqual(h2.range, {
      start: posOf(text, '{{target language}}', 2),
      end: posOf(text, '{{target language}}', 17),
    });
    await client.close(u);
  });

  test('code actions for an unknown placeholder: "Change to …" and "Add variable"', async () => {
    const text = llm({ prompt: 'Summarise {{txt}} in {{target language}}.' });
    const u = uri();
    const doc = await client.open(u, text);
    const ds = await client.waitForDiagnostics(u, (d) => d.length > 0);
    const d = ds.find((x) => x.code === 'unknown-placeholder');
    assert.ok(d, summary(ds));
    assert.equal(textAt(doc, d.range), '{{txt}}');
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: u },
      range: d.range,
      context: { diagnostics: [d] },
    });
    const titles = actions.map((a) => a.title);
    assert.deepEqual(titles, ['Change to "text"', 'Add variable "txt"']);
    const change = actions[0];
    assert.equal(change.kind, 'quickfix');
    assert.equal(change.isPreferred, true);
    assert.deepEqual(
      change.diagnostics?.map((x) => x.code),
      ['unknown-placeholder'],
    );
    const changed = JSON.parse(applyEdits(doc, change.edit!.changes![u]));
    assert.equal(changed.model_prompt, 'Summarise {{text}} in {{target language}}.');

    const add = actions[1];
    assert.equal(add.kind, 'quickfix');
    const added = JSON.parse(applyEdits(doc, add.edit!.changes![u]));
    assert.equal(added.model_prompt, 'Summarise {{txt}} in {{target language}}.');
    assert.deepEqual(
      added.metadata.variables.map((v: { name: string }) => v.name),
      ['text', 'target language', 'txt'],
    );
    assert.deepEqual(added.metadata.variables[2], { name: 'txt', type: 'text', description: '', default: '' });

    // The fixed document validates clean except for the now-unused variable `text`.
    await client.change(u, applyEdits(doc, add.edit!.changes![u]));
    const after = await client.waitForDiagnostics(u);
    assert.deepEqual(codesOf(after), ['unused-variable'], summary(after));
    await client.close(u);
  });

  test('rename of a variable edits its declaration and every placeholder, escaping the new name', async () => {
    const text = llm({ prompt: 'Read {{text}}.\nThen summarise {{text}} in {{target language}}; quote {{text}}.' });
    const u = uri();
    const doc = await client.open(u, text);
    assert.deepEqual(await client.waitForDiagnostics(u), []);
    const at = posOf(text, '{{text}}', 3, text.indexOf('Then'));
    const prep = await client.request<{ range: Range; placeholder: string }>('textDocument/prepareRename', {
      textDocument: { uri: u },
      position: at,
    });
    assert.equal(prep.placeholder, 'text');
    assert.equal(textAt(doc, prep.range), 'text');

    const edit = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: u },
      position: at,
      newName: 'the "source"',
    });
    const edits = edit.changes![u];
    assert.equal(edits.length, 4, JSON.stringify(edits));
    for (const e of edits) {
      assert.equal(e.newText, 'the \\"source\\"');
      assert.equal(textAt(doc, e.range), 'text');
    }
    const renamed = JSON.parse(applyEdits(doc, edits));
    assert.equal(
      renamed.model_prompt,
      'Read {{the "source"}}.\nThen summarise {{the "source"}} in {{target language}}; quote {{the "source"}}.',
    );
    assert.equal(renamed.metadata.variables[0].name, 'the "source"');
    assert.equal(renamed.metadata.variables[1].name, 'target language');
    // The renamed document is still consistent.
    await client.change(u, applyEdits(doc, edits));
    assert.deepEqual(await client.waitForDiagnostics(u), []);

    // From the declaration works as well.
    const decl = posOf(doc.getText(), '"target language"', 3, doc.getText().indexOf('"variables"'));
    const edit2 = await client.request<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: u },
      position: decl,
      newName: 'lang',
    });
    assert.deepEqual(
      edit2.changes![u].map((e) => [textAt(doc, e.range), e.newText]),
      [
        ['target language', 'lang'],
        ['target language', 'lang'],
      ],
    );
    await client.close(u);
  });

  test('rename to the name of another variable is refused with an error', async () => {
    const text = llm();
    const u = uri();
    await client.open(u, text);
    await assert.rejects(
      client.request('textDocument/rename', {
        textDocument: { uri: u },
        position: posOf(text, '{{text}}', 3),
        newName: 'target language',
      }),
      (e: { code?: number; message?: string }) => {
        assert.equal(e.code, -32600 /* InvalidRequest */);
        assert.equal(e.message, 'A variable named "target language" already exists.');
        return true;
      },
    );
    await assert.rejects(
      client.request('textDocument/rename', {
        textDocument: { uri: u },
        position: posOf(text, '{{text}}', 3),
        newName: 'a}}b',
      }),
      /cannot contain "\{\{" or "\}\}"/,
    );
    await assert.rejects(
      client.request('textDocument/rename', {
        textDocument: { uri: u },
        position: posOf(text, '{{text}}', 3),
        newName: '  ',
      }),
      /cannot be empty/,
    );
    // Not on a variable: refused too, and prepareRename says so with null.
    const elsewhere = posOf(text, '"description"', 3);
    assert.equal(
      await client.request('textDocument/prepareRename', { textDocument: { uri: u }, position: elsewhere }),
      null,
    );
    await assert.rejects(
      client.request('textDocument/rename', { textDocument: { uri: u }, position: elsewhere, newName: 'x' }),
      /Only a declared variable can be renamed/,
    );
    await client.close(u);
  });

  test('definition, references and highlights link placeholders to their declaration', async () => {
    const text = llm({ prompt: '{{text}} and {{text}} in {{target language}}' });
    const u = uri();
    const doc = await client.open(u, text);
    const at = posOf(text, '{{text}}', 2);
    const declRange = rangeOf(text, '"text"', text.indexOf('"variables"'));
    const defs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri: u },
      position: at,
    });
    assert.equal(defs.length, 1);
    assert.equal(defs[0].uri, u);
    assert.equal(textAt(doc, defs[0].range), '"text"');
    assert.deepEqual(defs[0].range, declRange);
    const refs = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: u },
      position: at,
      context: { includeDeclaration: false },
    });
    assert.equal(refs.length, 2);
    assert.deepEqual(
      refs.map((r) => textAt(doc, r.range)),
      ['text', 'text'],
    );
    const withDecl = await client.request<Location[]>('textDocument/references', {
      textDocument: { uri: u },
      position: at,
      context: { includeDeclaration: true },
    });
    assert.equal(withDecl.length, 3);
    const hl = await client.request<DocumentHighlight[]>('textDocument/documentHighlight', {
      textDocument: { uri: u },
      position: at,
    });
    assert.deepEqual(hl.map((h) => h.kind).sort(), [2, 2, 3]);
    await client.close(u);
  });

  test('documentSymbol gives the outline with variables named by their name', async () => {
    const text = llm();
    const u = uri();
    const doc = await client.open(u, text);
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: u } });
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['version', 'model_prompt', 'metadata'],
    );
    const metadata = symbols[2];
    assert.equal(metadata.kind, 2 /* Module */);
    assert.equal(textAt(doc, metadata.selectionRange), '"metadata"');
    assert.ok(textAt(doc, metadata.range).startsWith('"metadata": {'));
    const names = metadata.children!.map((s) => s.name);
    assert.deepEqual(names, [
      'prompt_name',
      'description',
      'usage_notes',
      'model_version',
      'creator',
      'parameters',
      'variables',
      'expected_output',
      'avatar_type',
      'avatar',
      'timestamp',
    ]);
    const variables = metadata.children!.find((s) => s.name === 'variables')!;
    assert.deepEqual(
      variables.children!.map((s) => [s.name, s.kind, s.detail]),
      [
        ['text', 13 /* Variable */, 'text'],
        ['target language', 13, 'single-select'],
      ],
    );
    assert.equal(symbols[0].detail, '1.0');
    await client.close(u);
  });

  test('formatting a minified definition returns edits that indent it', async () => {
    const pretty = llm();
    const minified = JSON.stringify(JSON.parse(pretty));
    const u = uri();
    const doc = await client.open(u, minified);
    const edits = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri: u },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.ok(edits.length > 0);
    assert.equal(applyEdits(doc, edits), pretty);

    const tabs = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri: u },
      options: { tabSize: 4, insertSpaces: false },
    });
    const tabbed = applyEdits(doc, tabs);
    assert.equal(tabbed.split('\n')[1], '\t"version": "1.0",');
    assert.deepEqual(JSON.parse(tabbed), JSON.parse(pretty));

    // An already formatted document needs no edits.
    await client.change(u, pretty);
    assert.deepEqual(
      await client.request('textDocument/formatting', {
        textDocument: { uri: u },
        options: { tabSize: 2, insertSpaces: true },
      }),
      [],
    );
    await client.close(u);
  });

  test('formatting a deeply nested value returns well-formed edits (every edit has its newText)', async () => {
    // 51 levels at tabSize 4: the innermost line is indented by exactly 200 spaces.
    const depth = 51;
    const text = llm({ metadata: { notes: JSON.parse('['.repeat(depth) + ']'.repeat(depth)) } });
    const u = uri();
    const doc = await client.open(u, JSON.stringify(JSON.parse(text)));
    const edits = await client.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri: u },
      options: { tabSize: 4, insertSpaces: true },
    });
    const broken = edits.filter((e) => typeof e.newText !== 'string');
    assert.deepEqual(broken, [], `${broken.length} of ${edits.length} edits have no newText`);
    const formatted = applyEdits(doc, edits);
    assert.equal(formatted, JSON.stringify(JSON.parse(text), null, 4));
    await client.close(u);
  });

  test('tooldef/documentKind forcing "smart" on a half-written file yields missing-field diagnostics', async () => {
    const text = '{\n  "version": "1.0",\n  "metadata": {\n    "description": "work in progress"\n  }\n}\n';
    const u = uri('wip.json');
    const doc = await client.open(u, text);
    // Not recognisable as a definition yet: nothing to report.
    assert.deepEqual(await client.waitForDiagnostics(u), []);

    await client.notify('tooldef/documentKind', { uri: u, kind: 'smart' });
    const ds = await client.waitForDiagnostics(u, (d) => d.some((x) => x.code === 'missing-field'));
    const missing = ds.filter((d) => d.code === 'missing-field');
    assert.equal(missing.length, 2, summary(ds));
    assert.ok(
      missing.some((d) => msg(d).includes('"tool_name"')),
      summary(missing),
    );
    assert.ok(
      missing.some((d) => msg(d).includes('"tool_code"')),
      summary(missing),
    );
    for (const d of missing) {
      assert.equal(d.severity, 1);
      assert.equal(d.range.start.line, 2, 'anchored on the "metadata": { line');
      assert.ok(textAt(doc, d.range).startsWith('"metadata"'), textAt(doc, d.range));
    }
    // Recommended smart-tool fields are warnings.
    const recommended = ds
      .filter((d) => d.code === 'missing-recommended-field')
      .map((d) => /"(\w+)"/.exec(msg(d))?.[1])
      .sort();
    assert.deepEqual(recommended, [
      'creator',
      'expected_output',
      'model_version',
      'timestamp',
      'usage_notes',
      'variables',
    ]);

    // Completion now knows the kind: the required smart fields are offered in metadata.
    const inMeta = posOf(text, '"description"', 1);
    const list = await client.request<CompletionList>('textDocument/completion', {
      textDocument: { uri: u },
      position: inMeta,
    });
    const labels = list.items.map((i) => i.label);
    assert.ok(labels.includes('tool_name') && labels.includes('tool_code'), JSON.stringify(labels));

    // Back to detection: the diagnostics go away again.
    await client.notify('tooldef/documentKind', { uri: u, kind: null });
    assert.deepEqual(await client.waitForDiagnostics(u, (d) => d.length === 0), []);

    // Forcing 'llm' gives the LLM requirements instead.
    await client.notify('tooldef/documentKind', { uri: u, kind: 'llm' });
    const llmDs = await client.waitForDiagnostics(u, (d) => d.length > 0);
    const llmMissing = llmDs
      .filter((d) => d.code === 'missing-field')
      .map((d) => /"(\w+)"/.exec(msg(d))?.[1])
      .sort();
    assert.deepEqual(llmMissing, ['creator', 'model_prompt', 'model_version', 'timestamp'], summary(llmDs));
    await client.close(u);
  });

  test('two open smart tools with the same tool_name both get duplicate-tool-name', async () => {
    const a = `file:///lsp-test/dup-a-${++seq}/shared.json`;
    const b = `file:///lsp-test/dup-b-${++seq}/shared.json`;
    const text = smartTool({ metadata: { tool_name: 'shared' } });
    const docA = await client.open(a, text);
    assert.deepEqual(await client.waitForDiagnostics(a), []);
    const docB = await client.open(b, text);
    const dsB = await client.waitForDiagnostics(b, (d) => d.length > 0);
    const dsA = await client.waitForDiagnostics(a, (d) => d.length > 0);
    for (const [ds, doc, other] of [
      [dsA, docA, b],
      [dsB, docB, a],
    ] as const) {
      assert.deepEqual(codesOf(ds), ['duplicate-tool-name'], summary(ds));
      const d = ds[0];
      assert.equal(d.severity, 2);
      assert.equal(textAt(doc, d.range), '"shared"');
      assert.equal(d.relatedInformation?.length, 1);
      assert.equal(d.relatedInformation![0].location.uri, other);
      assert.equal(d.relatedInformation![0].location.range.start.line, posOf(text, '"shared"').line);
    }
    // Renaming one tool clears the warning in both.
    const r = rangeOf(docB.getText(), '"shared"');
    await client.change(b, [{ range: r, text: '"unique"' }]);
    assert.deepEqual(
      await client.waitForDiagnostics(b, (d) => !d.some((x) => x.code === 'duplicate-tool-name')).then(codesOf),
      ['file-name-mismatch'],
    );
    assert.deepEqual(await client.waitForDiagnostics(a, (d) => d.length === 0), []);
    // Renaming it back brings it back; closing the other document clears it.
    await client.change(b, text);
    await client.waitForDiagnostics(a, (d) => d.some((x) => x.code === 'duplicate-tool-name'));
    await client.close(b);
    assert.deepEqual(await client.waitForDiagnostics(a, (d) => d.length === 0), []);
    assert.deepEqual(await client.waitForDiagnostics(b, (d) => d.length === 0), []);
    await client.close(a);
  });
});

/** The server's debug log of each Python analysis of `uri`: "analysed of statements", in order. */
function analyses(client: LspClient, uri: string): string[] {
  const prefix = `Python analysis of ${uri}: `;
  return client.log
    .filter((l) => l.message.startsWith(prefix))
    .map((l) => /^(\d+ of \d+) top-level statements analysed/.exec(l.message.slice(prefix.length))?.[1] ?? l.message);
}

test(
  'a broken message stream: the server says so and exits, so that the client can start a new one',
  { timeout: 60_000 },
  async () => {
    for (const garbage of ['Content-Length: lots\r\n\r\n{}', 'Content-Length: 2\r\n\r\n{]']) {
      const child = spawn(process.execPath, [join(repoRoot(), 'dist', 'server.js'), '--stdio'], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.stdin.write(garbage);
      assert.equal(await exited, 1, stderr);
      assert.match(stderr, /the message stream from the client is broken \(.+\); exiting/);
    }
  },
);

test('an avatar URL is shown as an image only once the client says the workspace is trusted', async () => {
  const client = await LspClient.start({ initializationOptions: { trusted: false } });
  try {
    const url = 'https://img.example/avatar.png';
    const text = llmTool({ metadata: { avatar_type: 'url', avatar: url } });
    const u = uri('trust.json');
    await client.open(u, text);
    await client.waitForDiagnostics(u);
    const doc = TextDocument.create(u, 'json', 1, text);
    const position = doc.positionAt(text.indexOf(url) + 3);
    const shown = async () =>
      (
        (await client.request<Hover>('textDocument/hover', { textDocument: { uri: u }, position })).contents as {
          value: string;
        }
      ).value;
    assert.match(await shown(), /Restricted Mode/);
    await client.notify('tooldef/workspaceTrust', { trusted: true });
    assert.match(await shown(), /^!\[avatar\]\(https:\/\/img\.example\/avatar\.png\)/);
  } finally {
    await client.dispose();
  }
});

test('a large tool_code is analysed in slices: requests are answered meanwhile and a newer version replaces it', async () => {
  // A fresh server: no warm-up has run, so the first analysis pays for loading and compiling too.
  const client = await LspClient.start();
  try {
    const helpers = Array.from(
      { length: 1500 },
      (_, i) =>
        `def helper_${i}(value):\n    items = [p.strip() for p in str(value).split(",")]\n    return " ".join(items)\n`,
    ).join('\n');
    const text = smartToolText(`${helpers}\ndef execute(variables):\n    return helper_1(variables["nmae"])\n`);
    const u = uri('large.json');
    await client.open(u, text);
    // As VS Code does on open: the outline (which lists the Python functions) and the semantic tokens
    // (which mark the variables["…"] keys) are asked for at once.
    const outline = client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: u } });
    const tokens = client.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: u } });
    let outlined = false;
    void Promise.all([outline, tokens]).then(() => (outlined = true));
    const at = posOf(text, '"version"', 2);
    let answeredBefore = 0;
    let hovers = 0;
    const published = () => client.published.some((p) => p.uri === u && !p.partial);
    while (!published() || !outlined) {
      const hover = await client.request<Hover | null>('textDocument/hover', {
        textDocument: { uri: u },
        position: at,
      });
      assert.match((hover!.contents as MarkupContent).value, /version/i);
      hovers++;
      if (!published() && !outlined) answeredBefore++;
    }
    assert.ok(
      answeredBefore > 0,
      `${hovers} hovers, none answered before the diagnostics, the outline and the semantic tokens`,
    );
    assert.ok(client.diagnostics.get(u)!.diagnostics.some((d) => d.code === 'unknown-variable-key'));
    const code = (await outline).flatMap((s) => s.children ?? []).find((s) => s.name === 'tool_code');
    assert.ok(
      code?.children?.some((s) => s.name === 'execute'),
      'the outline lists execute under tool_code',
    );
    assert.equal((await tokens).data.length, 5, 'a token for the declared variable (the key nmae names none)');

    // An edit right after the open of another copy: only the newer version's analysis is published.
    const v = uri('large2.json');
    await client.open(v, text);
    const i = text.indexOf('nmae');
    await client.change(v, [
      { range: { start: client.document(v).positionAt(i), end: client.document(v).positionAt(i + 4) }, text: 'name' },
    ]);
    const ds = await client.waitForDiagnostics(v);
    assert.equal(client.diagnostics.get(v)!.version, 2);
    assert.ok(!ds.some((d) => d.code === 'unknown-variable-key'), JSON.stringify(ds.map((d) => d.code)));
  } finally {
    await client.dispose();
  }
});

test('on a workspace with smart tools the Python analysis warms up in slices, answering requests meanwhile', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  writeFileSync(join(folder, 'tool.json'), smartToolText('def execute(variables):\n    return variables["name"]\n'));
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    const logged = (pattern: RegExp) => client.log.some((l) => pattern.test(l.message));
    const u = uri();
    const text = llm();
    await client.open(u, text);
    const at = posOf(text, '"version"', 2);
    let during = 0;
    const deadline = Date.now() + 30_000;
    while (!logged(/warmed up in \d+ ms/) && Date.now() < deadline) {
      await client.request('textDocument/hover', { textDocument: { uri: u }, position: at });
      if (logged(/^Warming the Python analysis up/) && !logged(/warmed up in/)) during++;
    }
    assert.ok(logged(/warmed up in \d+ ms/), client.log.map((l) => l.message).join('\n'));
    assert.ok(during > 0, 'no request was answered while the warm-up ran');
    assert.ok(!client.log.some((l) => l.type === 1), 'nothing failed');
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('smart tools on disk are analysed while idle, so opening one reuses that analysis', async () => {
  const module = (tag: string, key: string) =>
    Array.from(
      { length: 1000 },
      (_, i) =>
        `def ${tag}_${i}(value):\n    items = [p.strip() for p in str(value).split(",")]\n    return " ".join(items)\n`,
    ).join('\n') + `\ndef execute(variables):\n    return ${tag}_1(variables["${key}"])\n`;
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const tool = (tag: string, key: string) =>
    smartToolText(module(tag, key)).replace('"tool_name": "tool"', `"tool_name": "${tag}"`);
  const onDisk = { a: tool('alpha', 'nmae'), b: tool('beta', 'nmae') };
  writeFileSync(join(folder, 'alpha.json'), onDisk.a);
  writeFileSync(join(folder, 'beta.json'), onDisk.b);
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    const logged = (pattern: RegExp) => client.log.find((l) => pattern.test(l.message));
    await until(() => !!logged(/warmed up in \d+ ms/), 60_000);
    assert.match(
      logged(/ahead of opening/)?.message ?? client.log.map((l) => l.message).join('\n'),
      /^Analysed 2 smart tools \(8006 lines of Python\) of the workspace ahead of opening in \d+ ms$/,
    );

    const open = async (u: string, text: string) => {
      await client.open(u, text);
      const codes = (await client.waitForDiagnostics(u)).map((d) => String(d.code));
      return { codes, work: analyses(client, u) };
    };
    // As on disk: the analysis done ahead gives the diagnostics; nothing is analysed on opening.
    const a = await open(pathToFileURL(join(folder, 'alpha.json')).href, onDisk.a);
    assert.deepEqual(a.codes, ['unknown-variable-key', 'unused-variable']);
    assert.deepEqual(
      a.work.filter((w) => !w.startsWith('0 of ')),
      [],
    );
    // Changed since (unsaved edits restored by VS Code): re-parsed from the tree made ahead, one statement analysed.
    const b = await open(pathToFileURL(join(folder, 'beta.json')).href, onDisk.b.replace('nmae', 'name'));
    assert.deepEqual(b.codes, []);
    assert.deepEqual(b.work, ['1 of 1001']);
    // A file that was not on disk pays for the whole analysis.
    const fresh = await open(uri('gamma.json'), tool('gamma', 'nmae'));
    assert.deepEqual(fresh.codes, ['unknown-variable-key', 'unused-variable']);
    assert.deepEqual(fresh.work, ['1001 of 1001']);
    assert.ok(!client.log.some((l) => l.type === 1), 'nothing failed');
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

test('smart tools created or changed on disk after start-up are analysed ahead too', async () => {
  const module = (key: string) =>
    Array.from(
      { length: 1000 },
      (_, i) =>
        `def delta_${i}(value):\n    items = [p.strip() for p in str(value).split(",")]\n    return " ".join(items)\n`,
    ).join('\n') + `\ndef execute(variables):\n    return delta_1(variables["${key}"])\n`;
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const tool = (key: string) => smartToolText(module(key)).replace('"tool_name": "tool"', '"tool_name": "delta"');
  writeFileSync(
    join(folder, 'small.json'),
    smartToolText('def execute(variables):\n    return variables["name"]\n').replace(
      '"tool_name": "tool"',
      '"tool_name": "small"',
    ),
  );
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    const logs = (pattern: RegExp) => client.log.filter((l) => pattern.test(l.message)).map((l) => l.message);
    const settled = async (what: () => boolean) => {
      await until(what, 60_000);
      assert.ok(what(), client.log.map((l) => l.message).join('\n'));
    };
    await settled(() => logs(/warmed up in \d+ ms/).length > 0);
    const file = join(folder, 'delta.json');
    const u = pathToFileURL(file).href;
    const open = async (text: string) => {
      const before = analyses(client, u).length;
      await client.open(u, text);
      const codes = (await client.waitForDiagnostics(u)).map((d) => String(d.code));
      return { codes, work: analyses(client, u).slice(before) };
    };

    // Created outside the editor (VS Code's watcher reports it): analysed while idle.
    writeFileSync(file, tool('nmae'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: u, type: 1 }] });
    await settled(() => logs(/changed on disk ahead of opening/).length === 1);
    assert.match(
      logs(/changed on disk/)[0],
      /^Analysed 1 smart tool \(4003 lines of Python\) changed on disk ahead of opening in \d+ ms$/,
    );
    const created = await open(tool('nmae'));
    assert.deepEqual(created.codes, ['unknown-variable-key', 'unused-variable']);
    assert.deepEqual(
      created.work.filter((w) => !w.startsWith('0 of ')),
      [],
      'opened with the analysis made ahead',
    );
    await client.close(u);

    // Changed on disk while closed: analysed again from the kept tree, then opened at once.
    writeFileSync(file, tool('name'));
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: u, type: 2 }] });
    await settled(() => logs(/changed on disk ahead of opening/).length === 2);
    const changed = await open(tool('name'));
    assert.deepEqual(changed.codes, []);
    assert.deepEqual(
      changed.work.filter((w) => !w.startsWith('0 of ')),
      [],
      'opened with the analysis made ahead',
    );

    // Saving the open file reports it changed too: nothing to analyse ahead, nothing logged.
    await client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: u, type: 2 }] });
    await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 0, character: 1 } });
    assert.equal(logs(/changed on disk ahead of opening/).length, 2);

    // A file that was not on disk pays for the whole analysis.
    const other = uri('other.json');
    await client.open(other, tool('nmae').replace('"tool_name": "delta"', '"tool_name": "other"'));
    await client.waitForDiagnostics(other);
    assert.deepEqual(analyses(client, other), ['1001 of 1001']);
    assert.ok(!client.log.some((l) => l.type === 1), 'nothing failed');
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

test("a workspace file opened under VS Code's spelling of its URI is the same file, not a duplicate of itself", async () => {
  // VS Code percent-encodes `@`, `+` and `,` in paths (and a Windows drive's colon); Node's
  // pathToFileURL, which the workspace scan uses, does not.
  const folder = mkdtempSync(join(tmpdir(), 'tooldef-lsp-a@b+c,d-'));
  const text = smartToolText('def execute(variables):\n    return variables["name"]\n').replace(
    '"tool_name": "tool"',
    '"tool_name": "same"',
  );
  writeFileSync(join(folder, 'same.json'), text);
  const client = await LspClient.start({ workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'tools' }] });
  try {
    await until(() => client.log.some((l) => /warmed up in \d+ ms/.test(l.message)), 60_000);
    assert.match(client.log.find((l) => /ahead of opening/.test(l.message))?.message ?? '', /^Analysed 1 smart tool /);
    const vscodeUri = 'file://' + join(folder, 'same.json').split('/').map(encodeURIComponent).join('/');
    assert.notEqual(vscodeUri, pathToFileURL(join(folder, 'same.json')).href);
    await client.open(vscodeUri, text);
    assert.deepEqual(
      (await client.waitForDiagnostics(vscodeUri)).map((d) => d.code),
      [],
    );
  } finally {
    await client.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
});

/** The files the duplicate-tool-name problems of a document point to, sorted. */
function namesakesIn(ds: Diagnostic[]): string[] {
  return ds
    .filter((d) => d.code === 'duplicate-tool-name')
    .flatMap((d) => d.relatedInformation!.map((r) => r.location.uri))
    .sort();
}

/** The namesakes of `uri` once the server publishes exactly `expected` (sorted) for it. */
function namesakesOf(client: LspClient, uri: string, expected: string[]): Promise<string[]> {
  const want = JSON.stringify([...expected].sort());
  return client.waitForDiagnostics(uri, (ds) => JSON.stringify(namesakesIn(ds)) === want).then(namesakesIn);
}

test('folders added to and removed from the workspace change which tool names are taken', async () => {
  const first = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const second = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const named = (name: string) => llm({ metadata: { prompt_name: name } });
  writeFileSync(join(first, 'other.json'), named('Twin'));
  writeFileSync(join(second, 'another.json'), named('Twin'));
  const folder = (path: string) => ({ uri: pathToFileURL(path).href, name: path });
  const client = await LspClient.start({ workspaceFolders: [folder(first)] });
  try {
    const u = uri();
    await client.open(u, named('Twin'));
    assert.deepEqual(namesakesIn(await client.waitForDiagnostics(u, (ds) => namesakesIn(ds).length > 0)), [
      pathToFileURL(join(first, 'other.json')).href,
    ]);
    await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [], removed: [folder(first)] } });
    await client.waitForDiagnostics(u, (ds) => namesakesIn(ds).length === 0);
    await client.notify('workspace/didChangeWorkspaceFolders', { event: { added: [folder(second)], removed: [] } });
    assert.deepEqual(namesakesIn(await client.waitForDiagnostics(u, (ds) => namesakesIn(ds).length > 0)), [
      pathToFileURL(join(second, 'another.json')).href,
    ]);
  } finally {
    await client.dispose();
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  }
});

test('folders created, renamed and deleted in VS Code bring their definitions into the index or take them out', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const named = (name: string) => llm({ metadata: { prompt_name: name } });
  mkdirSync(join(root, 'old'));
  writeFileSync(join(root, 'old', 'twin.json'), named('Twin'));
  const href = (...parts: string[]) => pathToFileURL(join(root, ...parts)).href;
  const client = await LspClient.start({ workspaceFolders: [{ uri: href(), name: 'root' }] });
  try {
    const u = uri();
    await client.open(u, named('Twin'));
    const namesakes = (expected: string[]) => namesakesOf(client, u, expected);
    assert.deepEqual(await namesakes([href('old', 'twin.json')]), [href('old', 'twin.json')]);
    renameSync(join(root, 'old'), join(root, 'new'));
    await client.notify('workspace/didRenameFiles', { files: [{ oldUri: href('old'), newUri: href('new') }] });
    assert.deepEqual(await namesakes([href('new', 'twin.json')]), [href('new', 'twin.json')]);
    rmSync(join(root, 'new'), { recursive: true });
    await client.notify('workspace/didDeleteFiles', { files: [{ uri: href('new') }] });
    await namesakes([]);
    mkdirSync(join(root, 'pasted'));
    writeFileSync(join(root, 'pasted', 'copy.json'), named('Twin'));
    await client.notify('workspace/didCreateFiles', { files: [{ uri: href('pasted') }] });
    assert.deepEqual(await namesakes([href('pasted', 'copy.json')]), [href('pasted', 'copy.json')]);
  } finally {
    await client.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('definitions in dependencies, build output and hidden folders are never namesakes: scanned, watched or created', async () => {
  const root = mkdtempSync(join(tmpdir(), 'tooldef-lsp-'));
  const named = (name: string) => llm({ metadata: { prompt_name: name } });
  const put = (...parts: string[]) => {
    mkdirSync(join(root, ...parts.slice(0, -1)), { recursive: true });
    writeFileSync(join(root, ...parts), named('Twin'));
  };
  const href = (...parts: string[]) => pathToFileURL(join(root, ...parts)).href;
  for (const dir of ['node_modules', '.hidden', 'dist']) put(dir, 'pkg', 'twin.json');
  put('tools', 'twin.json');
  const client = await LspClient.start({ workspaceFolders: [{ uri: href(), name: 'root' }] });
  try {
    const u = uri();
    await client.open(u, named('Twin'));
    const namesakes = (expected: string[]) => namesakesOf(client, u, expected);
    // The start-up scan: only tools/.
    assert.deepEqual(await namesakes([href('tools', 'twin.json')]), [href('tools', 'twin.json')]);
    // The watcher: one notification (handled in order, revalidated once) with a file in node_modules and one beside it.
    put('node_modules', 'pkg', 'late.json');
    put('late.json');
    await client.notify('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: href('node_modules', 'pkg', 'late.json'), type: 1 },
        { uri: href('late.json'), type: 1 },
      ],
    });
    const watched = [href('late.json'), href('tools', 'twin.json')].sort();
    assert.deepEqual(await namesakes(watched), watched);
    assert.deepEqual(namesakesIn(await client.waitForDiagnostics(u)), watched, 'nothing from node_modules');
    // Folders created in VS Code: one notification with build output and a folder of tools.
    put('out', 'built.json');
    put('pasted', 'copy.json');
    await client.notify('workspace/didCreateFiles', { files: [{ uri: href('out') }, { uri: href('pasted') }] });
    const created = [...watched, href('pasted', 'copy.json')].sort();
    assert.deepEqual(await namesakes(created), created);
  } finally {
    await client.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});

test('a settings change, or closing and opening a document again, does not analyse its Python again', async () => {
  const client = await LspClient.start();
  try {
    const module = (tag: string) =>
      Array.from(
        { length: 1200 },
        (_, i) =>
          `def ${tag}_${i}(value):\n    items = [p.strip() for p in str(value).split(",")]\n    return " ".join(items)\n`,
      ).join('\n') + `\ndef execute(variables):\n    return ${tag}_1(variables["nmae"])\n`;
    const codes = (ds: Diagnostic[]) => ds.map((d) => String(d.code));
    const flagged = (ds: Diagnostic[]) => codes(ds).includes('unknown-variable-key');
    const a = uri('a.json');
    const textA = smartToolText(module('alpha'));
    await client.open(a, textA);
    await client.waitForDiagnostics(a, flagged);
    assert.deepEqual(analyses(client, a), ['1201 of 1201']);
    await client.notify('workspace/didChangeConfiguration', {
      settings: { tooldef: { rules: { 'unknown-variable-key': 'off' } } },
    });
    await client.waitForDiagnostics(a, (ds) => !flagged(ds));
    await client.close(a);
    await client.open(a, textA);
    await client.waitForDiagnostics(a, (ds) => !flagged(ds) && codes(ds).includes('unused-variable'));
    // Whatever ran after the first analysis analysed nothing again.
    assert.deepEqual(
      analyses(client, a)
        .slice(1)
        .filter((w) => !w.startsWith('0 of ')),
      [],
    );
  } finally {
    await client.dispose();
  }
});

test('the server and its Python analysis start from code caches in the directory the client names, made on a first start', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tooldef-cache-')), 'code-cache');
  const env = { ...process.env, TOOLDEF_CODE_CACHE: dir };
  const caches = () => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const cacheOf = (bundle: string) => caches().find((n) => n.startsWith(`${bundle}-`));
  const stale = 'server-main-0000000000000000-1.0.cache';
  const works = async (client: LspClient) => {
    const llm = uri('cached.json');
    await client.open(llm, llmTool({ prompt: 'Summarise {{txet}}.' }));
    assert.ok((await client.waitForDiagnostics(llm)).some((d) => d.code === 'unknown-placeholder'));
    // The Python analysis (dist/python.js, loaded on first use) runs from its cache as well.
    const smart = uri('cached-smart.json');
    await client.open(smart, smartToolText('def execute(variables):\n    return nme\n'));
    assert.ok((await client.waitForDiagnostics(smart)).some((d) => d.code === 'undefined-name'));
  };
  let client: LspClient | undefined;
  try {
    // A cache of another build is removed when the new one is written.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, stale), 'stale');
    client = await LspClient.start({ env });
    await until(() => caches().length === 1 && caches()[0] !== stale, 10_000);
    const main = cacheOf('server-main')!;
    assert.match(main ?? caches().join(','), /^server-main-[0-9a-f]{16}-.+\.cache$/);
    const atStart = readFileSync(join(dir, main));
    // Files opened after that compile the validation's code: the cache made at exit holds it too.
    await works(client);
    await client.shutdown();
    const python = cacheOf('python')!;
    assert.match(python ?? caches().join(','), /^python-[0-9a-f]{16}-.+\.cache$/);
    assert.deepEqual(caches(), [python, main]);
    const atExit = readFileSync(join(dir, main));
    assert.ok(atExit.length > atStart.length, `${atExit.length} bytes at exit, ${atStart.length} a second after start`);
    const made = caches().map((n) => statSync(join(dir, n)).mtimeMs);

    // Started from them: V8 accepts both, so neither is written again.
    client = await LspClient.start({ env });
    await works(client);
    await new Promise((r) => setTimeout(r, 1300));
    await client.shutdown();
    assert.deepEqual(caches(), [python, main]);
    assert.deepEqual(
      caches().map((n) => statSync(join(dir, n)).mtimeMs),
      made,
    );

    // A cache V8 rejects (another V8, flags, a damaged file) is written anew; the server starts anyway.
    for (const name of [main, python]) writeFileSync(join(dir, name), Buffer.alloc(4096, 7));
    client = await LspClient.start({ env });
    await works(client);
    await until(() => caches().every((n) => statSync(join(dir, n)).size !== 4096), 10_000);
    await client.shutdown();
    for (const name of [main, python]) assert.notEqual(statSync(join(dir, name)).size, 4096, name);
    assert.deepEqual(client.exitStatus, { code: 0, signal: null });
  } finally {
    await client?.dispose(); // a failed assertion leaves it running
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

test('shutdown then exit ends the server process with status 0', async () => {
  const client = await LspClient.start();
  assert.ok(client.alive);
  await client.shutdown();
  assert.equal(client.alive, false);
  assert.deepEqual(client.exitStatus, { code: 0, signal: null });
});

// ---------------------------------------------------------------------------------------------

function randomBytesText(seed: number, length: number): string {
  const next = mulberry32(seed);
  const pieces = [
    '{',
    '}',
    '[',
    ']',
    '"',
    '\\',
    ':',
    ',',
    '{{',
    '}}',
    '\n',
    '\r\n',
    '\u2028',
    '\0',
    '\ud83d',
    '\ude00',
    '😀',
    'model_prompt',
    'metadata',
    'tool_code',
  ];
  let s = '';
  while (s.length < length) {
    const r = next();
    if (r < 0.5) s += String.fromCharCode(Math.floor(next() * 256));
    else if (r < 0.6) s += String.fromCharCode(Math.floor(next() * 0x10000));
    else s += pieces[Math.floor(next() * pieces.length)];
  }
  return s;
}

describe('tooldef language server survives garbage', () => {
  const deep = 10_000;
  const garbage: [string, string][] = [
    ['random bytes', randomBytesText(1, 20_000)],
    ['random bytes after a model_prompt', `{"model_prompt": "{{${randomBytesText(2, 5_000)}`],
    ['10,000 unclosed [', '['.repeat(deep)],
    ['10,000 balanced [ ]', '['.repeat(deep) + ']'.repeat(deep)],
    ['10,000 nested objects', '{"a":'.repeat(deep) + '1' + '}'.repeat(deep)],
    ['an LLM tool whose metadata is 10,000 unclosed [', `{"model_prompt": "{{x}}", "metadata": ${'['.repeat(deep)}`],
    [
      'an LLM tool with 10,000 nested arrays as variables',
      `{"model_prompt": "{{x}}", "metadata": {"variables": ${'['.repeat(deep)}${']'.repeat(deep)}}}`,
    ],
    [
      'a smart tool with 10,000 nested objects in metadata',
      `{"version": "1", "metadata": {"tool_name": "t", "x": ${'{"a":'.repeat(deep)}null${'}'.repeat(deep)}}}`,
    ],
    ['an empty document', ''],
    [
      'lone surrogates and NULs',
      '{"model_prompt": "\ud800{{\udfff}}\0", "metadata": {"variables": [{"name": "\ud800"}]}}',
    ],
  ];
  /** Budget per request: a 20 KB document must never keep the (single-threaded) server busy longer. */
  const REQUEST_MS = 15_000;

  const isArray = (r: unknown) => Array.isArray(r);
  const arrayOrNull = (r: unknown) => r === null || Array.isArray(r);
  const objectOrNull = (r: unknown) => r === null || (typeof r === 'object' && !Array.isArray(r));
  const isTextEdits = (r: unknown) =>
    Array.isArray(r) && r.every((e: TextEdit) => typeof e.newText === 'string' && !!e.range);

  /** Requests that do not depend on a position, with the shape their answer must have. */
  function documentRequests(u: string, end: Position): [string, unknown, (r: unknown) => boolean][] {
    const td = { uri: u };
    return [
      ['textDocument/documentSymbol', { textDocument: td }, isArray],
      ['textDocument/foldingRange', { textDocument: td }, isArray],
      ['textDocument/formatting', { textDocument: td, options: { tabSize: 2, insertSpaces: true } }, isTextEdits],
      [
        'textDocument/rangeFormatting',
        {
          textDocument: td,
          range: { start: { line: 0, character: 0 }, end },
          options: { tabSize: 2, insertSpaces: true },
        },
        isTextEdits,
      ],
    ];
  }

  /** Requests at a position, with the shape their answer must have. */
  function positionRequests(u: string, p: Position): [string, unknown, (r: unknown) => boolean][] {
    const td = { uri: u };
    return [
      [
        'textDocument/completion',
        { textDocument: td, position: p },
        (r) => r === null || Array.isArray(r) || Array.isArray((r as CompletionList).items),
      ],
      ['textDocument/hover', { textDocument: td, position: p }, objectOrNull],
      [
        'textDocument/codeAction',
        { textDocument: td, range: { start: p, end: p }, context: { diagnostics: [] } },
        isArray,
      ],
      ['textDocument/definition', { textDocument: td, position: p }, arrayOrNull],
      [
        'textDocument/references',
        { textDocument: td, position: p, context: { includeDeclaration: true } },
        arrayOrNull,
      ],
      ['textDocument/documentHighlight', { textDocument: td, position: p }, arrayOrNull],
      ['textDocument/prepareRename', { textDocument: td, position: p }, objectOrNull],
      ['textDocument/selectionRange', { textDocument: td, positions: [p, { line: 0, character: 0 }] }, isArray],
    ];
  }

  async function hammer(
    client: LspClient,
    u: string,
    doc: TextDocument,
    what: string,
    diagnostics: readonly Diagnostic[],
  ): Promise<number> {
    let answered = 0;
    const ask = async (method: string, params: unknown, ok: (r: unknown) => boolean): Promise<void> => {
      const r = await client.request(method, params, REQUEST_MS).catch((e: unknown) => {
        throw new Error(`${what}: ${method} ${JSON.stringify(params).slice(0, 200)} failed: ${String(e)}`);
      });
      assert.ok(ok(r), `${what}: ${method} answered ${JSON.stringify(r)?.slice(0, 300)}`);
      answered++;
    };
    const text = doc.getText();
    const end = doc.positionAt(text.length);
    for (const [method, params, ok] of documentRequests(u, end)) await ask(method, params, ok);
    const positions = [
      0,
      1,
      Math.floor(text.length / 3),
      Math.floor(text.length / 2),
      text.length - 1,
      text.length,
    ].map((o) => doc.positionAt(Math.max(0, o)));
    positions.push({ line: 1_000_000, character: 1_000_000 }); // beyond the end: clamped
    for (const p of positions) {
      await Promise.all(positionRequests(u, p).map(([method, params, ok]) => ask(method, params, ok)));
      // Rename answers with an edit, or refuses with InvalidRequest (never a hang or an internal error).
      try {
        const edit = await client.request<WorkspaceEdit | null>(
          'textDocument/rename',
          { textDocument: { uri: u }, position: p, newName: 'renamed' },
          REQUEST_MS,
        );
        assert.ok(edit === null || typeof edit === 'object');
      } catch (e) {
        assert.equal((e as { code?: number }).code, -32600, `${what}: rename: ${String(e)}`);
      }
      answered++;
    }
    // Code actions for the published diagnostics (their data goes back to the server).
    if (diagnostics.length) {
      const r = await client.request<CodeAction[]>(
        'textDocument/codeAction',
        { textDocument: { uri: u }, range: diagnostics[0].range, context: { diagnostics: diagnostics.slice(0, 50) } },
        REQUEST_MS,
      );
      assert.ok(Array.isArray(r));
      answered++;
    }
    return answered;
  }

  for (const [label, text] of garbage) {
    test(`answers every request on ${label}, and survives`, async () => {
      // A server of its own, so one slow answer cannot delay the other cases.
      const client = await LspClient.start();
      try {
        let answered = 0;
        for (const kind of [null, 'llm', 'smart'] as const) {
          const what = `${label} (kind ${String(kind)})`;
          const u = uri('garbage.json');
          const doc = await client.open(u, text);
          if (kind) await client.notify('tooldef/documentKind', { uri: u, kind });
          const ds = await client.waitForDiagnostics(u, kind ? () => true : undefined, REQUEST_MS);
          for (const d of ds) assert.equal(typeof d.code, 'string');
          if (text.trim() && !isValidJson(text))
            assert.ok(
              ds.some((d) => d.code === 'json-syntax'),
              `${what}: ${summary(ds).slice(0, 500)}`,
            );
          answered += await hammer(client, u, doc, what, ds);
          // An edit in the middle of the garbage, then everything again.
          const mid = doc.positionAt(Math.floor(text.length / 2));
          await client.change(u, [{ range: { start: mid, end: mid }, text: '{{"x": [' }]);
          const ds2 = await client.waitForDiagnostics(u, undefined, REQUEST_MS);
          answered += await hammer(client, u, client.document(u), `${what} after an edit`, ds2);
          await client.close(u);
          assert.ok(client.alive, `server died on ${what}: ${JSON.stringify(client.exitStatus)}\n${client.stderr}`);
        }
        assert.ok(answered >= 3 * 2 * (4 + 7 * 9), `answered ${answered}`);
        // No handler threw (runSafe logs `<feature> failed: <stack>` and answers with a fallback).
        const failures = client.log
          .filter((l) => l.type === 1)
          .map((l) => l.message.split('\n').slice(0, 3).join('\n'));
        assert.deepEqual(failures, [], `${label}: the server logged errors`);
        // Still alive, and still useful.
        assert.ok(client.alive, `server exited: ${JSON.stringify(client.exitStatus)}\n${client.stderr}`);
        const good = llm();
        const gu = uri();
        await client.open(gu, good);
        const h = await client.request<Hover>('textDocument/hover', {
          textDocument: { uri: gu },
          position: posOf(good, '{{target language}}', 4),
        });
        assert.match(markdown(h), /\*\*Variable `target language`\*\* — single-select/);
        assert.deepEqual(await client.waitForDiagnostics(gu), []);
      } finally {
        await client.dispose();
      }
    });
  }
});

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function smartToolText(code: string): string {
  const metadata = {
    tool_name: 'tool',
    tool_code: code,
    description: 'd',
    usage_notes: 'u',
    model_version: ['gpt-4'],
    creator: { name: 'A', email: '<EMAIL>', organization: 'O' },
    variables: [{ name: 'name', description: '', default: '' }],
    expected_output: { type: 'text' },
    timestamp: '2026-01-01T00:00:00Z',
  };
  return JSON.stringify({ version: '1.0', metadata }, null, 2);
}
