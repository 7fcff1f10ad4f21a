// Secret references: found in string literals, written into the copy that runs as each literal needs,
// never into the file, redacted from every output; a missing value stops the run before it starts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runCli } from '../../server/src/cli/cli';
import { ReferenceRedactor } from '../../server/src/engine/net';
import { startRun } from '../../server/src/engine/run/run';
import { withSecrets } from '../../server/src/engine/run/secrets';
import { secretReferences } from '../../server/src/service/python/secretRefs';
import { smartTool } from '../fixtures';

const hasPython = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 8)']).status === 0;
const skip = hasPython ? false : 'python3 (3.8+) is not installed';
const root = mkdtempSync(join(tmpdir(), 'tooldef-secrets-'));
after(() => rmSync(root, { recursive: true, force: true }));

describe('secret references', () => {
  test('found in string literals only, with their prefix and quote', () => {
    const code =
      'A = "<API_KEY>"\nB = f\'Bearer <TOKEN> {x}\'\n# <NOT_IN_CODE>\nC = rb"""<RAW>"""\nD = "<lower>" if a <B> c else 1\n';
    assert.deepEqual(
      secretReferences(code).map((r) => [r.name, code.slice(r.start, r.end), r.prefix, r.quote]),
      [
        ['API_KEY', '<API_KEY>', '', '"'],
        ['TOKEN', '<TOKEN>', 'f', "'"],
        ['RAW', '<RAW>', 'rb', '"""'],
      ],
    );
  });

  test('each value is written as its literal needs it', () => {
    const code = 'a = "<K>"\nb = \'<K>\'\nc = f"{{<K>}}"\nd = b"<K>"\n';
    const r = withSecrets(code, { K: 'q"\'\\{é\n' });
    assert.ok('code' in r);
    assert.equal(
      r.code,
      'a = "q\\"\'\\\\{é\\x0a"\nb = \'q"\\\'\\\\{é\\x0a\'\nc = f"{{q\\"\'\\\\{{é\\x0a}}"\nd = b"q\\x22\'\\x5c{\\xc3\\xa9\\x0a"\n',
    );
    assert.deepEqual(withSecrets(code, {}), { missing: ['K'] });
    assert.match((withSecrets('x = r"<K>"', { K: 'a\\b' }) as { error: string }).error, /raw string literal/);
  });

  test('Python reads back exactly the value, whatever it holds', { skip }, () => {
    const value = 'q"\'\\{é\n\t}x';
    const code =
      'a = "<K>"\nb = \'\'\'<K>\'\'\'\nc = f"<K>"\nd = b"<K>".decode("utf-8")\nprint(a == b == c == d == VALUE)\n';
    const r = withSecrets(code, { K: value }) as { code: string };
    const py = spawnSync('python3', ['-c', `VALUE = ${JSON.stringify(value)}\n${r.code}`], { encoding: 'utf8' });
    assert.equal(py.stdout.trim(), 'True', py.stderr);
  });

  test('a value split across two pieces of a stream is still redacted', () => {
    const redactor = new ReferenceRedactor({ KEY: 'sk-1234567890' });
    let out = '';
    const s = redactor.stream((t) => (out += t));
    for (const piece of ['key: sk-12345', '67890 and ', 'sk-1234567890', ' end']) s.write(piece);
    s.flush();
    assert.equal(out, 'key: <KEY> and <KEY> end');
  });
});

describe('running with secrets', { skip }, () => {
  const code = [
    'import sys',
    'KEY = "<API_KEY>"',
    'def execute(variables):',
    '    print("using", KEY)',
    '    print("error with", KEY, file=sys.stderr)',
    '    if variables["name"] == "fail":',
    '        raise ValueError("bad key " + KEY)',
    '    return "ok " + KEY + " " + str(len(KEY))',
    '',
  ].join('\n');
  const secret = 'sk-live-abcdef0123456789';

  test('the tool gets the value; the output, the result and the traceback show only the reference', async () => {
    let output = '';
    const base = { code, secrets: { API_KEY: secret }, cacheDir: join(root, 'cache') };
    const ok = await startRun({
      ...base,
      variables: { name: 'x' },
      onStdout: (t) => (output += t),
      onStderr: (t) => (output += t),
    }).result;
    assert.equal(ok.result, `ok <API_KEY> ${secret.length}`);
    assert.match(output, /using <API_KEY>/);
    assert.match(output, /error with <API_KEY>/);
    assert.ok(!output.includes(secret));
    const failed = await startRun({ ...base, variables: { name: 'fail' } }).result;
    assert.equal(failed.error?.type, 'ValueError');
    assert.match(failed.error!.traceback!, /bad key <API_KEY>/);
    assert.ok(!JSON.stringify(failed).includes(secret));
  });

  test('a missing secret stops the run before it starts, naming it', async () => {
    const r = await startRun({ code, variables: { name: 'x' } }).result;
    assert.equal(r.error?.kind, 'secret');
    assert.match(r.error!.message, /<API_KEY>/);
  });

  test('tooldef run takes TOOLDEF_SECRET_<NAME>, never writes it into the file, and says which to set', async () => {
    const file = join(root, 'tool.json');
    const text = smartTool({ code });
    writeFileSync(file, text);
    const cli = async (env: NodeJS.ProcessEnv) => {
      let stdout = '';
      let stderr = '';
      const status = await runCli(['run', '--defaults', '-q', file], {
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
        cwd: root,
        env: { ...process.env, TOOLDEF_CACHE_DIR: join(root, 'cache'), ...env },
      });
      return { status, stdout, stderr };
    };
    const missing = await cli({});
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /set TOOLDEF_SECRET_API_KEY/);
    const ran = await cli({ TOOLDEF_SECRET_API_KEY: secret });
    assert.equal(ran.status, 0, ran.stderr);
    assert.equal(ran.stdout, `ok <API_KEY> ${secret.length}\n`);
    assert.ok(!(ran.stdout + ran.stderr).includes(secret));
    assert.equal(readFileSync(file, 'utf8'), text);
  });
});
