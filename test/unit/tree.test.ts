import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTree } from 'jsonc-parser';
import { parseJson, type JsonNode } from '../../server/src/service/json/tree';
import { nodeAtOffset, nodeAtPath, pathOf } from '../../server/src/service/json/nodes';

function strip(n: JsonNode | undefined): unknown {
  if (!n) return undefined;
  return { type: n.type, offset: n.offset, length: n.length, value: n.type === 'object' || n.type === 'array' || n.type === 'property' ? undefined : n.value, colon: n.colonOffset, children: n.children?.map(strip) };
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
      '{}', '[]', '"x"', '1', 'true', 'null', '{"a":[1,2,{"b":null}],"c":"\\u00e9\\"","d":-1.5e3}',
      ' { "a" : { } , "b" : [ [ ] , [ 1 ] ] } ',
      ...jsonFiles('examples').map((f) => readFileSync(f, 'utf8')).filter((t) => { try { JSON.parse(t); return true; } catch { return false; } }),
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
    assert.deepEqual(root.children!.map((p) => p.children![1].value ?? p.children![1].type), ['first', 'object', 'last', 2]);
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

  it('finds nodes by offset and path', () => {
    const text = '{"a": {"b": [10, "x"]}}';
    const root = parseJson(text).root;
    const x = nodeAtOffset(root, text.indexOf('"x"') + 1)!;
    assert.equal(x.value, 'x');
    assert.deepEqual(pathOf(x), ['a', 'b', 1]);
    assert.equal(nodeAtPath(root, ['a', 'b', 0])!.value, 10);
  });
});
