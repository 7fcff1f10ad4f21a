// Installs the locked npm dependencies when they are missing or older than the lockfile, so that a
// fresh clone needs nothing but `npm test` (or the README's main command).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');

export function ensureDeps() {
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.error('Installing npm dependencies (npm ci)…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

if (import.meta.url === `file://${process.argv[1]}`) ensureDeps();
