// One requirements policy (issue 14): `tooldef check` (parseRequirements → invalid-requirement) and
// `run` (normaliseRequirements, before anything is installed) accept and refuse the same lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseRequirements } from '../../server/src/engine/run/environment';
import { parseRequirements } from '../../server/src/service/python/requirements';

/** Each line, and what both must say of it: accepted, or refused with a reason matching. */
const TABLE: [string, RegExp | 'ok'][] = [
  ['requests', 'ok'],
  ['requests[socks]>=2.31,<3 ; python_version >= "3.8"', 'ok'],
  ['numpy==1.26.*', 'ok'],
  ['PyYAML', 'ok'],
  [
    'evil @ https://example.com/evil-1.0.tar.gz',
    /installs from a URL, which the service does not do: name the package from the package index, e\.g\. 'evil>=1\.0'/,
  ],
  ['evil @ file:///tmp/evil', /installs from a URL/],
  [
    'https://example.com/evil-1.0-py3-none-any.whl',
    /is a URL: the service installs packages by name from the package index/,
  ],
  ['git+https://example.com/evil.git', /is a URL/],
  ['./local/pkg', /is a path: the service installs packages by name/],
  ['/abs/pkg.whl', /is a path/],
  ['C:\\pkgs\\evil', /is a path/],
  ['~/evil', /is a path/],
  ['evil-1.0.tar.gz', /is a file, not a package name/],
  ['evil-1.0-py3-none-any.whl', /is a file, not a package name/],
  ['-e .', /is a pip option/],
  ['--index-url https://example.com/simple', /is a pip option/],
  ['-r other.txt', /is a pip option/],
  ['requests \\', /Line continuations are not supported/],
];

describe('the requirements policy, shared by check and run', () => {
  for (const [line, expected] of TABLE) {
    it(`${expected === 'ok' ? 'accepts' : 'refuses'} ${line}`, () => {
      const parsed = parseRequirements(line);
      const normalised = normaliseRequirements(line);
      if (expected === 'ok') {
        assert.deepEqual(parsed.problems, []);
        assert.deepEqual(normalised, { lines: [line.trim()], problems: [] });
        return;
      }
      assert.deepEqual(parsed.requirements, []);
      assert.equal(parsed.problems.length, 1);
      const [problem] = parsed.problems;
      assert.equal(problem.code, 'invalid-requirement');
      assert.match(problem.message, expected);
      assert.ok(
        problem.start >= 0 && problem.end <= line.length && problem.end > problem.start,
        JSON.stringify(problem),
      );
      assert.deepEqual(normalised.lines, []);
      assert.deepEqual(normalised.problems, [`line 1: ${line.trim()}: ${problem.message}`]);
    });
  }

  it('a continuation, which run once joined and installed, is refused by both, with its line', () => {
    const text = 'requests\nevil \\\n  @ https://example.com/evil.tar.gz';
    assert.deepEqual(normaliseRequirements(text).lines, ['requests']);
    assert.match(normaliseRequirements(text).problems[0], /^line 2: evil \\: Line continuations are not supported/);
    assert.equal(parseRequirements(text).problems[0].code, 'invalid-requirement');
  });
});
