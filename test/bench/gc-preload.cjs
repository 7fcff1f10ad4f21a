// Preloaded into one benchmarked server (`node --expose-gc -r …/gc-preload.cjs dist/server.js`):
// on SIGUSR2 it collects garbage and writes the heap figures to stderr, so the benchmark can tell
// memory the server retains from garbage not yet collected. It changes nothing else.
'use strict';
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') {
    global.gc();
    global.gc();
  }
  const m = process.memoryUsage();
  process.stderr.write(`tooldef-bench-gc ${JSON.stringify(m)}\n`);
});
