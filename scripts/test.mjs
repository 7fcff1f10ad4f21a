// `npm test`: installs what the tests need, builds, type-checks, lints, then runs every suite.
// TOOLDEF_SKIP_E2E=1 skips the real-VS-Code suite (it installs code-server and Chromium on first use).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDeps } from './ensure-deps.mjs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

function files(dir, suffix) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p, suffix));
    else if (name.endsWith(suffix)) out.push(p);
  }
  return out.sort();
}

ensureDeps();
// The run tests sandbox tools with each launcher there is (util-linux is always installed, bubblewrap may not
// be); the tool-tests check their JUnit reports with xmllint, and install the examples' PyYAML from a wheel
// built from Debian's python3-yaml (PyPI may be out of reach); the Python name checks are compared with
// Debian's pyflakes.
if (process.platform === 'linux')
  run('bash', ['scripts/setup-debian-packages.sh', 'bubblewrap', 'libxml2-utils', 'python3-yaml', 'python3-pyflakes']);
run('node', ['scripts/build.mjs']);
run('npx', ['tsc', '-p', 'tsconfig.json']);
run('npx', ['tsc', '-p', 'client/tsconfig.json']);
run('npx', ['tsc', '-p', 'test/exthost/tsconfig.json']);
// ESLint (type-aware, so after the build has generated the schema validators) and the formatter.
run('npm', ['run', 'lint', '--silent']);
const suites = files('out/test', '.test.js');
const env = { ...process.env };
if (process.env.TOOLDEF_SKIP_E2E !== '1') {
  run('npm', ['run', 'package', '--silent']);
  // Installed once here, before any test file runs, so that no two suites install it at the same time.
  env.TOOLDEF_CODE_SERVER ||= codeServer();
  suites.push(...files('test/e2e', '.test.mjs'));
}
run('node', ['--test', '--test-concurrency=2', ...suites], { env });

/** The path of code-server's entry.js, installing it (and Chromium) the first time; progress on stderr. */
function codeServer() {
  const r = spawnSync('bash', ['scripts/setup-code-server.sh'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(
      `\nInstalling code-server for the end-to-end tests failed (exit ${r.status ?? r.signal}); see above.`,
    );
    process.exit(r.status || 1);
  }
  return r.stdout.trim().split('\n').at(-1);
}
