// `npm start`, the README's main job: installs, builds the extension (.vsix) and the CLI, then checks
// examples/ with the CLI. The broken examples are meant to fail; the valid ones must pass.
import { spawnSync } from 'node:child_process';
import { ensureDeps } from './ensure-deps.mjs';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status;

ensureDeps();
if (run('npm', ['run', 'package', '--silent']) !== 0) process.exit(1);
console.log('\nBuilt dist/tooldef.vsix (install with: code --install-extension dist/tooldef.vsix) and dist/cli.js.\n');
console.log('$ tooldef check examples/smart examples/llm');
const valid = run('node', ['dist/cli.js', 'check', 'examples/smart', 'examples/llm']);
console.log('\n$ tooldef check examples/broken');
const broken = run('node', ['dist/cli.js', 'check', 'examples/broken']);
if (valid !== 0 || broken !== 1) {
  console.error(`\nUnexpected: valid examples exited ${valid} (want 0), broken examples exited ${broken} (want 1).`);
  process.exit(1);
}
console.log('\nThe valid examples pass and the broken ones show their problems, as intended.');
