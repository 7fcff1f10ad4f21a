// A hostile tool against its judge (issue 14): each attack that worked against the old runner, with a
// real python3, run in the sandbox. Nothing the tool can write may become the verdict; no process or
// /dev/shm file may outlive the run; the peak is the kernel's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startRun } from '../../server/src/engine/run/run';
import { sandboxSupport, type Launcher } from '../../server/src/engine/run/sandbox';
import type { RunOptions, RunResult } from '../../server/src/engine/run/types';

const root = mkdtempSync(join(tmpdir(), 'tooldef-attack-test-'));
const cacheDir = join(root, 'cache');
after(() => rmSync(root, { recursive: true, force: true }));

/** Live processes whose environment holds the marker. */
function marked(marker: string): number[] {
  const needle = `TOOLDEF_TEST_MARK=${marker}`;
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        if (/\) [ZX] /.test(readFileSync(`/proc/${n}/stat`, 'utf8'))) return false;
        return readFileSync(`/proc/${n}/environ`, 'latin1').split('\0').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Every launcher is tested (`npm test` installs bubblewrap, scripts/setup-debian-packages.sh; util-linux
 * is always there), and the sandbox without a memory cgroup, whose memory is sampled from outside.
 */
for (const launcher of ['bwrap', 'unshare'] as const) attacks(launcher, 'auto');
attacks('bwrap', 'sampled');

function attacks(launcher: Launcher, accounting: 'auto' | 'sampled'): void {
  const support = sandboxSupport(launcher);
  const measured = accounting === 'auto';

  async function run(code: string, opts: Partial<RunOptions> = {}): Promise<RunResult & { left: number[] }> {
    const marker = randomUUID();
    const toolEnv = { TOOLDEF_TEST_MARK: marker, ...opts.toolEnv };
    const result = await startRun({ code, variables: {}, cacheDir, ...opts, toolEnv, mechanism: launcher, accounting })
      .result;
    assert.equal(result.isolation, 'sandbox', JSON.stringify(result));
    assert.equal(result.memory, measured ? 'measured' : 'sampled');
    assert.match(
      result.mechanismNote ?? '',
      new RegExp(`^sandbox: ${launcher}, ${measured ? 'cgroup v[12]$' : 'memory sampled'}`),
    );
    return { ...result, left: marked(marker) };
  }

  /** A grandchild that leaves the session and would sleep for five minutes. */
  const SURVIVOR = 'subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)';

  describe(
    `a hostile tool cannot forge or dodge its verdict (${launcher}, memory ${measured ? 'measured' : 'sampled'})`,
    { skip: !support.available && `no sandbox here: ${!support.available ? support.why : ''}` },
    () => {
      test('it cannot see or signal its judge: kill -9 of every process it can see leaves only itself', async () => {
        const code = [
          'import os, signal',
          'def execute(variables):',
          '    seen = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())',
          '    for pid in seen:',
          '        if pid != os.getpid():',
          '            try: os.kill(pid, signal.SIGKILL)',
          '            except OSError: pass',
          '    return " ".join(map(str, seen)) + " ppid=" + str(os.getppid())',
        ].join('\n');
        const r = await run(code);
        assert.equal(r.ok, true, JSON.stringify(r));
        // unshare: the tool is the namespace's first process; bwrap: its stub init is, and is its parent.
        const alone = launcher === 'unshare' ? '1 ppid=0' : '1 2 ppid=1';
        assert.equal(r.result, alone, 'the tool sees only its namespace; the judge is outside it');
      });

      test('a success written to the outcome channel, then os._exit(3), is an exit, not a success; its grandchild dies', async () => {
        const code = [
          'import os, subprocess, sys',
          'def execute(variables):',
          `    ${SURVIVOR}`,
          '    for fd in range(3, 64):',
          '        try: os.write(fd, b\'{"ok": true, "result": "forged"}\\n\')',
          '        except OSError: pass',
          '    os._exit(3)',
        ].join('\n');
        const r = await run(code);
        assert.equal(r.ok, false, JSON.stringify(r));
        assert.equal(r.result, undefined);
        assert.equal(r.error?.kind, 'exited');
        assert.equal(r.error?.exitCode, 3);
        assert.deepEqual(r.left, []);
      });

      test('a forged outcome line followed by hanging on is judged by the clock: time limit, nothing left', async () => {
        const code = [
          'import os, signal, subprocess, sys, time',
          'def execute(variables):',
          `    ${SURVIVOR}`,
          '    os.write(3, b\'{"ok": true, "result": "forged"}\\n\')',
          '    signal.signal(signal.SIGTERM, signal.SIG_IGN)',
          '    while True: time.sleep(1)',
        ].join('\n');
        const r = await run(code, { timeoutMs: 2000 });
        assert.equal(r.ok, false, JSON.stringify(r));
        assert.equal(r.limit, 'time');
        assert.deepEqual(r.left, []);
      });

      test('SIGSTOP of everything it can see does not switch the limits off', async () => {
        const code = [
          'import os, signal, time',
          'def execute(variables):',
          '    for p in os.listdir("/proc"):',
          '        if p.isdigit() and int(p) != os.getpid():',
          '            try: os.kill(int(p), signal.SIGSTOP)',
          '            except OSError: pass',
          '    time.sleep(300)',
        ].join('\n');
        const r = await run(code, { timeoutMs: 2000 });
        assert.equal(r.limit, 'time', JSON.stringify(r));
        assert.deepEqual(r.left, []);
      });

      for (const [what, hold] of [
        [
          'a memfd',
          'fd = os.memfd_create("hide"); os.ftruncate(fd, 512 << 20); m = mmap.mmap(fd, 512 << 20); m.write(b"x" * (64 << 20)); [m.write(b"x" * (64 << 20)) for _ in range(7)]',
        ],
        [
          'a /dev/shm file',
          'f = open("/dev/shm/tooldef-hide-" + str(os.getpid()), "wb"); [f.write(b"x" * (64 << 20)) for _ in range(8)]; f.flush()',
        ],
      ] as const) {
        test(`512 MB in ${what} is counted: the 256 MB limit stops it${measured ? ', and the peak stays within the limit' : ''}`, async () => {
          const code = [
            'import mmap, os, time',
            'def execute(variables):',
            `    ${hold}`,
            '    time.sleep(60)',
            '    return "hidden"',
          ].join('\n');
          const r = await run(code, { memoryMb: 256 });
          assert.equal(r.ok, false, JSON.stringify(r));
          assert.equal(r.limit, 'memory');
          // A sample can be taken after the tool passed the limit: only a cgroup keeps it under.
          if (measured) assert.ok(r.peakMemoryMb <= 256 && r.peakMemoryMb > 200, `peak ${r.peakMemoryMb}`);
          else assert.ok(r.peakMemoryMb > 256, `peak ${r.peakMemoryMb}`);
          assert.deepEqual(r.left, []);
        });
      }

      test('a file left in /dev/shm does not outlive the run', async () => {
        const name = `tooldef-left-${randomUUID()}`;
        const r = await run(
          `def execute(variables):\n    open("/dev/shm/${name}", "wb").write(b"x" * 4096)\n    return "left"\n`,
        );
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.equal(existsSync(join('/dev/shm', name)), false);
      });

      // Only the kernel's limit and high-water mark can promise these; a sampled run says it is sampled.
      if (measured)
        test('6,000 threads allocating at once cannot overshoot the limit', async () => {
          const code = [
            'import threading, time',
            'def execute(variables):',
            '    keep = []',
            '    def grab():',
            '        keep.append(bytearray(b"x") * (1 << 20))',
            '        time.sleep(60)',
            '    threads = [threading.Thread(target=grab, daemon=True) for _ in range(6000)]',
            '    for t in threads: t.start()',
            '    time.sleep(60)',
          ].join('\n');
          const r = await run(code, { memoryMb: 256 });
          assert.equal(r.limit, 'memory', JSON.stringify(r));
          assert.ok(r.peakMemoryMb <= 256, `peak ${r.peakMemoryMb} MB over a 256 MB limit`);
          assert.deepEqual(r.left, []);
        });

      if (measured)
        test('the peak is measured: a tool holding 200 MB is reported within 10 % of its high-water mark, three runs in a row', async () => {
          const code = [
            'def execute(variables):',
            '    b = bytearray(200 << 20)',
            '    for i in range(0, len(b), 4096): b[i] = 1',
            '    hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM:")][0].split()[1]',
            '    return str(int(hwm) / 1024)',
          ].join('\n');
          for (let i = 0; i < 3; i++) {
            const r = await run(code);
            assert.equal(r.ok, true, JSON.stringify(r));
            const truth = Number(r.result);
            assert.ok(truth >= 200, `VmHWM ${truth}`);
            assert.ok(
              Math.abs(r.peakMemoryMb - truth) <= truth * 0.1,
              `run ${i + 1}: peak ${r.peakMemoryMb} MB, high-water mark ${truth} MB`,
            );
          }
        });

      test("the tool sees none of the caller's environment: a token in it does not come back", async () => {
        const r = await run('import os\ndef execute(variables):\n    return repr(dict(os.environ))\n', {
          env: { ...process.env, TOOLDEF_TOKEN: 'sk-secret-123', AWS_SECRET_ACCESS_KEY: 'aws-secret' },
        });
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.doesNotMatch(r.result!, /sk-secret-123|aws-secret/);
        assert.match(r.result!, /'HOME'/);
      });

      // Every cached environment, its own or another tool's: a .pth left there would run in the next tool.
      for (const [what, write] of [
        [
          'a .pth in its own environment',
          'open(os.path.join(sysconfig.get_paths()["purelib"], "evil.pth"), "w").write("import os\\n")',
        ],
        [
          "a folder beside it, in another tool's place",
          'os.mkdir(os.path.join(os.path.dirname(sys.prefix), "planted"))',
        ],
      ] as const) {
        test(`the cached environments are read-only to the tool: ${what} cannot be written`, async () => {
          const code = [
            'import os, sys, sysconfig',
            'def execute(variables):',
            '    try:',
            `        ${write}`,
            '        return "written"',
            '    except OSError as e:',
            '        return "refused " + e.strerror',
          ].join('\n');
          const r = await run(code);
          assert.equal(r.ok, true, JSON.stringify(r));
          assert.equal(r.result, 'refused Read-only file system');
        });
      }

      test('it cannot move itself out of its memory cgroup: the cgroup tree is hidden and cannot be mounted', async () => {
        const code = [
          'import os, subprocess',
          'def execute(variables):',
          '    seen = os.listdir("/sys/fs/cgroup")',
          '    m = subprocess.run(["mount", "-t", "cgroup", "-o", "memory", "x", "/tmp"], capture_output=True)',
          '    u = subprocess.run(["umount", "/sys/fs/cgroup"], capture_output=True)',
          '    return repr((seen, m.returncode != 0, u.returncode != 0))',
        ].join('\n');
        const r = await run(code);
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.equal(r.result, '([], True, True)');
      });
    },
  );
}
