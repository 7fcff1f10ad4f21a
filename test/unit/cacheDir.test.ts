// One cache folder: the CLI's run environments and the test set-up's code-server agree on where it is.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cacheDir } from '../../server/src/engine/run/environment';

const ROOT = join(__dirname, '../../..');

/** The folder scripts/setup-code-server.sh would use in `env`: its own CACHE= line, run by bash. */
function scriptCacheDir(env: Record<string, string>): string {
  const script = readFileSync(join(ROOT, 'scripts/setup-code-server.sh'), 'utf8');
  const line = script.split('\n').find((l) => l.startsWith('CACHE='));
  assert.ok(line, 'the script sets CACHE');
  const r = spawnSync('bash', ['-c', `${line}\nprintf %s "$CACHE"`], { env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('the cache folder', { skip: process.platform === 'win32' && 'the set-up script is for Linux' }, () => {
  const envs: Record<string, string>[] = [
    { HOME: '/home/ada' },
    { HOME: '/home/ada', XDG_CACHE_HOME: '/var/cache/ada' },
    { HOME: '/home/ada', TOOLDEF_CACHE_DIR: '/tmp/tooldef-cache' },
    { HOME: '/home/ada', XDG_CACHE_HOME: '/x', TOOLDEF_CACHE_DIR: '/tmp/c' },
  ];
  for (const env of envs)
    it(`is the same for the CLI and the set-up script with ${JSON.stringify(env)}`, () => {
      assert.equal(scriptCacheDir(env), cacheDir({ ...env }));
    });
});
