// Runs the extension-host suite (out/exthost/index.js) in a desktop VS Code that @vscode/test-electron
// downloads: `npm run test:electron`. Where VS Code cannot be downloaded, as on this project's own
// machines, it stops with a message saying so; `npm test` runs the same suite in code-server instead
// (test/e2e/extensionHost.test.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const root = fileURLToPath(new URL('../../', import.meta.url));

let vscodeExecutablePath;
try {
  vscodeExecutablePath = await downloadAndUnzipVSCode();
} catch (e) {
  console.error(
    `Could not download VS Code to run the extension-host tests in: ${e instanceof Error ? e.message : e}\n` +
      "This runner needs network access to VS Code's downloads. Without it, `npm test` runs the same suite in code-server.",
  );
  process.exit(2);
}

// A fresh folder: the tests write their fixtures into the workspace.
const workspace = mkdtempSync(join(tmpdir(), 'tooldef-exthost-'));
try {
  await runTests({
    vscodeExecutablePath,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out', 'exthost', 'index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (e) {
  console.error(`The extension-host tests failed: ${e instanceof Error ? e.message : e}`);
  process.exitCode = 1;
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
