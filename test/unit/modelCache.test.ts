import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, ModelCache } from '../../server/src/service/languageService';
import { finish } from '../../server/src/service/steps';
import { llmTool, smartTool } from '../helpers';

describe('ModelCache', () => {
  it('parses once per version, also when the document object is updated in place', () => {
    const cache = new ModelCache(getLanguageService());
    const doc = TextDocument.create('file:///w/a.json', 'tooldef', 1, llmTool());
    const first = cache.get(doc);
    assert.equal(cache.get(doc), first);
    TextDocument.update(doc, [{ text: llmTool({ prompt: '{{text}}' }) }], 2); // what TextDocuments does
    const second = cache.get(doc);
    assert.notEqual(second, first);
    assert.equal(second.version, 2);
    assert.equal(second.prompt!.embedded.text, '{{text}}');
    assert.notEqual(cache.get(doc, 'smart'), second, 'a forced kind is part of the key');
  });

  it("reuses a prepared file's Python analysis when the file is opened, and only once", () => {
    const cache = new ModelCache(getLanguageService());
    const uri = 'file:///w/s.json';
    const text = smartTool({ code: 'def execute(variables):\n    return str(variables["city"])\n' });
    const prepared = getLanguageService().parse(TextDocument.create(uri, 'tooldef', 0, text));
    finish(prepared.pythonSteps()!);
    cache.prepare(prepared);
    const opened = cache.get(TextDocument.create(uri, 'tooldef', 1, text));
    assert.equal(opened.python!.facts, prepared.python!.facts, 'the same analysis, not a new one');
    cache.delete(uri); // closed
    const reopened = cache.get(TextDocument.create(uri, 'tooldef', 1, text));
    assert.notEqual(reopened.python!.facts, prepared.python!.facts, 'a prepared model seeds one open only');
    const other = cache.get(TextDocument.create('file:///w/t.json', 'tooldef', 1, text));
    assert.notEqual(other.python!.facts, prepared.python!.facts, 'by URI');
  });

  it('ignores a model prepared while its document is open', () => {
    const cache = new ModelCache(getLanguageService());
    const uri = 'file:///w/s.json';
    const text = smartTool({ code: 'def execute(variables):\n    return "b"\n' });
    cache.get(TextDocument.create(uri, 'tooldef', 1, smartTool())).python;
    const stale = getLanguageService().parse(TextDocument.create(uri, 'tooldef', 0, text));
    assert.ok(stale.python);
    cache.prepare(stale); // e.g. a file read from disk while the user has it open
    cache.delete(uri);
    assert.notEqual(cache.get(TextDocument.create(uri, 'tooldef', 2, text)).python!.facts, stale.python!.facts);
  });
});
