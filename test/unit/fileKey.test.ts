import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { fileKey, inFolder } from '../../server/src/service/fileKey';

describe('fileKey', () => {
  it("gives VS Code's and Node's spellings of one file the same key", () => {
    const pairs: [string, string][] = [
      ['file:///c%3A/Users/me/tools/a.json', 'file:///C:/Users/me/tools/a.json'], // Windows drive
      ['file:///home/me/a%40b%2Bc%2Cd/x.json', pathToFileURL('/home/me/a@b+c,d/x.json').href],
      ['file:///home/me/my%20tools/%C3%A9t%C3%A9.json', pathToFileURL('/home/me/my tools/été.json').href],
      ['file://server/share/a%2Bb.json', 'file://server/share/a+b.json'], // UNC
    ];
    for (const [vscode, node] of pairs) assert.equal(fileKey(vscode), fileKey(node), `${vscode} vs ${node}`);
  });

  it('keeps different files apart', () => {
    assert.notEqual(fileKey('file:///home/me/a.json'), fileKey('file:///home/me/A.json'));
    assert.notEqual(fileKey('file:///c%3A/a.json'), fileKey('file:///d%3A/a.json'));
    assert.notEqual(fileKey('file:///home/me/a%2Fb.json'), fileKey('file:///home/me/a/c.json'));
  });

  it('leaves other schemes as written; reads a stray % as itself', () => {
    assert.equal(fileKey('untitled:Untitled-1'), 'untitled:Untitled-1');
    assert.equal(fileKey('file:///home/me/100%.json'), fileKey(pathToFileURL('/home/me/100%.json').href));
  });

  it("is VS Code's spelling", () => {
    assert.equal(fileKey(pathToFileURL('/home/me/a@b+c,d/x y.json').href), 'file:///home/me/a%40b%2Bc%2Cd/x%20y.json');
    assert.equal(fileKey('file:///C:/Users/x.json'), 'file:///c%3A/Users/x.json');
  });

  it('tells whether a file lies in a folder, whichever way either is spelled', () => {
    const key = fileKey(pathToFileURL('/home/me/a@b/tools/x.json').href);
    assert.ok(inFolder(key, 'file:///home/me/a%40b'));
    assert.ok(inFolder(key, 'file:///home/me/a%40b/'));
    assert.ok(inFolder(key, 'file:///home/me/a%40b/tools'));
    assert.ok(!inFolder(key, 'file:///home/me/a%40b/tool'));
    assert.ok(!inFolder(key, 'file:///home/me/a%40b/tools/x.json'));
    assert.ok(inFolder(fileKey('file:///C:/w/a.json'), 'file:///c%3A/w'));
  });
});
