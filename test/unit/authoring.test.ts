import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setAvatarEdits } from '../../server/src/service/avatarEdit';
import { llmToolTemplate, smartToolTemplate } from '../../server/src/service/templates';
import { fileNameFor, parseVariableList } from '../../client/src/authoring/answers';
import { codes, llmTool, load } from '../helpers';
import { PNG_256 } from './images';
import { TextDocument } from 'vscode-languageserver-textdocument';

describe('new tool templates', () => {
  const cases = [
    {
      name: 'weather_lookup',
      description: 'Looks up the weather.',
      variables: ['city', 'target language', 'class', '2nd', 'a{b}"c'],
    },
    { name: 'Empty tool', description: 'Says """hi""" \\ back', variables: [] },
  ];
  it('scaffold valid smart tools named <tool_name>.json, whose execute reads every variable', () => {
    for (const a of cases) {
      const text = smartToolTemplate(a);
      assert.deepEqual(codes(text, { uri: `file:///w/${encodeURIComponent(fileNameFor(a.name))}` }), [], text);
      for (const v of a.variables)
        assert.ok(JSON.parse(text).metadata.tool_code.includes(`variables.get(${JSON.stringify(v)}, "")`));
    }
  });

  it('scaffold valid LLM tools whose prompt uses every variable', () => {
    for (const a of cases) assert.deepEqual(codes(llmToolTemplate(a)), []);
    assert.match(JSON.parse(llmToolTemplate(cases[0])).model_prompt, /\{\{target language\}\}/);
  });

  it('parses the variable list and makes safe file names', () => {
    assert.deepEqual(parseVariableList(' a, b c ,, a,'), ['a', 'b c']);
    assert.equal(fileNameFor('a/b:c'), 'a_b_c.json');
  });
});

describe('set avatar', () => {
  const apply = (text: string): string => {
    const { model, doc } = load(text);
    const edits = setAvatarEdits(model, PNG_256)!;
    return TextDocument.applyEdits(
      doc,
      edits.map((e) => ({
        range: { start: doc.positionAt(e.offset), end: doc.positionAt(e.offset + e.length) },
        newText: e.newText,
      })),
    );
  };
  const check = (text: string): void => {
    const out = JSON.parse(apply(text));
    assert.equal(out.metadata.avatar_type, 'base64');
    assert.equal(out.metadata.avatar, PNG_256);
    assert.deepEqual(codes(apply(text)), []);
  };
  it('replaces a flat avatar, a url avatar, a nested one, or adds both fields', () => {
    check(llmTool());
    check(llmTool({ metadata: { avatar_type: 'url', avatar: 'https://example.com/a.png' } }));
    const nested = JSON.parse(llmTool());
    nested.metadata.avatar = { avatar_type: 'url', avatar: 'https://x.example/a.png' };
    check(JSON.stringify(nested, null, 2));
    const none = JSON.parse(llmTool());
    delete none.metadata.avatar;
    delete none.metadata.avatar_type;
    check(JSON.stringify(none, null, 2));
  });
});
