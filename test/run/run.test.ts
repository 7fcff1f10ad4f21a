// Running smart tools locally (issue 4): the Node API (server/src/engine/run) with the real python3 and the
// runner (runner/tooldef_runner.py), and the `tooldef run` CLI in-process.
//
// Every run gets a unique marker in its environment; after the run, no process on the machine may
// still carry it (Linux: /proc/*/environ), which covers setsid'd and double-forked descendants.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../server/src/cli/cli';
import { normaliseRequirements } from '../../server/src/engine/run/environment';
import { checkLimits } from '../../server/src/engine/run/limits';
import { findPython } from '../../server/src/engine/run/python';
import { startRun } from '../../server/src/engine/run/run';
import { runnerScriptPath } from '../../server/src/engine/run/supervisor';
import type { RunOptions, RunResult } from '../../server/src/engine/run/types';
import { smartTool } from '../helpers';

const hasPython = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 8)']).status === 0;
const skip = hasPython ? false : 'python3 (3.8+) is not installed';
const linux = process.platform === 'linux';
const root = mkdtempSync(join(tmpdir(), 'tooldef-run-test-'));
const cacheDir = join(root, 'cache');

after(() => rmSync(root, { recursive: true, force: true }));

/** Live (non-zombie) processes whose environment holds the marker. */
function processesMarked(marker: string): number[] {
  if (!linux) return [];
  const needle = `TOOLDEF_TEST_MARK=${marker}`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/\) [ZX] /.test(stat)) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(needle)) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!linux) return true;
  try {
    return !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

interface Outcome {
  result: RunResult;
  stdout: string;
  stderr: string;
  left: number[];
}

async function run(code: string, opts: Partial<RunOptions> & { stopAfterMs?: number } = {}): Promise<Outcome> {
  const marker = randomUUID();
  let stdout = '';
  let stderr = '';
  const handle = startRun({
    code,
    variables: { name: 'World' },
    cacheDir,
    ...opts,
    toolEnv: { TOOLDEF_TEST_MARK: marker, ...opts.toolEnv },
    onStdout: (t) => (stdout += t),
    onStderr: (t) => (stderr += t),
    onProgress: (p) => {
      opts.onProgress?.(p);
      if (p.stage === 'run') {
        if (opts.stopAfterMs !== undefined) setTimeout(() => handle.stop(), opts.stopAfterMs);
      }
    },
  });
  const result = await handle.result;
  return { result, stdout, stderr, left: processesMarked(marker) };
}

function assertNothingLeft(o: Outcome): void {
  assert.deepEqual(o.left, [], `processes of the run still alive: ${o.left.join(', ')}`);
}

/** A tool whose grandchild leaves the session (setsid between two forks) and outlives it; returns its pid. */
const DOUBLE_FORK_DAEMON = [
  'import os, time',
  'def execute(variables):',
  '    r, w = os.pipe()',
  '    if os.fork() == 0:',
  '        os.setsid()',
  '        if os.fork() == 0:',
  '            os.write(w, str(os.getpid()).encode())',
  '            time.sleep(300)',
  '        os._exit(0)',
  '    return os.read(r, 32).decode()',
  '',
].join('\n');

describe('running a smart tool', { skip }, () => {
  before(async () => {
    // The environment for "no requirements" is built once here, so timings below measure runs only.
    const warm = await run('def execute(variables):\n    return "warm"\n');
    assert.equal(warm.result.result, 'warm', JSON.stringify(warm.result));
  });

  test('a tool that returns a string: the string, its output streamed live, time and memory reported', async () => {
    const o = await run(
      'import sys\ndef execute(variables):\n    print("to stdout")\n    print("to stderr", file=sys.stderr)\n    return "hi " + variables["name"]\n',
    );
    assert.equal(o.result.ok, true, JSON.stringify(o.result));
    assert.equal(o.result.result, 'hi World');
    assert.equal(o.result.error, undefined);
    assert.match(o.stdout, /to stdout/);
    assert.match(o.stderr, /to stderr/);
    assert.ok(o.result.elapsedMs > 0);
    assert.ok(o.result.peakMemoryMb > 1 && o.result.peakMemoryMb < 500, `peak ${o.result.peakMemoryMb}`);
    assert.deepEqual(o.result.limits, { timeoutMs: 15 * 60 * 1000, memoryMb: 10 * 1024 });
    assert.equal(o.result.environment?.cached, true);
    if (linux) assert.ok(o.result.mechanism === 'cgroup' || o.result.mechanism === 'poll', o.result.mechanism);
    assertNothingLeft(o);
  });

  test('a tool that raises: the exception with its traceback in tool_code', async () => {
    const o = await run(
      'def helper(x):\n    raise ValueError("bad value " + x)\n\ndef execute(variables):\n    return helper(variables["name"])\n',
    );
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'exception');
    assert.equal(o.result.error?.type, 'ValueError');
    assert.match(o.result.error!.message, /ValueError: bad value World/);
    const tb = o.result.error!.traceback!;
    assert.match(tb, /File "tool_code", line 5, in execute\n\s+return helper\(variables\["name"\]\)/);
    assert.match(tb, /File "tool_code", line 2, in helper\n\s+raise ValueError/);
    assert.doesNotMatch(tb, /tooldef_runner/, 'runner frames are not shown');
    assertNothingLeft(o);
  });

  test('a tool that returns a dict: reported as not a str, saying dict', async () => {
    const o = await run('def execute(variables):\n    return {"answer": 42}\n');
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'not-str');
    assert.equal(o.result.error?.returnType, 'dict');
    assert.equal(o.result.error?.returnRepr, "{'answer': 42}");
    assert.match(o.result.error!.message, /returned a dict, not a str/);
    assertNothingLeft(o);
  });

  test('a tool that returns None says so', async () => {
    const o = await run('def execute(variables):\n    pass\n');
    assert.equal(o.result.error?.kind, 'not-str');
    assert.match(o.result.error!.message, /returned None, not a str/);
  });

  test('a tool that sleeps past a 3-second limit is killed for time', async () => {
    const o = await run('import time\ndef execute(variables):\n    time.sleep(300)\n    return "late"\n', {
      timeoutMs: 3000,
    });
    assert.equal(o.result.ok, false);
    assert.equal(o.result.limit, 'time');
    assert.equal(o.result.error?.kind, 'limit');
    assert.match(o.result.error!.message, /time limit of 3 s/);
    assert.ok(o.result.elapsedMs >= 3000, `elapsed ${o.result.elapsedMs}`);
    assertNothingLeft(o);
  });

  test('a tool that allocates past a 256 MB limit in one process is killed for memory', async () => {
    const code =
      'import time\ndef execute(variables):\n    chunks = []\n    for _ in range(100):\n        chunks.append(bytearray(b"x") * (10 << 20))\n        time.sleep(0.01)\n    time.sleep(60)\n    return "kept it all"\n';
    const o = await run(code, { memoryMb: 256 });
    assert.equal(o.result.ok, false, JSON.stringify(o.result));
    assert.equal(o.result.limit, 'memory');
    assert.equal(o.result.error?.kind, 'limit');
    assert.match(o.result.error!.message, /memory limit of 256 MB/);
    assert.ok(o.result.peakMemoryMb > 200, `peak ${o.result.peakMemoryMb}`);
    assertNothingLeft(o);
  });

  test('four child processes of 100 MB each, over a 256 MB limit together, are all killed for memory', async () => {
    const code = [
      'import subprocess, sys, time',
      'def execute(variables):',
      '    hog = "import time\\nb = bytearray(b\'x\') * (100 << 20)\\ntime.sleep(120)\\n"',
      '    children = [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(4)]',
      '    time.sleep(60)',
      '    return "survived"',
      '',
    ].join('\n');
    const o = await run(code, { memoryMb: 256 });
    assert.equal(o.result.ok, false, JSON.stringify(o.result));
    assert.equal(o.result.limit, 'memory');
    assert.match(o.result.error!.message, /memory limit of 256 MB/);
    if (o.result.mechanism === 'poll') assert.match(o.result.error!.message, /in use by [2-5] processes/);
    // The kernel kills at the limit: with poll the sampler kills all, with a cgroup at least the tool is left to kill.
    assert.ok(
      (o.result.killed?.length ?? 0) >= (o.result.isolation === 'sandbox' ? 1 : 3),
      `killed ${JSON.stringify(o.result.killed)}`,
    );
    assertNothingLeft(o);
  });

  test('a setsid grandchild that would outlive the tool is killed, and said so', async () => {
    const code = [
      'import subprocess, sys',
      'def execute(variables):',
      '    p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)',
      '    return str(p.pid)',
      '',
    ].join('\n');
    const o = await run(code);
    assert.equal(o.result.ok, true, JSON.stringify(o.result));
    const pid = Number(o.result.result);
    assert.ok(pid > 0);
    assert.ok(
      o.result.leftovers?.some((p) => p.pid === pid),
      JSON.stringify(o.result.leftovers),
    );
    assert.ok(
      o.result.notices.some((n) => n.includes(`pid ${pid}`) && /still running after execute ended/.test(n)),
      JSON.stringify(o.result.notices),
    );
    // In the sandbox the pid is the one the tool saw, inside its namespace: the marker check covers it.
    if (o.result.isolation !== 'sandbox') assert.equal(alive(pid), false, `pid ${pid} is still alive`);
    assertNothingLeft(o);
  });

  test(
    'a double-forked daemon (setsid between the forks) is found and killed',
    { skip: !linux && 'needs /proc' },
    async () => {
      const code = DOUBLE_FORK_DAEMON;
      const o = await run(code);
      assert.equal(o.result.ok, true, JSON.stringify(o.result));
      const pid = Number(o.result.result);
      assert.ok(
        o.result.leftovers?.some((p) => p.pid === pid),
        JSON.stringify(o.result.leftovers),
      );
      if (o.result.isolation !== 'sandbox') assert.equal(alive(pid), false);
      assertNothingLeft(o);
    },
  );

  test('a tool that prints 1 GB: output capped with a notice, the run goes on', async () => {
    const code =
      'import sys\ndef execute(variables):\n    chunk = "x" * (1 << 20) + "\\n"\n    for _ in range(1024):\n        sys.stdout.write(chunk)\n    return "printed"\n';
    const o = await run(code);
    const shown = Buffer.byteLength(o.stdout);
    assert.equal(o.result.ok, true, JSON.stringify(o.result));
    assert.equal(o.result.result, 'printed');
    assert.equal(o.result.outputTruncated, true);
    assert.ok(o.result.outputBytes! >= 1024 * (1 << 20), `output ${o.result.outputBytes}`);
    assert.ok(shown <= 10 * 1024 * 1024, `forwarded ${shown}`);
    assert.match(o.stderr, /\[tooldef\] The tool's output passed 10 MB; the rest is not shown \(the run goes on\)/);
    assert.ok(
      o.result.notices.some((n) => /only the first (10 MB|part) was shown/.test(n)),
      JSON.stringify(o.result.notices),
    );
    assertNothingLeft(o);
  });

  test('a tool that returns 20 MB: the whole string comes back, through many pipe chunks', async () => {
    const o = await run('def execute(variables):\n    return "é" * (10 << 20)\n');
    assert.equal(o.result.ok, true, o.result.error?.message);
    assert.equal(o.result.result!.length, 10 << 20);
    assert.ok(/^é+$/.test(o.result.result!), 'every character arrived intact');
  });

  test('a tool that calls input(): stdin is closed in the service', async () => {
    const o = await run('def execute(variables):\n    return input("Your name? ")\n');
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'input');
    assert.match(o.result.error!.message, /called input\(\); stdin is closed in the service/);
    assert.match(o.result.error!.traceback!, /EOFError/);
    assertNothingLeft(o);
  });

  test('a tool that calls os._exit(0) before returning', async () => {
    const o = await run('import os\ndef execute(variables):\n    os._exit(0)\n');
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'exited');
    assert.equal(o.result.error?.exitCode, 0);
    assert.match(o.result.error!.message, /exited with status 0 before execute returned/);
    assertNothingLeft(o);
  });

  test('a tool that calls sys.exit(3) before returning', async () => {
    const o = await run('import sys\ndef execute(variables):\n    sys.exit(3)\n');
    assert.equal(o.result.error?.kind, 'exited');
    assert.equal(o.result.error?.exitCode, 3);
    assert.match(o.result.error!.message, /sys\.exit\(3\) before execute returned/);
  });

  test('tool_code that fails to load, and tool_code without execute', async () => {
    const load = await run('import no_such_module_xyz\ndef execute(variables):\n    return ""\n');
    assert.equal(load.result.error?.kind, 'load');
    assert.equal(load.result.error?.type, 'ModuleNotFoundError');
    assert.match(load.result.error!.message, /while loading, before execute was called/);
    const none = await run('def run(variables):\n    return ""\n');
    assert.equal(none.result.error?.kind, 'no-execute');
  });

  test("a syntax error, in CPython's words, is reported before any requirement is installed", async () => {
    const log: string[] = [];
    const syntax = await run('def execute(variables)\n    return ""\n', {
      requirements: 'tooldef-not-installed-pkg==1.0',
      onLog: (t) => log.push(t),
    });
    assert.equal(syntax.result.error?.kind, 'load');
    assert.equal(syntax.result.error?.type, 'SyntaxError');
    assert.match(syntax.result.error!.message, /^tool_code does not compile: SyntaxError: expected ':' \(line 1\)$/);
    assert.equal(syntax.result.environment, undefined);
    assert.deepEqual(log, [], 'nothing was installed');
  });

  test('stop() during the run kills the tree and reports cancelled', async () => {
    const code =
      'import subprocess, sys, time\ndef execute(variables):\n    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"], start_new_session=True)\n    time.sleep(300)\n';
    const o = await run(code, { stopAfterMs: 1500 });
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'cancelled');
    assert.match(o.result.error!.message, /stopped/);
    assertNothingLeft(o);
  });

  test('bad limits (zero, negative, not a number, too small, above the service) are errors that run nothing', async () => {
    assert.deepEqual(checkLimits({}), { timeoutMs: 900_000, memoryMb: 10_240 });
    assert.deepEqual(checkLimits({ timeoutMs: 5000, memoryMb: 100 }), { timeoutMs: 5000, memoryMb: 100 });
    for (const bad of [
      { memoryMb: 0.0000001 },
      { memoryMb: 0 },
      { memoryMb: -5 },
      { memoryMb: NaN },
      { memoryMb: 64 * 1024 },
      { timeoutMs: 0 },
      { timeoutMs: 10 * 3600 * 1000 },
      { timeoutMs: Infinity },
    ]) {
      const checked = checkLimits(bad);
      assert.ok('error' in checked, `${JSON.stringify(bad)} accepted`);
    }
    assert.deepEqual(checkLimits({ memoryMb: 64 * 1024 }), {
      error: 'The memory limit of 64 GB is outside 16 MB–10 GB (the service allows at most 10 GB).',
    });
    const stages: string[] = [];
    const o = await run('def execute(variables):\n    return "ok"\n', {
      memoryMb: 0.0000001,
      onProgress: (p) => stages.push(p.stage),
    });
    assert.equal(o.result.error?.kind, 'limits');
    assert.match(o.result.error!.message, /memory limit of 1e-7 MB is outside 16 MB–10 GB/);
    assert.deepEqual(stages, [], 'nothing ran');
  });

  test('an interpreter that does not exist is a clear python error', async () => {
    const o = await run('def execute(variables):\n    return ""\n', { python: join(root, 'no-such-python') });
    assert.equal(o.result.error?.kind, 'python');
    assert.match(o.result.error!.message, /no-such-python cannot run tools:\n.*not found/);
  });

  test('findPython verifies the version', async () => {
    const info = await findPython();
    assert.ok(info.version[0] === 3 && info.version[1] >= 8);
    assert.ok(info.executable.length > 0);
  });
});

describe('the legacy supervisor (no sandbox)', { skip }, () => {
  test("a .pth planted in the environment never runs in the supervisor, only in the tool's own process", async () => {
    const cache = join(root, 'pth-cache');
    const log = join(root, 'pth.log');
    // Where a sandbox cannot be made, the tool can write its environment: it plants a .pth for the next run.
    const plant = [
      'import os, sysconfig',
      'def execute(variables):',
      "    line = \"import os; open(%r, 'a').write('child\\\\n' if os.environ.get('TOOLDEF_RUN_ID') else 'supervisor\\\\n')\" % " +
        JSON.stringify(log),
      '    open(os.path.join(sysconfig.get_paths()["purelib"], "planted.pth"), "w").write(line + "\\n")',
      '    return "planted"',
    ].join('\n');
    const first = await run(plant, { mechanism: 'poll', cacheDir: cache });
    assert.equal(first.result.result, 'planted', JSON.stringify(first.result));
    const second = await run('def execute(variables):\n    return "next"\n', { mechanism: 'poll', cacheDir: cache });
    assert.equal(second.result.result, 'next', JSON.stringify(second.result));
    assert.equal(second.result.isolation, 'none');
    // (CPython may read it twice: a venv's lib64 links to lib, and site walks both.)
    assert.deepEqual(
      [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))],
      ['child'],
      "the .pth ran in the tool's process only",
    );
  });
});

describe(
  'the macOS mechanism (ps polling, process group, run marker), exercised here',
  { skip: skip || (process.platform === 'win32' && 'POSIX only') },
  () => {
    const mechanism = 'process-group' as const;

    test('four children of 100 MB over a 256 MB limit: killed for memory', async () => {
      const code =
        'import subprocess, sys, time\ndef execute(variables):\n    hog = "import time\\nb = bytearray(b\'x\') * (100 << 20)\\ntime.sleep(120)\\n"\n    [subprocess.Popen([sys.executable, "-c", hog]) for _ in range(4)]\n    time.sleep(60)\n';
      const o = await run(code, { memoryMb: 256, mechanism });
      assert.equal(o.result.mechanism, 'process-group');
      assert.equal(o.result.limit, 'memory', JSON.stringify(o.result));
      assertNothingLeft(o);
    });

    test('a double-forked daemon that left the process group and lost its parent is still found and killed', async () => {
      const code = DOUBLE_FORK_DAEMON;
      const o = await run(code, { mechanism });
      assert.equal(o.result.ok, true, JSON.stringify(o.result));
      const pid = Number(o.result.result);
      assert.ok(
        o.result.leftovers?.some((p) => p.pid === pid),
        JSON.stringify(o.result.leftovers),
      );
      assert.equal(alive(pid), false);
      assertNothingLeft(o);
    });
  },
);

describe('setup: requirements in a cached virtual environment', { skip }, () => {
  let wheels: string;
  before(() => {
    // A real, tiny distribution built here (no network): a wheel is a zip with a dist-info.
    wheels = join(root, 'wheels');
    const script = [
      'import base64, hashlib, os, sys, zipfile',
      'out = sys.argv[1]',
      'name, ver = "tooldef_demo_pkg", "1.0.0"',
      'files = {',
      '    "tooldef_demo_pkg/__init__.py": "def greet(n):\\n    return \'demo greets \' + n\\n",',
      '    name + "-" + ver + ".dist-info/METADATA": "Metadata-Version: 2.1\\nName: tooldef-demo-pkg\\nVersion: " + ver + "\\n",',
      '    name + "-" + ver + ".dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: tooldef-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",',
      '}',
      'record = []',
      'for path, text in files.items():',
      '    data = text.encode()',
      '    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()',
      '    record.append("%s,sha256=%s,%d" % (path, digest, len(data)))',
      'record.append(name + "-" + ver + ".dist-info/RECORD,,")',
      'files[name + "-" + ver + ".dist-info/RECORD"] = "\\n".join(record) + "\\n"',
      'os.makedirs(out, exist_ok=True)',
      'with zipfile.ZipFile(os.path.join(out, name + "-" + ver + "-py3-none-any.whl"), "w") as z:',
      '    for path, text in files.items():',
      '        z.writestr(path, text)',
    ].join('\n');
    execFileSync('python3', ['-c', script, wheels]);
  });

  const code =
    'import tooldef_demo_pkg\ndef execute(variables):\n    return tooldef_demo_pkg.greet(variables["name"])\n';

  test("a requirement installed from a local wheel with the caller's --no-index --find-links; the environment is then reused", async () => {
    const logs: string[] = [];
    const progress: string[] = [];
    const pipArgs = ['--no-index', '--find-links', wheels];
    const first = await run(code, {
      requirements: '# the demo\ntooldef-demo-pkg==1.0.0\n',
      pipArgs,
      onLog: (t) => logs.push(t),
      onProgress: (p) => progress.push(p.message),
    });
    assert.equal(first.result.ok, true, JSON.stringify(first.result));
    assert.equal(first.result.result, 'demo greets World');
    assert.equal(first.result.environment?.cached, false);
    assert.match(logs.join(''), /Successfully installed tooldef-demo-pkg-1\.0\.0/);
    assert.ok(
      progress.some((p) => /Installing tooldef-demo-pkg==1\.0\.0/.test(p)),
      progress.join(' | '),
    );
    assertNothingLeft(first);
    // Same requirements, written differently (blank lines, a comment, trailing spaces): the cached environment.
    const again = await run(code, { requirements: '\n  tooldef-demo-pkg==1.0.0   # pinned\n\n', pipArgs });
    assert.equal(again.result.result, 'demo greets World');
    assert.equal(again.result.environment?.cached, true);
    assert.equal(again.result.environment?.dir, first.result.environment?.dir);
  });

  test('a tool without the requirement cannot import it: environments are isolated', async () => {
    const o = await run(code);
    assert.equal(o.result.error?.kind, 'load');
    assert.equal(o.result.error?.type, 'ModuleNotFoundError');
  });

  test("a requirement that cannot be installed is a setup failure with pip's own message", async () => {
    const o = await run(code, {
      requirements: 'tooldef-no-such-pkg==9.9',
      pipArgs: ['--no-index', '--find-links', wheels],
    });
    assert.equal(o.result.ok, false);
    assert.equal(o.result.error?.kind, 'setup');
    assert.match(o.result.error!.message, /Installing the requirements \(tooldef-no-such-pkg==9\.9\) failed/);
    assert.match(o.result.error!.output!, /No matching distribution found for tooldef-no-such-pkg==9\.9/);
    const venvs = readdirSync(join(cacheDir, 'venvs'));
    assert.ok(!venvs.some((n) => n.endsWith('.tmp')), 'no half-built environment is committed');
    assertNothingLeft(o);
  });

  test('pip options in requirements are refused: only the caller chooses indexes', async () => {
    const o = await run(code, { requirements: '--index-url http://example.invalid/simple\ntooldef-demo-pkg' });
    assert.equal(o.result.error?.kind, 'setup');
    assert.match(
      o.result.error!.message,
      /line 1: --index-url http:\/\/example\.invalid\/simple: '--index-url' is a pip option/,
    );
    assert.deepEqual(normaliseRequirements('b\n\na  # c\nb\n# x\nc; python_version >= "3.8"').lines, [
      'a',
      'b',
      'c; python_version >= "3.8"',
    ]);
  });

  test('nothing is installed from a URL or a path: its setup code never runs', async () => {
    // A local project whose setup.py leaves a mark if pip ever builds it.
    const project = join(root, 'evil-project');
    const mark = join(root, 'evil-ran');
    mkdirSync(project, { recursive: true });
    writeFileSync(
      join(project, 'setup.py'),
      `open(${JSON.stringify(mark)}, "w").write("ran")\nfrom setuptools import setup\nsetup(name="evil", version="1.0")\n`,
    );
    const url = pathToFileURL(project).href;
    for (const line of [`evil @ ${url}`, url, project, './evil-project', 'evil-1.0.tar.gz']) {
      const logs: string[] = [];
      const o = await run(code, { requirements: `tooldef-demo-pkg\n${line}`, onLog: (t) => logs.push(t) });
      assert.equal(o.result.error?.kind, 'setup', line);
      assert.match(
        o.result.error!.message,
        new RegExp(`line 2: ${line.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*(URL|path|file)`),
        line,
      );
      assert.deepEqual(logs, [], `${line}: pip ran`);
      assert.equal(existsSync(mark), false, `${line}: its setup.py ran`);
    }
  });
});

describe(
  'runner: cgroup v2 discovery and set-up (on a fake cgroup tree)',
  { skip: skip || (!linux && 'Linux only') },
  () => {
    // This machine may have no writable cgroup v2 with the memory controller; the plumbing (finding the
    // own cgroup from mountinfo and /proc/self/cgroup, enabling the controller, memory.max read back,
    // oom.group, moving the tool in, reading memory.events) is checked against a fake tree instead.
    const script = String.raw`import importlib.util, os, sys, tempfile, json
spec = importlib.util.spec_from_file_location("tooldef_runner", sys.argv[1])
r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)
out = {}
base = tempfile.mkdtemp()
def setup(controllers, subtree_is_dir=False, mount_root="/", rel="/user.slice/app.scope"):
    d = tempfile.mkdtemp(dir=base)
    os.makedirs(d + "/proc")
    cg = d + "/cg"
    own = cg + rel if mount_root == "/" else cg + rel[len(mount_root):]
    os.makedirs(own)
    with open(d + "/proc/mountinfo", "w") as f:
        f.write("24 30 0:22 / /proc rw - proc proc rw\n30 25 0:26 %s %s rw,nosuid - cgroup2 cgroup2 rw\n" % (mount_root, cg.replace(" ", "\\040")))
    with open(d + "/proc/cgroup", "w") as f:
        f.write("0::%s\n" % rel)
    with open(own + "/cgroup.controllers", "w") as f:
        f.write(controllers + "\n")
    if subtree_is_dir: os.makedirs(own + "/cgroup.subtree_control")
    else: open(own + "/cgroup.subtree_control", "w").close()
    r.PROC_SELF = d + "/proc"
    return own
own = setup("cpu memory pids")
t = r.LinuxTracker(256 << 20, "auto")
class P: pid = 4242
t.attach(P())
out["ok"] = {"name": t.name, "path": t.cgroup and t.cgroup.replace(own, "OWN"), "subtree": open(own + "/cgroup.subtree_control").read(),
    "max": open(t.cgroup + "/memory.max").read(), "oomGroup": open(t.cgroup + "/memory.oom.group").read(),
    "procs": open(t.cgroup + "/cgroup.procs").read(), "killBefore": t.kernel_memory_kill()}
with open(t.cgroup + "/memory.events", "w") as f: f.write("low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n")
with open(t.cgroup + "/memory.peak", "w") as f: f.write("268435456\n")
out["ok"]["killAfter"] = t.kernel_memory_kill(); out["ok"]["peak"] = t.kernel_peak()
own = setup("cpu pids")
t = r.LinuxTracker(256 << 20, "auto"); out["noMemory"] = {"name": t.name, "note": t.note.replace(own, "OWN")}
own = setup("cpu memory", subtree_is_dir=True)
t = r.LinuxTracker(256 << 20, "auto"); out["cannotEnable"] = {"name": t.name, "note": t.note.replace(own, "OWN")}
own = setup("cpu memory", mount_root="/ns", rel="/ns/user.slice/x.scope")
t = r.LinuxTracker(256 << 20, "auto"); out["nsRoot"] = {"name": t.name, "path": t.cgroup and t.cgroup.replace(own, "OWN")}
own = setup("cpu memory pids")
t = r.LinuxTracker(256 << 20, "poll"); out["forcedPoll"] = {"name": t.name}
import shutil; shutil.rmtree(base, ignore_errors=True)
print(json.dumps(out, indent=1))
`;

    test('a child cgroup with memory.max when the memory controller can be delegated; polling otherwise', () => {
      const out = JSON.parse(
        execFileSync('python3', ['-c', script, runnerScriptPath()], { encoding: 'utf8' }),
      ) as Record<string, Record<string, unknown>>;
      assert.equal(out.ok.name, 'cgroup');
      assert.match(String(out.ok.path), /^OWN\/tooldef-run-\d+$/);
      assert.equal(out.ok.subtree, '+memory');
      assert.equal(out.ok.max, String(256 << 20));
      assert.equal(out.ok.oomGroup, '1');
      assert.equal(out.ok.procs, '4242');
      assert.equal(out.ok.killBefore, false);
      assert.equal(out.ok.killAfter, true);
      assert.equal(out.ok.peak, 256 << 20);
      assert.deepEqual(out.noMemory, {
        name: 'poll',
        note: 'no cgroup v2 limit: the memory controller is not available in OWN',
      });
      assert.equal(out.cannotEnable.name, 'poll');
      assert.match(String(out.cannotEnable.note), /^no cgroup v2 limit: /);
      assert.equal(out.nsRoot.name, 'cgroup');
      assert.equal(out.forcedPoll.name, 'poll');
    });
  },
);

describe('tooldef run (CLI)', { skip }, () => {
  function file(name: string, text: string): string {
    const p = join(root, name);
    writeFileSync(p, text);
    return p;
  }
  async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['run', ...args], {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      cwd: root,
      env: { ...process.env, TOOLDEF_CACHE_DIR: cacheDir },
    });
    return { code, stdout, stderr };
  }
  const greet = (code?: string): string =>
    smartTool({ code, variables: [{ name: 'name', description: 'Who', default: 'World' }] });

  test("exit 0: stdout holds only the returned string; the tool's output goes to stderr", async () => {
    const f = file(
      'greet.json',
      greet('def execute(variables):\n    print("noise")\n    return "hi " + variables["name"]\n'),
    );
    const r = await cli(f, '--input', 'name=Ann');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'hi Ann\n');
    assert.match(r.stderr, /noise/);
    assert.match(r.stderr, /returned a string after .* peak memory/);
    const d = await cli('--defaults', '--quiet', 'greet.json');
    assert.equal(d.stdout, 'hi World\n');
    assert.doesNotMatch(d.stderr, /Looking for Python/);
  });

  test('Ctrl-C stops the run: exit 130', async () => {
    const f = file(
      'sleepy.json',
      greet(
        'import sys, time\ndef execute(variables):\n    print("started", file=sys.stderr, flush=True)\n    time.sleep(600)\n    return "late"\n',
      ),
    );
    let stderr = '';
    let sent = false;
    const code = await runCli(['run', f, '--defaults'], {
      stdout: { write: () => true },
      stderr: {
        write: (s: string) => {
          stderr += s;
          // Once the tool runs, as a shell's Ctrl-C would (the CLI listens on its own process).
          if (!sent && stderr.includes('started')) sent = process.emit('SIGINT');
          return true;
        },
      },
      cwd: root,
      env: { ...process.env, TOOLDEF_CACHE_DIR: cacheDir },
    });
    assert.ok(sent, stderr);
    assert.equal(code, 130, stderr);
    assert.equal(process.listenerCount('SIGINT'), 0, 'the listener is removed');
  });

  test('--json: the documented object', async () => {
    const f = file('json.json', greet('def execute(variables):\n    return "x"\n'));
    const r = await cli(f, '--defaults', '--json');
    assert.equal(r.code, 0, r.stderr);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const k of ['ok', 'result', 'error', 'limit', 'elapsedMs', 'peakMemoryMb']) assert.ok(k in j, `missing ${k}`);
    assert.equal(j.ok, true);
    assert.equal(j.result, 'x');
    assert.equal(j.error, null);
    assert.equal(j.limit, null);
    assert.equal(typeof j.elapsedMs, 'number');
    assert.equal(typeof j.peakMemoryMb, 'number');
    const bad = await cli(
      file('dict.json', greet('def execute(variables):\n    return {"a": 1}\n')),
      '--defaults',
      '--json',
    );
    assert.equal(bad.code, 1);
    const jb = JSON.parse(bad.stdout) as { ok: boolean; result: unknown; error: { kind: string; returnType: string } };
    assert.equal(jb.ok, false);
    assert.equal(jb.result, null);
    assert.equal(jb.error.kind, 'not-str');
    assert.equal(jb.error.returnType, 'dict');
  });

  test('exit 1: the tool failed (traceback on stderr), or its requirements cannot be installed', async () => {
    const r = await cli(
      file('raise.json', greet('def execute(variables):\n    raise RuntimeError("boom")\n')),
      '--defaults',
    );
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Traceback[\s\S]*File "tool_code", line 2, in execute[\s\S]*RuntimeError: boom/);
    assert.match(r.stderr, /tooldef: execute raised RuntimeError: boom/);
    const setup = await cli(
      file('req.json', smartTool({ metadata: { requirements: 'tooldef-absent-pkg==1.0' } })),
      '--defaults',
      '--no-index',
      '--find-links',
      'wheels-none',
    );
    assert.equal(setup.code, 1, setup.stderr);
    assert.match(setup.stderr, /No matching distribution found for tooldef-absent-pkg==1\.0/);
  });

  test('exit 3: a limit was hit', async () => {
    const r = await cli(
      file('slow.json', greet('import time\ndef execute(variables):\n    time.sleep(30)\n')),
      '--defaults',
      '--timeout',
      '1',
      '--json',
    );
    assert.equal(r.code, 3, r.stderr);
    const j = JSON.parse(r.stdout) as { limit: string; error: { kind: string } };
    assert.equal(j.limit, 'time');
    assert.equal(j.error.kind, 'limit');
  });

  test('exit 2: bad usage, files that cannot run, missing or unknown inputs', async () => {
    const ok = file('ok.json', greet());
    const cases: [string[], RegExp][] = [
      [[], /Name the smart tool file to run/],
      [[ok, '--timeout', 'soon'], /--timeout must be a positive number of seconds/],
      [[ok, '--memory', '0.0000001'], /memory limit of 1e-7 MB is outside 16 MB–10 GB/],
      [[ok, '--memory', '20000'], /memory limit of 19\.5 GB is outside 16 MB–10 GB/],
      [[ok, '--timeout', '3600'], /time limit of 60 min is outside 1 s–15 min/],
      [[ok, '--input', 'noequals'], /--input takes NAME=VALUE/],
      [[ok, '--bogus'], /Unknown option --bogus/],
      [[ok], /no value for "name": give --input NAME=VALUE for each, or --defaults/],
      [[ok, '--input', 'nmae=x'], /has no variable "nmae"; its variables are "name"/],
      [[join(root, 'absent.json')], /cannot read/],
      [[file('broken.json', '{"metadata": {"tool_code": "x",}}')], /not valid JSON \(line 1/],
      [[file('llm.json', JSON.stringify({ model_prompt: 'Hi', metadata: {} }))], /LLM tool/],
      [[file('nocode.json', JSON.stringify({ metadata: { tool_name: 'x' } })), '--defaults'], /no metadata\.tool_code/],
      [[ok, '--defaults', '--python', join(root, 'nope', 'python')], /cannot run tools/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
  });

  test('the runner is found from the bundles: dist/ and out/test/', () => {
    const fromDist = runnerScriptPath(join(__dirname, '..', '..', '..', 'dist'));
    assert.match(fromDist, /runner[\\/]tooldef_runner\.py$/);
    assert.equal(runnerScriptPath(), fromDist);
  });
});
