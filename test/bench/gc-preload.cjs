// Preloaded into one benchmarked server (`node -r …/gc-preload.cjs dist/server.js`): on SIGUSR2 it
// collects garbage and writes the heap figures to stderr, so the benchmark can tell memory the server
// retains from garbage not yet collected. It changes nothing else: `--expose-gc` is set only then,
// since V8 rejects a code cache made under other flags (the server would start uncached and write its
// cache anew, which the other servers would then reject in turn).
// CommonJS (`-r`), not an ES module (`--import`), whose loader would add to the memory measured.
/* eslint-disable @typescript-eslint/no-require-imports */
'use strict';
const v8 = require('node:v8');
const vm = require('node:vm');

process.on('SIGUSR2', () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  gc();
  gc();
  const m = process.memoryUsage();
  process.stderr.write(`tooldef-bench-gc ${JSON.stringify(m)}\n`);
});
