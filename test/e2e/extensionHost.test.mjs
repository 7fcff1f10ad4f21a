// The extension-host suite (test/exthost, the tests @vscode/test-electron runs where VS Code can be
// downloaded) run here in code-server's extension host: the workbench is opened as an extension
// development host with the suite as its extensionTestsPath. Each of its tests is reported as a
// subtest; any failure, or a suite that never finishes, fails this test.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { e2eSuite, REPO, RESULTS_DIR } from './codeServer.mjs';

const RESULTS = join(RESULTS_DIR, 'exthost-results.json');
const SUITE = join(REPO, 'out', 'exthost', 'index.js');
rmSync(RESULTS, { force: true });

const workbenchTest = e2eSuite('exthost');

workbenchTest(
  'the extension-host suite passes in code-server',
  { files: {}, env: { TOOLDEF_EXTHOST_RESULTS: RESULTS }, extensionTests: SUITE },
  async ({ exitCode, t }) => {
    let timer;
    const timeout = new Promise(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error('the extension-host suite did not finish within 3 minutes')),
          180_000,
        )),
    );
    const code = await Promise.race([exitCode, timeout]).finally(() => clearTimeout(timer));
    const results = JSON.parse(readFileSync(RESULTS, 'utf8'));
    assert.ok(results.length > 0, 'the suite ran no tests');
    for (const r of results) {
      await t.test(r.title, () => assert.equal(r.state, 'passed', r.error ?? `${r.title}: ${r.state}`));
    }
    assert.equal(code, 0, `the extension host exited with ${code}`);
  },
);
