// `tooldef test` with real python3, a real chat endpoint on loopback, and JUnit checked by xmllint
// against the schema Jenkins' xUnit plugin uses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../server/src/cli/cli';
import { smartTool } from '../fixtures';
import { chunk, startChatServer, startStream, type ChatServer } from '../llm/chatServer';
import { buildWheelhouse } from './wheelhouse';

const hasPython = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 8)']).status === 0;
const skip = hasPython ? false : 'python3 (3.8+) is not installed';

const root = mkdtempSync(join(tmpdir(), 'tooldef-tests-'));
const cacheDir = join(root, 'cache');
after(() => rmSync(root, { recursive: true, force: true }));

async function tooldef(args: string[], cwd = process.cwd()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['test', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    cwd,
    env: { ...process.env, TOOLDEF_CACHE_DIR: cacheDir, TOOLDEF_LLM_BASE_URL: '', TOOLDEF_LLM_API_KEY: '' },
  });
  return { code, stdout, stderr };
}

/** A folder holding `tool.json` (a smart tool) and its tests file. */
function project(code: string, tests: unknown, variables?: unknown[]): string {
  const dir = mkdtempSync(join(root, 'p-'));
  writeFileSync(join(dir, 'tool.json'), smartTool({ code, variables }));
  writeFileSync(join(dir, 'tool.tests.json'), JSON.stringify(tests, null, 2));
  return dir;
}

/** Answers the bundled LLM examples the way a good model would. */
function answer(prompt: string): string {
  if (prompt.includes('triage support tickets'))
    return /charged/.test(prompt) ? 'billing' : /dark mode/.test(prompt) ? 'feature request' : 'bug';
  if (prompt.startsWith('Translate'))
    return /into German/.test(prompt)
      ? 'Vielen Dank für Ihre Bestellung! Ihr Paket kommt am Montag, 16. März, an.'
      : 'Merci pour votre commande ! Votre colis arrivera le lundi 16 mars.';
  if (prompt.startsWith('Summarise'))
    return JSON.stringify({
      summary: 'The API migration is done; the beta moves to April.',
      decisions: ['Postpone the beta launch to April'],
      action_items: [
        { owner: 'Ravi', task: 'Get the API migration reviewed', due: 'Friday' },
        { owner: 'Mia', task: 'Update the release plan', due: null },
      ],
    });
  if (prompt.includes('reviewing code'))
    return '```python\ndef average(values):\n    # REVIEW: an empty list divided by zero\n    if not values:\n        return 0.0\n    return sum(values) / len(values)\n```';
  return 'unexpected prompt';
}

describe('tooldef test', { skip }, () => {
  let chat: ChatServer;
  before(async () => {
    chat = await startChatServer();
    chat.handle((req, res) => {
      const body = req.body as { messages: { content: string }[] };
      startStream(res);
      res.write(chunk({ role: 'assistant', content: answer(body.messages.map((m) => m.content).join('\n')) }));
      res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
    });
  });
  after(() => chat.close());

  test('the bundled examples pass', async () => {
    // yaml_to_json needs PyYAML: from a wheelhouse built from Debian's copy (PyPI is out of reach).
    const wheels = join(root, 'wheels');
    const unbuilt = buildWheelhouse(wheels);
    assert.equal(unbuilt, undefined, unbuilt);
    const r = await tooldef(['examples', '--endpoint', chat.baseUrl, '--find-links', wheels, '--no-index']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^23 passed, 0 failed \(23 cases\)$/m);
    // Each LLM case asked for the file's first model id, with its filled prompt.
    assert.ok(chat.requests.some((q) => (q.body as { model: string }).model === 'gpt-3.5'));
  });

  test('a failing case shows a diff of expected and actual, and exits 1', async () => {
    const dir = project('def execute(variables):\n    return "line one\\nline 2\\nline three"\n', {
      tests: [{ name: 'lines', expect: { equals: 'line one\nline two\nline three' } }],
    });
    const r = await tooldef([dir]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /✗ lines/);
    assert.match(r.stdout, /^ +-line two$/m);
    assert.match(r.stdout, /^ +\+line 2$/m);
    assert.match(r.stdout, /^0 passed, 1 failed \(1 case\)$/m);
  });

  test('--update-golden writes the approved output; a changed output then fails against it', async () => {
    const dir = project('def execute(variables):\n    return "report for " + variables["name"]\n', {
      tests: [{ name: 'report: Oslo', inputs: { name: 'Oslo' }, expect: { golden: true } }],
    });
    const golden = join(dir, 'tool.golden', 'report_ Oslo.txt');
    const first = await tooldef([dir]);
    assert.equal(first.code, 1);
    assert.match(first.stdout, /No approved output yet/);
    assert.equal(existsSync(golden), false, 'a plain run writes nothing');
    const update = await tooldef([dir, '--update-golden']);
    assert.equal(update.code, 0, update.stdout + update.stderr);
    assert.equal(readFileSync(golden, 'utf8'), 'report for Oslo');
    writeFileSync(golden, 'report for Bergen');
    const changed = await tooldef([dir]);
    assert.equal(changed.code, 1);
    assert.match(changed.stdout, /^ +-report for Bergen$/m);
    assert.match(changed.stdout, /^ +\+report for Oslo$/m);
  });

  test('errors, limits, JSON and regular expressions', async () => {
    const dir = project(
      [
        'import json, time',
        'def execute(variables):',
        '    what = variables["name"]',
        '    if what == "raise":',
        '        raise ValueError("bad")',
        '    if what == "sleep":',
        '        time.sleep(600)',
        '    if what == "json":',
        '        return json.dumps({"n": 1})',
        '    return "ok 42"',
        '',
      ].join('\n'),
      {
        tests: [
          { name: 'raises', inputs: { name: 'raise' }, expect: { error: 'ValueError' } },
          { name: 'wrong exception', inputs: { name: 'raise' }, expect: { error: 'KeyError' } },
          { name: 'times out', inputs: { name: 'sleep' }, expect: { error: 'timeout', max_seconds: 1 } },
          { name: 'json fits', inputs: { name: 'json' }, expect: { json: { type: 'object', required: ['n'] } } },
          { name: 'json misses', inputs: { name: 'json' }, expect: { json: { required: ['m'] } } },
          { name: 'regex', inputs: { name: 'x' }, expect: { matches: '^ok \\d+$', not_contains: ['Traceback'] } },
          { name: 'unexpected failure', inputs: { name: 'raise' }, expect: { contains: ['ok'] } },
        ],
      },
    );
    const r = await tooldef([dir, '--format', 'json', '--jobs', '3']);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout) as {
      passed: number;
      failed: number;
      suites: { cases: { name: string; passed: boolean; failures: { check: string; message: string }[] }[] }[];
    };
    const verdicts = Object.fromEntries(
      report.suites[0].cases.map((c) => [c.name, c.passed ? 'pass' : c.failures.map((f) => f.check).join(',')]),
    );
    assert.deepEqual(verdicts, {
      raises: 'pass',
      'wrong exception': 'error',
      'times out': 'pass',
      'json fits': 'pass',
      'json misses': 'json',
      regex: 'pass',
      'unexpected failure': 'run',
    });
    const run = report.suites[0].cases.find((c) => c.name === 'unexpected failure')!;
    assert.match(run.failures[0].message, /ValueError/);
  });

  test('--format junit validates against the JUnit schema, with the failure in it', async (t) => {
    const dir = project('def execute(variables):\n    return "a <b> & \\x01 c"\n', {
      tests: [
        { name: 'passes', expect: { contains: ['<b>'] } },
        { name: 'fails "quoted"', expect: { equals: 'something else' } },
      ],
    });
    const r = await tooldef([dir, '--format', 'junit']);
    assert.equal(r.code, 1, r.stderr);
    const file = join(dir, 'report.xml');
    writeFileSync(file, r.stdout);
    const lint = spawnSync('xmllint', ['--noout', '--schema', 'test/tests/junit-10.xsd', file], {
      encoding: 'utf8',
    });
    if (lint.error) return t.skip('xmllint is not installed (npm test installs libxml2-utils)');
    assert.equal(lint.status, 0, lint.stderr);
    assert.match(r.stdout, /<testsuite name="[^"]*tool\.json" tests="2" failures="1" errors="0"/);
    assert.match(
      r.stdout,
      /<testcase name="fails &quot;quoted&quot;" classname="tool" time="[\d.]+">\s*<failure type="equals"/,
    );
  });

  test('an invalid tests file exits 2 and says where, before anything runs', async () => {
    const dir = project('def execute(variables):\n    raise SystemExit(9)\n', {
      tests: [
        { name: 'a', inputs: { nmae: 'x' } },
        { name: 'a', expect: { matches: '(' } },
        { name: 'b', expect: { json: { type: 'no such type' } } },
      ],
    });
    const r = await tooldef([dir]);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.split('\n').filter((l) => l.includes('.tests.json:'));
    assert.deepEqual(
      lines.map((l) => /tool\.tests\.json:(\d+:\d+: \w+ [\w-]+):/.exec(l)?.[1]),
      [
        '6:9: error tests-unknown-input',
        '10:15: error tests-duplicate-name',
        '12:20: error tests-invalid-regex',
        '18:17: error tests-invalid-schema',
      ],
    );
    assert.match(r.stderr, /did you mean "name"\?/);
  });

  test('bad usage and nothing to test exit 2', async () => {
    assert.equal((await tooldef(['--jobs', '0'])).code, 2);
    assert.equal((await tooldef(['--format', 'xml'])).code, 2);
    const empty = mkdtempSync(join(root, 'empty-'));
    const none = await tooldef([empty]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no tests file/);
    mkdirSync(join(empty, 'x'));
    writeFileSync(join(empty, 'x', 'tool.json'), smartTool());
    const noTests = await tooldef([join(empty, 'x', 'tool.json')]);
    assert.equal(noTests.code, 2);
    assert.match(noTests.stderr, /has no tests file: create tool\.tests\.json beside it/);
    const missing = await tooldef([join(empty, 'no-such-folder')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /cannot read .*no-such-folder: no such file or not readable/);
    // A folder the search cannot enter would leave its cases out: nothing runs, and it is named.
    const dir = project('def execute(variables):\n    return "x"\n', { tests: [{ name: 'x' }] });
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling'));
    const partial = await tooldef([dir]);
    assert.equal(partial.code, 2, partial.stdout + partial.stderr);
    assert.equal(partial.stdout, '');
    assert.match(partial.stderr, /cannot read .*dangling: no such file or not readable/);
  });

  test('--filter picks cases by "tool › case"', async () => {
    const dir = project('def execute(variables):\n    return variables["name"]\n', {
      tests: [
        { name: 'one', inputs: { name: '1' }, expect: { equals: '1' } },
        { name: 'two', inputs: { name: '2' }, expect: { equals: 'not 2' } },
      ],
    });
    const r = await tooldef([dir, '--filter', 'tool › one$']);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /^1 passed, 0 failed \(1 case\)$/m);
    assert.equal((await tooldef([dir, '--filter', 'nothing'])).code, 2);
  });
});
