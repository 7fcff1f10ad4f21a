import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseTree } from 'jsonc-parser';
import { parseJson, type JsonNode } from '../../server/src/service/json/tree';
import { parseStrict } from '../../server/src/service/json/strict';
import { parseByValue } from '../../server/src/service/json/valueTree';
import { nodeAtOffset, nodeAtPath, pathOf } from '../../server/src/service/json/nodes';
import { generateFixtures } from '../bench/fixtures';

function strip(n: JsonNode | undefined): unknown {
  if (!n) return undefined;
  return {
    type: n.type,
    offset: n.offset,
    length: n.length,
    value: n.type === 'object' || n.type === 'array' || n.type === 'property' ? undefined : n.value,
    colon: n.colonOffset,
    children: n.children?.map(strip),
  };
}

/** Every field, parent links included (as the path from the root), so two trees compare exactly. */
function full(n: JsonNode): unknown {
  return { ...(strip(n) as object), path: pathOf(n), parentType: n.parent?.type, children: n.children?.map(full) };
}

/** The tree made from JSON.parse's value, when the fast path takes the text. */
function byValue(text: string): JsonNode | undefined {
  const r = parseByValue(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  return typeof r === 'object' ? r.root : undefined;
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? jsonFiles(p) : f.endsWith('.json') ? [p] : [];
  });
}

describe('parseJson', () => {
  it('builds the same tree as jsonc-parser on valid documents (fast path)', () => {
    const docs = [
      '{}',
      '[]',
      '"x"',
      '1',
      'true',
      'null',
      '{"a":[1,2,{"b":null}],"c":"\\u00e9\\"","d":-1.5e3}',
      ' { "a" : { } , "b" : [ [ ] , [ 1 ] ] } ',
      ...jsonFiles('examples')
        .map((f) => readFileSync(f, 'utf8'))
        .filter((t) => {
          try {
            JSON.parse(t);
            return true;
          } catch {
            return false;
          }
        }),
    ];
    for (const text of docs) {
      const ours = parseJson(text);
      assert.equal(ours.syntaxErrors.length, 0);
      assert.deepEqual(strip(ours.root), strip(parseTree(text) as JsonNode), text.slice(0, 60));
      assert.deepEqual(ours.value, JSON.parse(text));
    }
  });

  it('gives each duplicate key its own value (JSON.parse keeps only the last)', () => {
    const text = '{"a": "first", "b": {"c": [1, "x"]}, "a": "last", "b": 2}';
    const root = parseJson(text).root!;
    assert.deepEqual(
      root.children!.map((p) => p.children![1].value ?? p.children![1].type),
      ['first', 'object', 'last', 2],
    );
    assert.equal(nodeAtPath(root, ['a'])!.value, 'last');
    assert.equal(root.children![1].children![1].children![0].children![1].children![1].value, 'x');
  });

  it('recovers invalid documents with syntax errors that say what to do', () => {
    const r = parseJson('{"a": 1,}');
    assert.equal(r.syntaxErrors.length, 1);
    assert.match(r.syntaxErrors[0].message, /Trailing comma/);
    assert.equal(r.syntaxErrors[0].offset, 7);
    assert.deepEqual(r.value, { a: 1 });
    assert.match(parseJson('{"a": 1 // c\n}').syntaxErrors[0].message, /comment/);
    assert.ok(parseJson("{'a': 1}").syntaxErrors.length > 0);
    assert.ok(parseJson('{"a": NaN}').syntaxErrors.length > 0);
  });

  it('treats a BOM as whitespace and keeps offsets', () => {
    const r = parseJson('\ufeff{"a": 1}');
    assert.equal(r.syntaxErrors.length, 0);
    assert.equal(r.root!.offset, 1);
    const broken = parseJson('\ufeff{"a": }');
    assert.equal(broken.syntaxErrors[0].offset, 7);
  });

  it('indexes 10,000 levels of valid nesting and refuses to recurse into deep invalid nesting', () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const r = parseJson(deep);
    assert.equal(r.syntaxErrors.length, 0);
    let depth = 0;
    for (let n: JsonNode | undefined = r.root; n; n = n.children?.[0]) depth++;
    assert.equal(depth, 10_000);
    const broken = parseJson('['.repeat(10_000));
    assert.equal(broken.root, undefined);
    assert.match(broken.syntaxErrors[0].message, /nested more than/);
  });

  it('places the nodes of the tree made from the value exactly where the strict parser does', () => {
    const texts = [
      ...jsonFiles('examples').map((f) => readFileSync(f, 'utf8')),
      ...generateFixtures()
        .filter((f) => f.size !== 'huge')
        .map((f) => f.text),
      '\ufeff {"a" :\t[ 1 ,-2.5e+3, true,false ,null, {} ,[ ] ], "b":{"c":"d\\"\\\\\\u00e9\\/"} }\r\n',
      '{"__proto__": {"x": [0]}, "k": "v:", "e": ""}',
    ];
    let fast = 0;
    for (const text of texts) {
      const root = byValue(text);
      if (!root) continue;
      fast++;
      assert.deepEqual(
        full(root),
        full(parseStrict(text, text.charCodeAt(0) === 0xfeff ? 1 : 0)!.root),
        text.slice(0, 60),
      );
    }
    assert.ok(fast >= texts.length - 4, `only ${fast} of ${texts.length} texts took the fast path`);
    // Random values, written compactly, indented, or with whitespace around every token.
    const spaced = (t: string) => t.replace(/([{}[\],:])(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, ' $1\n\t');
    const written = fc
      .tuple(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(0, 2, '\t', 'spaced'))
      .map(([v, style]) => (style === 'spaced' ? spaced(JSON.stringify(v)) : JSON.stringify(v, null, style)));
    fc.assert(
      fc.property(written, (text) => {
        const root = byValue(text);
        if (root) assert.deepEqual(full(root), full(parseStrict(text, 0)!.root));
      }),
      { seed: 7, numRuns: 1500 },
    );
  });

  it('leaves texts that may repeat a key, or list keys out of text order, to the strict parser', () => {
    for (const text of [
      '{"a": 1, "a": 2}',
      '{"a": {"b": 1, "b": 2}}',
      '{"b": 1, "1": 2}',
      '{"a": ": not a key"}',
      '{"a": " :x"}',
    ]) {
      assert.equal(byValue(text), undefined, text);
      const r = parseJson(text);
      assert.deepEqual(full(r.root!), full(parseStrict(text, 0)!.root), text);
    }
    assert.deepEqual(
      parseJson('{"a": 1, "a": 2}').duplicateKeys.map((k) => k.offset),
      [9],
    );
    assert.equal(byValue('['.repeat(2000) + ']'.repeat(2000)), undefined); // deeper than the fast path recurses
    assert.equal(parseByValue('{"a": 1,}', 0), 'invalid');
  });

  it('finds nodes by offset and path', () => {
    const text = '{"a": {"b": [10, "x"]}}';
    const root = parseJson(text).root;
    const x = nodeAtOffset(root, text.indexOf('"x"') + 1)!;
    assert.equal(x.value, 'x');
    assert.deepEqual(pathOf(x), ['a', 'b', 1]);
    assert.equal(nodeAtPath(root, ['a', 'b', 0])!.value, 10);
  });
});
