// Where definitions are searched for on disk: one rule for the CLI's directories, the server's scan and its watcher.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { jsonFilesUnder } from '../../server/src/workspace/jsonFiles';
import { isSearched } from '../../server/src/workspace/searched';

describe('jsonFilesUnder', () => {
  const root = mkdtempSync(join(tmpdir(), 'tooldef-walk-'));
  after(() => {
    chmodSync(join(root, 'locked'), 0o755);
    rmSync(root, { recursive: true, force: true });
  });
  for (const file of [
    'b.json',
    'a.json',
    'notes.txt',
    'tools/c.json',
    'node_modules/pkg/d.json',
    'dist/e.json',
    'out/f.json',
    'venv/g.json',
    '__pycache__/h.json',
    '.git/i.json',
    '.venv/j.json',
    'locked/k.json',
    'deep/er/l.json',
  ]) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '{}');
  }
  chmodSync(join(root, 'locked'), 0);

  it('finds .json files depth first in name order, outside skipped and hidden folders', async () => {
    const unreadable: string[] = [];
    const found: string[] = [];
    for await (const p of jsonFilesUnder(root, (dir) => unreadable.push(dir))) found.push(p.slice(root.length + 1));
    const lockedOut = process.getuid?.() !== 0; // root reads a folder whatever its mode
    assert.deepEqual(found, [
      'a.json',
      'b.json',
      'deep/er/l.json',
      ...(lockedOut ? [] : ['locked/k.json']),
      'tools/c.json',
    ]);
    assert.deepEqual(unreadable, lockedOut ? [join(root, 'locked')] : []);
  });

  it('follows symbolic links, each folder once, and reports a dangling one', async () => {
    const linked = mkdtempSync(join(tmpdir(), 'tooldef-walk-links-'));
    try {
      mkdirSync(join(linked, 'real'));
      writeFileSync(join(linked, 'real', 'r.json'), '{}');
      symlinkSync(join(linked, 'real'), join(linked, 'alias')); // the same folder again
      symlinkSync(join(linked, 'real', 'r.json'), join(linked, 'file.json'));
      symlinkSync(linked, join(linked, 'real', 'up')); // a loop
      symlinkSync(join(linked, 'gone.json'), join(linked, 'dangling.json'));
      const unreadable: string[] = [];
      const found: string[] = [];
      for await (const p of jsonFilesUnder(linked, (x) => unreadable.push(x))) found.push(p.slice(linked.length + 1));
      assert.deepEqual(found, ['alias/r.json', 'file.json']);
      assert.deepEqual(unreadable, [join(linked, 'dangling.json')]);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });

  it('reports a folder that does not exist and finds nothing there', async () => {
    const unreadable: string[] = [];
    for await (const p of jsonFilesUnder(join(root, 'missing'), (dir) => unreadable.push(dir))) assert.fail(p);
    assert.deepEqual(unreadable, [join(root, 'missing')]);
  });
});

describe('isSearched', () => {
  const ws = pathToFileURL('/home/me/.projects/my tools').href; // a hidden folder above the root does not count
  const at = (path: string): string => pathToFileURL(`/home/me/.projects/my tools/${path}`).href;

  it('takes in what a scan would find', () => {
    for (const path of ['a.json', 'tools/b.json', 'a@b/c.json']) assert.ok(isSearched(at(path), [ws]), path);
    for (const path of ['node_modules/x/a.json', 'tools/dist/a.json', '.git/a.json', 'a/.hidden/b.json'])
      assert.ok(!isSearched(at(path), [ws]), path);
    assert.ok(!isSearched(pathToFileURL('/elsewhere/a.json').href, [ws]));
    assert.ok(isSearched('file:///c%3A/w/a.json', ['file:///C:/w']), 'spelled differently');
  });

  it("counts a folder's own name", () => {
    assert.ok(isSearched(at('tools'), [ws], true));
    assert.ok(!isSearched(at('node_modules'), [ws], true));
    assert.ok(!isSearched(at('a/out'), [ws], true));
    assert.ok(isSearched(at('node_modules.json'), [ws]), 'a file is not a folder');
  });
});
