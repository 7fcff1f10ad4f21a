import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, cursor, llmTool, load, smartTool } from '../helpers';

function at(fixture: string) {
  const { text, offset } = cursor(fixture);
  const f = load(text);
  return { ...f, pos: f.doc.positionAt(offset) };
}

const PROMPT = 'A\n"q" {{target language}} and {{text}} then {{target language}} 😀';

describe('definition, references, highlights', () => {
  it('goes from a placeholder to its variable', () => {
    const { service, model, doc, pos } = at(llmTool({ prompt: PROMPT.replace('{{text}}', '{{te|xt}}') }));
    const [loc] = service.findDefinition(model, pos);
    assert.equal(doc.getText(loc.range), '"text"');
  });

  it('finds every reference of a variable, through escapes', () => {
    const { service, model, doc, pos } = at(
      llmTool({ prompt: PROMPT.replace('{{target language}}', '{{target| language}}') }),
    );
    const refs = service.findReferences(model, pos, true).map((l) => doc.getText(l.range));
    assert.deepEqual(refs, ['target language', 'target language', 'target language']);
    assert.equal(service.findReferences(model, pos, false).length, 2);
    const highlights = service.findDocumentHighlights(model, pos);
    assert.deepEqual(
      highlights.map((h) => h.kind),
      [3, 2, 2],
    );
  });
});

describe('rename', () => {
  it('updates the declaration and every placeholder in one edit', () => {
    const { service, model, doc, pos } = at(
      llmTool({ prompt: PROMPT }).replace('"name": "target language"', '"name": "target l|anguage"'),
    );
    const prep = service.prepareRename(model, pos)!;
    assert.equal(prep.placeholder, 'target language');
    assert.equal(doc.getText(prep.range), 'target language');
    const result = service.doRename(model, pos, 'output "lang"');
    assert.ok('edit' in result);
    const renamed = JSON.parse(applyEdits(doc, result.edit.changes![doc.uri]));
    assert.equal(renamed.model_prompt, 'A\n"q" {{output "lang"}} and {{text}} then {{output "lang"}} 😀');
    assert.equal(renamed.metadata.variables[1].name, 'output "lang"');
    const { model: after } = load(JSON.stringify(renamed));
    assert.deepEqual(
      service.doValidation(after).map((d) => d.code),
      [],
    );
  });

  it('works from a placeholder too', () => {
    const { service, model, doc, pos } = at(llmTool({ prompt: '{{te|xt}} {{target language}}' }));
    const result = service.doRename(model, pos, 'body');
    assert.ok('edit' in result);
    assert.equal(
      JSON.parse(applyEdits(doc, result.edit.changes![doc.uri])).model_prompt,
      '{{body}} {{target language}}',
    );
  });

  it('refuses empty names, existing names, braces, and places that are not variables', () => {
    const { service, model, pos } = at(llmTool({ prompt: '{{te|xt}} {{target language}}' }));
    assert.match((service.doRename(model, pos, ' ') as { error: string }).error, /empty/);
    assert.match((service.doRename(model, pos, 'target language') as { error: string }).error, /already exists/);
    assert.match((service.doRename(model, pos, 'a}}b') as { error: string }).error, /cannot contain/);
    const other = at(llmTool().replace('"prompt_name": "Summariser"', '"prompt_name": "Summ|ariser"'));
    assert.equal(other.service.prepareRename(other.model, other.pos), null);
  });
});

describe('outline', () => {
  it('shows the structure with variables named by their name', () => {
    const { service, model } = load(llmTool({ prompt: 'line 1\nline 2 {{text}} {{target language}}' }));
    const symbols = service.findDocumentSymbols(model);
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['version', 'model_prompt', 'metadata'],
    );
    assert.equal(symbols[1].detail, '2 lines');
    const variables = symbols[2].children!.find((s) => s.name === 'variables')!;
    assert.deepEqual(
      variables.children!.map((v) => [v.name, v.detail]),
      [
        ['text', 'text'],
        ['target language', 'single-select'],
      ],
    );
  });

  it('smart tools too', () => {
    const { service, model } = load(smartTool());
    const metadata = service.findDocumentSymbols(model).find((s) => s.name === 'metadata')!;
    assert.ok(metadata.children!.some((c) => c.name === 'tool_code' && c.detail === '3 lines'));
  });
});

describe('formatting, folding, selection', () => {
  it('formats with the given options and keeps the value', () => {
    const text = '{"version":"1.0","metadata":{"tool_name":"tool","tool_code":"x"}}';
    const { service, model, doc } = load(text);
    const out = applyEdits(doc, service.format(model, undefined, { tabSize: 2, insertSpaces: true }));
    assert.equal(out, JSON.stringify(JSON.parse(text), null, 2));
  });

  it('bounds the indentation a client asks for: a huge or broken tabSize indents by at most 16', () => {
    const text = '{"version":"1.0","metadata":{"tool_name":"tool","tool_code":"x"}}';
    const { service, model, doc } = load(text);
    // JSON.stringify stops at 10 spaces: scale its 1-space indentation instead.
    const indented = (n: number) =>
      JSON.stringify(JSON.parse(text), null, 1).replace(/^ +/gm, (m) => ' '.repeat(m.length * n));
    for (const tabSize of [1e9, Number.MAX_SAFE_INTEGER, Infinity]) {
      assert.equal(applyEdits(doc, service.format(model, undefined, { tabSize, insertSpaces: true })), indented(16));
    }
    for (const tabSize of [0, -3, NaN, 2.7]) {
      const out = applyEdits(doc, service.format(model, undefined, { tabSize, insertSpaces: true }));
      assert.equal(out, indented(tabSize === 2.7 ? 2 : 4), `tabSize ${tabSize}`);
    }
  });

  it('folds objects and arrays that span lines', () => {
    const { service, model } = load(llmTool());
    const ranges = service.getFoldingRanges(model);
    assert.deepEqual(ranges[0], { startLine: 0, endLine: llmTool().split('\n').length - 2 });
    assert.ok(ranges.length > 5);
  });

  it("on a string's opening quote, starts from the whole string", () => {
    const { text, offset } = cursor('{"a": |"xy"}');
    const { service, model, doc } = load(text);
    const [sel] = service.getSelectionRanges(model, [doc.positionAt(offset)]);
    assert.equal(doc.getText(sel.range), '"xy"');
  });

  it('expands the selection from string content to the root', () => {
    const { text, offset } = cursor('{"a": {"b": "x|y"}}');
    const { service, model, doc } = load(text);
    const [sel] = service.getSelectionRanges(model, [doc.positionAt(offset)]);
    const chain: string[] = [];
    for (let s: typeof sel | undefined = sel; s; s = s.parent) chain.push(doc.getText(s.range));
    assert.deepEqual(chain, ['xy', '"xy"', '"b": "xy"', '{"b": "xy"}', '"a": {"b": "xy"}', text]);
  });
});
