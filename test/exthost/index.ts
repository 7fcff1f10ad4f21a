// The extension-host test suite's entry point (`extensionTestsPath`): VS Code loads this module in the
// extension host and awaits `run()`; it resolves when every test passed and rejects otherwise, which
// becomes the extension host's exit code. Used by `runTest.mjs` (@vscode/test-electron) and by
// test/e2e/extensionHost.test.mjs (code-server), which reads the results from TOOLDEF_EXTHOST_RESULTS.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

export interface TestResult {
  readonly title: string;
  readonly state: 'passed' | 'failed' | 'pending';
  readonly durationMs?: number;
  readonly error?: string;
}

export async function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, grep: process.env.TOOLDEF_EXTHOST_GREP });
  for (const name of readdirSync(__dirname)
    .filter((n) => n.endsWith('.test.js'))
    .sort())
    mocha.addFile(join(__dirname, name));
  const results: TestResult[] = [];
  const failures = await new Promise<number>((resolve) => {
    mocha
      .run(resolve)
      .on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }))
      .on('fail', (t, err: Error) =>
        results.push({ title: t.fullTitle(), state: 'failed', error: err.stack ?? String(err) }),
      )
      .on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
  const file = process.env.TOOLDEF_EXTHOST_RESULTS;
  if (file) writeFileSync(file, JSON.stringify(results, null, 2));
  if (failures > 0) throw new Error(`${failures} extension-host test(s) failed.`);
}
