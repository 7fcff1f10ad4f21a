import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInSlices, SLICE_MS } from '../../server/src/lsp/slices';
import type { Steps } from '../../server/src/service/steps';

/** Steps of about 1 ms each, recording `tag` in `log` as they run. */
function* work(tag: string, steps: number, log: string[]): Steps<void> {
  for (let i = 0; i < steps; i++) {
    const end = performance.now() + 1;
    while (performance.now() < end);
    log.push(tag);
    yield;
  }
}

describe('runInSlices', () => {
  it('returns to the event loop between slices', async () => {
    const log: string[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    assert.equal(await runInSlices(work('f', 5 * SLICE_MS, log), () => false), true);
    clearInterval(timer);
    assert.equal(log.length, 5 * SLICE_MS);
    assert.ok(ticks >= 2, `${ticks} timer callbacks ran meanwhile`);
  });

  it('pauses background runs while a foreground run is in progress', async () => {
    const log: string[] = [];
    const background = runInSlices(work('b', 6 * SLICE_MS, log), () => false, 'background');
    await new Promise((r) => setImmediate(r)); // the background run has taken its first slice
    const foreground = runInSlices(work('f', 3 * SLICE_MS, log), () => false);
    assert.deepEqual(await Promise.all([foreground, background]), [true, true]);
    const first = log.indexOf('f');
    const last = log.lastIndexOf('f');
    assert.ok(first > 0, 'the background run started first');
    assert.deepEqual(
      log.slice(first, last + 1).filter((t) => t === 'b'),
      [],
      'no background step between the first and last foreground step',
    );
    assert.equal(log.filter((t) => t === 'b').length, 6 * SLICE_MS, 'then the background run finished');
  });

  it('drops a paused background run whose result became stale meanwhile', async () => {
    const log: string[] = [];
    let stale = false;
    const background = runInSlices(work('b', 100, log), () => stale, 'background');
    await new Promise((r) => setImmediate(r));
    const foreground = runInSlices(work('f', 2 * SLICE_MS, log), () => false).then((done) => {
      stale = true;
      return done;
    });
    assert.deepEqual(await Promise.all([foreground, background]), [true, false]);
    assert.ok(log.filter((t) => t === 'b').length < 100);
  });
});
