import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DefinitionIndex } from '../../server/src/lsp/workspaceIndex';
import { nodeRuntime } from '../../server/src/node/runtime';
import { smartTool } from '../helpers';

describe('DefinitionIndex', () => {
  it('scans the file folders of a workspace that also has remote or virtual ones', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tooldef-index-'));
    try {
      writeFileSync(join(folder, 'a.json'), smartTool({ metadata: { tool_name: 'twin' } }));
      writeFileSync(join(folder, 'b.json'), smartTool({ metadata: { tool_name: 'twin' } }));
      const index = new DefinitionIndex(nodeRuntime().disk);
      await index.scanFolders(['vscode-vfs://github/owner/repo', pathToFileURL(folder).href]);
      assert.ok(index.hasSmartTools());
      const a = pathToFileURL(join(folder, 'a.json')).href;
      assert.deepEqual(
        index.toolsNamed('twin', a, 20).shown.map((r) => r.uri),
        [pathToFileURL(join(folder, 'b.json')).href],
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('forgets a namesake whose folder was deleted without an event for the file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tooldef-index-'));
    try {
      mkdirSync(join(folder, 'old'));
      writeFileSync(join(folder, 'a.json'), smartTool({ metadata: { tool_name: 'twin' } }));
      writeFileSync(join(folder, 'old', 'b.json'), smartTool({ metadata: { tool_name: 'twin' } }));
      const index = new DefinitionIndex(nodeRuntime().disk);
      await index.scanFolders([pathToFileURL(folder).href]);
      const a = pathToFileURL(join(folder, 'a.json')).href;
      assert.equal(index.toolsNamed('twin', a, 20).total, 1);
      rmSync(join(folder, 'old'), { recursive: true });
      assert.deepEqual(index.toolsNamed('twin', a, 20), { shown: [], total: 0 });
      assert.ok(index.hasSmartTools(), 'a.json is still there');
      assert.deepEqual(index.smartToolsOnDisk(), [a]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('without a disk (in a browser) scans nothing and knows the open documents only', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tooldef-index-'));
    try {
      writeFileSync(join(folder, 'a.json'), smartTool({ metadata: { tool_name: 'twin' } }));
      const index = new DefinitionIndex(undefined);
      await index.scanFolders([pathToFileURL(folder).href]);
      await index.updateFile(pathToFileURL(join(folder, 'a.json')).href);
      assert.equal(index.hasSmartTools(), false);
      assert.deepEqual(index.toolsNamed('twin', 'untitled:x', 20), { shown: [], total: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
