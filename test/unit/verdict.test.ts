// The judge's decision rules (server/src/engine/run/judge.ts, `verdict`): what only the judge and the kernel
// know decides; the tool's outcome line is read only when the host ended by itself with status 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdict, type Judged } from '../../server/src/engine/run/judge';

const limits = { timeoutMs: 5000, memoryBytes: 256 * 2 ** 20 };
const OK = JSON.stringify({ ok: true, result: 'fine' });

function judged(extra: Partial<Judged>): Judged {
  return {
    status: { code: 0, signal: null },
    stopped: false,
    elapsedMs: 120,
    peakBytes: 20 * 2 ** 20,
    outcome: OK,
    outcomeTooLarge: false,
    leftovers: [],
    killed: [],
    outputBytes: 0,
    outputTruncated: false,
    launcherErrors: '',
    ...extra,
  };
}

describe('the verdict of a judged run', () => {
  it('a host that reported a string and ended with status 0: success, with the measured time and peak', () => {
    const r = verdict(judged({}), limits);
    assert.deepEqual(
      { ok: r.ok, result: r.result, elapsedMs: r.elapsedMs, peak: r.peakMemoryBytes },
      { ok: true, result: 'fine', elapsedMs: 120, peak: 20 * 2 ** 20 },
    );
  });

  for (const [what, extra, kind, pattern] of [
    ['a success line, then exit status 3', { status: { code: 3, signal: null } }, 'exited', /exited with status 3/],
    [
      'a success line, then killed by a signal',
      { status: { code: null, signal: 'SIGKILL' as NodeJS.Signals } },
      'exited',
      /killed by SIGKILL/,
    ],
    ["a success line, but the judge's clock ran out", { limit: 'time' as const }, 'limit', /time limit of 5 s/],
    [
      'a success line, but the kernel killed for memory',
      { limit: 'memory' as const },
      'limit',
      /memory limit of 256 MB/,
    ],
    ['a success line, but the user stopped the run', { stopped: true }, 'cancelled', /stopped after/],
    [
      'no outcome line and status 0 (os._exit(0))',
      { outcome: undefined },
      'exited',
      /exited with status 0 before execute returned/,
    ],
    ['a line that is not an outcome', { outcome: 'hello' }, 'runner', /something other than an outcome/],
    ['an outcome over the cap', { outcome: undefined, outcomeTooLarge: true }, 'result-too-large', /larger than/],
    [
      'a launcher that could not start',
      { outcome: undefined, status: { code: null, signal: null }, spawnError: 'ENOENT' },
      'runner',
      /could not be started: ENOENT/,
    ],
  ] as const) {
    it(`${what}: ${kind}`, () => {
      const r = verdict(judged(extra), limits);
      assert.equal(r.ok, false, JSON.stringify(r));
      assert.equal(r.result, undefined);
      assert.equal(r.error?.kind, kind);
      assert.match(r.error!.message, pattern);
    });
  }

  it("the tool's own failure, reported by a host that ended normally, is passed on as the tool's", () => {
    const outcome = JSON.stringify({
      ok: false,
      kind: 'exception',
      type: 'ValueError',
      message: 'execute raised ValueError: x',
      traceback: 'Traceback …',
    });
    const r = verdict(judged({ outcome }), limits);
    assert.deepEqual(r.error, {
      kind: 'exception',
      type: 'ValueError',
      message: 'execute raised ValueError: x',
      traceback: 'Traceback …',
    });
  });

  it('leftovers are named in a notice and listed', () => {
    const r = verdict(judged({ leftovers: [{ pid: 7, command: 'sleep 300' }] }), limits);
    assert.equal(r.ok, true);
    assert.deepEqual(r.leftovers, [{ pid: 7, command: 'sleep 300' }]);
    assert.deepEqual(r.notices, [
      '1 process the tool started was still running after execute ended and was killed: pid 7 (sleep 300).',
    ]);
  });
});
