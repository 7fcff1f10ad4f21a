import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, ModelCache } from '../../server/src/service/languageService';
import { llmTool } from '../helpers';

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
});
