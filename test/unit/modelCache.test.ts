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

  it("reuses a prepared file's Python analysis when it is opened, and keeps the document's own when it is closed", () => {
    const cache = new ModelCache(getLanguageService());
    const uri = 'file:///w/s.json';
    const text = smartTool({ code: 'def execute(variables):\n    return str(variables["city"])\n' });
    const prepared = getLanguageService().parse(TextDocument.create(uri, 'tooldef', 0, text));
    finish(prepared.pythonSteps()!);
    cache.prepare(prepared);
    const opened = cache.get(TextDocument.create(uri, 'tooldef', 1, text));
    assert.equal(opened.python!.facts, prepared.python!.facts, 'the same analysis, not a new one');
    const edited = cache.get(TextDocument.create(uri, 'tooldef', 2, text.replace('city', 'town')));
    assert.notEqual(edited.python!.facts, prepared.python!.facts);
    cache.delete(uri); // closed: the document's own latest analysis is kept, not the prepared one
    const reopened = cache.get(TextDocument.create(uri, 'tooldef', 1, edited.text));
    assert.equal(reopened.python!.facts, edited.python!.facts);
    const other = cache.get(TextDocument.create('file:///w/t.json', 'tooldef', 1, text));
    assert.notEqual(other.python!.facts, prepared.python!.facts, 'by URI');
  });

  it('ignores a model prepared while its document is open', () => {
    const cache = new ModelCache(getLanguageService());
    const uri = 'file:///w/s.json';
    const text = smartTool({ code: 'def execute(variables):\n    return "b"\n' });
    assert.ok(cache.get(TextDocument.create(uri, 'tooldef', 1, smartTool())).python);
    const stale = getLanguageService().parse(TextDocument.create(uri, 'tooldef', 0, text));
    assert.ok(stale.python);
    cache.prepare(stale); // e.g. a file read from disk while the user has it open
    cache.delete(uri);
    assert.notEqual(cache.get(TextDocument.create(uri, 'tooldef', 2, text)).python!.facts, stale.python!.facts);
  });

  it("keeps a closed smart tool's finished analysis for when it is opened again", () => {
    const cache = new ModelCache(getLanguageService());
    const uri = 'file:///w/s.json';
    const text = smartTool({ code: 'def execute(variables):\n    return "x"\n' });
    const first = cache.get(TextDocument.create(uri, 'tooldef', 1, text));
    const facts = first.python!.facts;
    cache.delete(uri); // closed
    assert.equal(cache.get(TextDocument.create(uri, 'tooldef', 1, text)).python!.facts, facts);
    // An analysis still under way is not finished on close (that would block), nor kept.
    const other = 'file:///w/t.json';
    const pending = cache.get(TextDocument.create(other, 'tooldef', 1, text));
    pending.pythonSteps()!.next();
    cache.delete(other);
    assert.ok(pending.pythonSteps(), 'still unfinished');
    assert.notEqual(cache.get(TextDocument.create(other, 'tooldef', 1, text)).python!.facts, pending.python!.facts);
  });

  it('keeps at most 8 files not open, letting the oldest go', () => {
    const cache = new ModelCache(getLanguageService());
    const text = smartTool({ code: 'def execute(variables):\n    return "x"\n' });
    const facts: unknown[] = [];
    for (let i = 0; i < 9; i++) {
      const uri = `file:///w/${i}.json`;
      facts.push(cache.get(TextDocument.create(uri, 'tooldef', 1, text)).python!.facts);
      cache.delete(uri);
    }
    assert.equal(cache.hasRoomFor(0), false);
    assert.notEqual(
      cache.get(TextDocument.create('file:///w/0.json', 'tooldef', 1, text)).python!.facts,
      facts[0],
      'the oldest was let go',
    );
    assert.equal(cache.get(TextDocument.create('file:///w/8.json', 'tooldef', 1, text)).python!.facts, facts[8]);
    assert.equal(cache.hasRoomFor(0), true, 'opening takes a file out of the kept ones');
  });
});
