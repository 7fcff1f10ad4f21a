// The kept Python analyses on disk (server/src/node/analysisCache.ts): a hit gives back what was put,
// short sources are not kept, another build's folder goes, and the folder stays bounded with the
// least recently used entries dropped first.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { analysisCache, MIN_KEPT_LENGTH } from '../../server/src/node/analysisCache';
import type { PythonFacts } from '../../server/src/service/python/types';

const facts = (n: number): PythonFacts => ({
  problems: [],
  keys: [{ name: `k${n}`, start: 0, end: 1 }] as PythonFacts['keys'],
  dynamicVariables: false,
  imports: [],
  functions: [],
});
const source = (n: number) => `# ${n}\n${'x = 1\n'.repeat(MIN_KEPT_LENGTH / 6 + 1)}`;

describe('kept Python analyses on disk', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tooldef-kept-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back what was put, for the same source only; short sources are not kept', () => {
    const cache = analysisCache(dir, () => 'build 1');
    assert.equal(cache.get(source(1)), undefined);
    cache.put(source(1), facts(1));
    assert.deepEqual(cache.get(source(1)), facts(1));
    assert.equal(cache.get(source(2)), undefined);
    cache.put('x = 1\n', facts(3));
    assert.equal(cache.get('x = 1\n'), undefined);
  });

  it("never reads another build's analyses, and drops them", () => {
    const other = analysisCache(dir, () => 'build 2');
    assert.equal(other.get(source(1)), undefined);
    other.put(source(4), facts(4));
    assert.equal(readdirSync(dir).length, 1, 'only the current build keeps a folder');
  });

  it('keeps at most 100, the least recently used going first', () => {
    const cache = analysisCache(dir, () => 'build 3');
    for (let n = 0; n < 100; n++) cache.put(source(n), facts(n));
    const [folder] = readdirSync(dir);
    const files = readdirSync(join(dir, folder));
    assert.equal(files.length, 100);
    // Age them all, then use number 0 again: it is the most recent.
    for (const [i, f] of files.entries()) utimesSync(join(dir, folder, f), 1000 + i, 1000 + i);
    assert.deepEqual(cache.get(source(0)), facts(0));
    cache.put(source(100), facts(100));
    assert.equal(readdirSync(join(dir, folder)).length, 100);
    assert.deepEqual(cache.get(source(0)), facts(0), 'used recently: kept');
    assert.deepEqual(cache.get(source(100)), facts(100), 'the newest: kept');
    const gone = Array.from({ length: 99 }, (_, i) => i + 1).filter((n) => cache.get(source(n)) === undefined);
    assert.equal(gone.length, 1, 'one of the others went');
  });
});
