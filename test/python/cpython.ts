// A long-lived CPython worker for tests: `compile(src, name, 'exec')` per request, one JSON line in
// and one out, so thousands of verdicts cost one interpreter start.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';

const WORKER = String.raw`
import sys, json, warnings
warnings.simplefilter('ignore')
for line in sys.stdin:
    req = json.loads(line)
    try:
        compile(req['src'], req.get('name', '<tool_code>'), 'exec', dont_inherit=True)
        out = {'ok': True}
    except SyntaxError as e:
        out = {'ok': False, 'line': e.lineno, 'col': e.offset, 'msg': e.msg, 'type': type(e).__name__}
    except (ValueError, OverflowError, MemoryError, RecursionError) as e:
        out = {'ok': False, 'line': None, 'msg': str(e), 'type': type(e).__name__}
    sys.stdout.write(json.dumps(out) + '\n')
    sys.stdout.flush()
`;

export interface Verdict {
  ok: boolean;
  line?: number | null;
  col?: number | null;
  msg?: string;
  type?: string;
}

export function findPython(): { exe: string; version: string; stdlib: string } | undefined {
  const exe = process.env.TOOLDEF_PYTHON ?? 'python3';
  const r = spawnSync(
    exe,
    ['-c', "import sys, sysconfig; print('%d.%d' % sys.version_info[:2]); print(sysconfig.get_paths()['stdlib'])"],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) return undefined;
  const [version, stdlib] = r.stdout.trim().split('\n');
  return { exe, version, stdlib };
}

export class CPython {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly waiting: ((v: Verdict) => void)[] = [];

  constructor(exe: string) {
    this.proc = spawn(exe, ['-c', WORKER], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.lines = createInterface({ input: this.proc.stdout });
    this.lines.on('line', (l) => this.waiting.shift()?.(JSON.parse(l) as Verdict));
  }

  /** CPython's verdict on `src` (requests are pipelined: call many, then await them). */
  compile(src: string, name = '<tool_code>'): Promise<Verdict> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.proc.stdin.write(JSON.stringify({ src, name }) + '\n');
    });
  }

  /** Stops the worker, also with requests pending (a failed test leaves some: they must not keep node alive). */
  close(): void {
    this.lines.close();
    this.proc.kill();
  }
}

/** Test suites, test data and bad-syntax fixtures are not modules of the library. */
const EXCLUDED_DIRS = new Set(['site-packages', '__pycache__', 'test', 'tests', 'idle_test']);

/** The `.py` files of a standard library, its tests and installed packages left out, sorted. */
export function stdlibModules(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!EXCLUDED_DIRS.has(name)) stdlibModules(p, out);
    } else if (name.endsWith('.py')) out.push(p);
  }
  return out;
}
