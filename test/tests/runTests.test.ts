// The engine's test runner as the Test Explorer drives it: cases reported as they start and end, LLM
// models chosen by the editor's model map or asked of the editor's own models. Real python3, a real chat
// endpoint on loopback.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runTests, type CaseResult } from '../../server/src/engine/tests';
import { loadSuite, type Suite } from '../../server/src/engine/tests/suite';
import { llmTool, smartTool } from '../fixtures';
import { chunk, startChatServer, startStream } from '../llm/chatServer';

const hasPython = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 8)']).status === 0;

const root = mkdtempSync(join(tmpdir(), 'tooldef-run-tests-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(name: string, definition: string, tests: string): string {
  const dir = mkdtempSync(join(root, 'p-'));
  writeFileSync(join(dir, `${name}.json`), definition);
  writeFileSync(join(dir, `${name}.tests.json`), tests);
  return join(dir, `${name}.tests.json`);
}

describe('runTests for the editor', () => {
  test(
    'each case is reported as it starts and as it is judged',
    {
      skip: !hasPython && 'python3 (3.8+) is not installed',
    },
    async () => {
      const tests = [
        '{ "tests": [',
        '  { "name": "hi Ann", "inputs": { "name": "Ann" }, "expect": { "equals": "hi Ann" } },',
        '  { "name": "hi Bob", "inputs": { "name": "Bob" },',
        '    "expect": { "contains": ["Ann"] } }',
        '] }',
      ].join('\n');
      const suite = await loadSuite(write('tool', smartTool(), tests));
      assert.deepEqual(suite.problems, []);
      const started: string[] = [];
      const judged: CaseResult<Suite>[] = [];
      const results = await runTests([suite], {
        jobs: 1,
        run: { cacheDir: join(root, 'cache') },
        onStart: (_s, c) => started.push(c.name),
        onResult: (r) => judged.push(r),
      });
      assert.deepEqual(started, ['hi Ann', 'hi Bob']);
      assert.deepEqual(judged, results);
      assert.deepEqual(
        results.map((r) => r.passed),
        [true, false],
      );
      assert.equal(results[1].failures[0].check, 'contains');
    },
  );

  test("an LLM case asks for the model the editor's model map names", async (t) => {
    const chat = await startChatServer();
    t.after(() => chat.close());
    chat.handle((_req, res) => {
      startStream(res);
      res.end(chunk({ role: 'assistant', content: 'A summary.' }, 'stop') + 'data: [DONE]\n\n');
    });
    const suite = await loadSuite(
      write('summariser', llmTool(), '{ "tests": [ { "name": "short", "inputs": { "text": "x" } } ] }'),
    );
    const [result] = await runTests([suite], {
      jobs: 1,
      run: {},
      llm: { baseUrl: chat.baseUrl, modelMap: { 'gpt-4': 'local-model' } },
    });
    assert.equal(result.passed, true, JSON.stringify(result.failures));
    assert.equal((chat.requests[0].body as { model: string }).model, 'local-model');
  });

  test("an LLM case asks the editor's own model when there is no endpoint, with the filled prompt", async () => {
    const suite = await loadSuite(
      write(
        'summariser',
        llmTool(),
        '{ "tests": [ { "name": "short", "inputs": { "text": "x" }, "expect": { "equals": "A summary." } }, { "name": "down", "inputs": { "text": "fail" } } ] }',
      ),
    );
    const prompts: string[] = [];
    const [ok, down] = await runTests([suite], {
      jobs: 1,
      run: {},
      llm: {
        ask: async (tool, prompt) => {
          prompts.push(`${tool.modelIds.join(',')}: ${prompt}`);
          if (prompt.includes('fail')) throw new Error('The model is not available.');
          return 'A summary.';
        },
      },
    });
    assert.deepEqual(prompts, ['gpt-4: Summarise x in English.', 'gpt-4: Summarise fail in English.']);
    assert.equal(ok.passed, true, JSON.stringify(ok.failures));
    assert.equal(down.passed, false);
    assert.equal(down.outcome.broken, true);
    assert.equal(down.failures[0].message, 'The model is not available.');
  });

  test(
    'aborting the run stops the case running now; the others do not start',
    {
      skip: !hasPython && 'python3 (3.8+) is not installed',
    },
    async () => {
      const suite = await loadSuite(
        write(
          'tool',
          smartTool({ code: 'import time\n\ndef execute(variables):\n    time.sleep(600)\n    return "late"\n' }),
          '{ "tests": [ { "name": "slow" }, { "name": "never" } ] }',
        ),
      );
      const abort = new AbortController();
      const started: string[] = [];
      const results = await runTests([suite], {
        jobs: 1,
        run: { cacheDir: join(root, 'cache') },
        signal: abort.signal,
        // Stopped as soon as the first case has started: the Test Explorer's Stop.
        onStart: (_s, c) => {
          started.push(c.name);
          abort.abort();
        },
      });
      assert.deepEqual(
        results.map((r) => [r.case.name, r.outcome.errorType]),
        [
          ['slow', 'cancelled'],
          ['never', 'cancelled'],
        ],
      );
      assert.ok(results.every((r) => !r.passed));
      assert.deepEqual(started, ['slow']);
      assert.equal(results[1].failures[0].message, 'The run was stopped before this case started.');
    },
  );
});
