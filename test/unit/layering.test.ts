// The client asks the server about documents (server/src/protocol.ts) and uses the engine only
// through its public entry points: it never imports the language service or the server's internals.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../lsp/lspClient';

const ALLOWED = [
  'server/src/protocol',
  'server/src/engine/run',
  'server/src/engine/llm',
  'server/src/engine/tests',
  'server/src/engine/upload',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

test("the client imports nothing from server/src but the protocol and the engine's entry points", () => {
  const root = repoRoot();
  const reached: string[] = [];
  for (const file of sources(join(root, 'client/src'))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(root, resolve(file, '..', spec));
      if (target.startsWith('server/') && !ALLOWED.includes(target))
        reached.push(`${relative(root, file)} → ${target}`);
    }
  }
  assert.deepEqual(reached, []);
});
