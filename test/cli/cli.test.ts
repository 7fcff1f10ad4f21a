// The CLI as users and CI run it: `node dist/cli.js check …` in a child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { smartTool } from '../helpers';

function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'examples', 'expected.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(__dirname, '../../..');
    dir = up;
  }
}

const ROOT = repoRoot();
const CLI = process.env.TOOLDEF_CLI ?? join(ROOT, 'dist', 'cli.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: string[], cwd = ROOT): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function show(r: Run): string {
  return `exit ${String(r.code)}\n--- stdout\n${r.stdout.slice(0, 4000)}\n--- stderr\n${r.stderr.slice(0, 2000)}`;
}

interface Expected {
  readonly code: string;
  readonly line: number | null;
}
const EXPECTED: Record<string, Expected[]> = JSON.parse(readFileSync(join(ROOT, 'examples', 'expected.json'), 'utf8'));

/** Default severities of the catalogue (decisions.md) for the codes the examples use. */
const SEVERITY: Record<string, 'error' | 'warning' | 'information'> = {
  'json-syntax': 'error',
  'duplicate-key': 'error',
  'root-not-object': 'error',
  'mixed-kind': 'error',
  'missing-field': 'error',
  'missing-recommended-field': 'warning',
  'wrong-type': 'error',
  'invalid-enum': 'error',
  'unknown-field': 'warning',
  'misplaced-field': 'error',
  'unknown-placeholder': 'error',
  'unused-variable': 'warning',
  'placeholder-whitespace': 'warning',
  'malformed-placeholder': 'warning',
  'duplicate-variable': 'error',
  'empty-variable-name': 'error',
  'default-type-mismatch': 'error',
  'default-not-allowed': 'error',
  'missing-allowed-values': 'error',
  'unexpected-allowed-values': 'warning',
  'duplicate-allowed-value': 'warning',
  'limited-without-values': 'error',
  'language-without-code': 'warning',
  'smart-output-not-text': 'warning',
  'model-version-string': 'warning',
  'model-version-empty': 'error',
  'unknown-model': 'information',
  'nested-avatar': 'warning',
  'avatar-invalid-base64': 'error',
  'avatar-not-image': 'error',
  'avatar-size': 'information',
  'avatar-invalid-url': 'error',
  'avatar-type-mismatch': 'error',
  'invalid-timestamp': 'error',
  'invalid-email': 'warning',
  'invalid-version': 'warning',
  'parameter-out-of-range': 'warning',
  'file-name-mismatch': 'information',
  'duplicate-tool-name': 'warning',
};

interface JsonRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface JsonDiagnostic {
  code: string;
  severity: string;
  message: string;
  range: JsonRange;
}
interface JsonReport {
  file: string;
  kind: 'smart' | 'llm' | null;
  diagnostics: JsonDiagnostic[];
}

/** Reported `{code, line}` (1-based) per file, keyed relative to examples/ with forward slashes. */
type Reported = Map<string, { code: string; line: number }[]>;

const TEXT_LINE = /^(.+?):(\d+):(\d+) (error|warning|information|hint) ([a-z0-9-]+) (.+)$/;

function parseText(stdout: string, prefix: string | RegExp): Reported {
  const out: Reported = new Map();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const m = TEXT_LINE.exec(line);
    assert.ok(m, `not a "file:line:col severity code message" line: ${JSON.stringify(line)}`);
    const file = m[1].split('\\').join('/').replace(prefix, '');
    const list = out.get(file) ?? [];
    list.push({ code: m[5], line: Number(m[2]) });
    out.set(file, list);
  }
  return out;
}

function fromJson(reports: JsonReport[], prefix: string): Reported {
  const out: Reported = new Map();
  for (const r of reports)
    out.set(
      r.file.split('\\').join('/').replace(prefix, ''),
      r.diagnostics.map((d) => ({ code: d.code, line: d.range.start.line + 1 })),
    );
  return out;
}

/**
 * Compares one file's reported diagnostics with its expectations as multisets: an expectation with a
 * line matches that code on that line; one with `line: null` matches the code on any line.
 * Returns a readable diff block, empty when they agree.
 */
function diffFile(file: string, expected: readonly Expected[], got: readonly { code: string; line: number }[]): string {
  const missing: string[] = [];
  const remaining = [...got];
  const take = (pred: (g: { code: string; line: number }) => boolean): boolean => {
    const i = remaining.findIndex(pred);
    if (i < 0) return false;
    remaining.splice(i, 1);
    return true;
  };
  // Exact lines first, so a `null` expectation cannot steal a diagnostic another one needs.
  for (const e of expected.filter((x) => x.line !== null))
    if (!take((g) => g.code === e.code && g.line === e.line)) missing.push(`${e.code}@${e.line}`);
  for (const e of expected.filter((x) => x.line === null))
    if (!take((g) => g.code === e.code)) missing.push(`${e.code}@any line`);
  if (!missing.length && !remaining.length) return '';
  const list = (l: readonly { code: string; line: number | null }[]) =>
    l.map((g) => `${g.code}@${g.line ?? 'any line'}`).join(', ') || '(nothing)';
  return [
    `${file}:`,
    `    missing:    ${missing.join(', ') || '-'}`,
    `    unexpected: ${remaining.map((g) => `${g.code}@${g.line}`).join(', ') || '-'}`,
    `    expected:   ${list(expected)}`,
    `    reported:   ${list(got)}`,
  ].join('\n');
}

/** `diffFile` over every file of expected.json and every reported file. */
function diffAgainstExpected(reported: Reported): string {
  const files = new Set([...Object.keys(EXPECTED), ...reported.keys()]);
  const blocks: string[] = [];
  for (const file of [...files].sort()) {
    const got = reported.get(file) ?? [];
    const expected = EXPECTED[file];
    if (!expected) {
      if (got.length)
        blocks.push(`${file}: not in expected.json, but reported ${got.map((g) => `${g.code}@${g.line}`).join(', ')}`);
      continue;
    }
    const block = diffFile(file, expected, got);
    if (block) blocks.push(block);
  }
  return blocks.join('\n');
}

const VALID = Object.keys(EXPECTED).filter(
  (f) => EXPECTED[f].length === 0 && (f.startsWith('llm/') || f.startsWith('smart/')),
);
const BROKEN = Object.keys(EXPECTED).filter((f) => f.startsWith('broken/'));

describe('tooldef check examples', () => {
  test('the fixture lists are what this suite assumes', () => {
    assert.ok(VALID.length >= 8, `valid examples: ${VALID.join(', ')}`);
    assert.ok(BROKEN.length >= 12, `broken examples: ${BROKEN.join(', ')}`);
    for (const f of Object.keys(EXPECTED))
      assert.ok(existsSync(join(ROOT, 'examples', f)), `expected.json names a missing file ${f}`);
  });

  test('text output reports exactly the codes and lines of examples/expected.json, and exits 1', () => {
    const r = cli(['check', 'examples']);
    assert.equal(r.code, 1, show(r));
    const diff = diffAgainstExpected(parseText(r.stdout, 'examples/'));
    assert.equal(diff, '', `tooldef check examples disagrees with examples/expected.json:\n${diff}`);
    const total = Object.values(EXPECTED).reduce((n, l) => n + l.length, 0);
    assert.equal(r.stdout.trim().split('\n').length, total);
    assert.match(r.stderr, /^\d+ files checked: \d+ errors, \d+ warnings, \d+ other\.\n$/);
  });

  test('json output agrees with expected.json too, and with the default severities of the catalogue', () => {
    const r = cli(['check', '--format', 'json', 'examples']);
    assert.equal(r.code, 1, show(r));
    const reports = JSON.parse(r.stdout) as JsonReport[];
    const diff = diffAgainstExpected(fromJson(reports, 'examples/'));
    assert.equal(diff, '', `tooldef check --format json examples disagrees with examples/expected.json:\n${diff}`);
    const wrong = reports.flatMap((rep) =>
      rep.diagnostics
        .filter((d) => SEVERITY[d.code] !== d.severity)
        .map((d) => `${rep.file}: ${d.code} is ${d.severity}, the catalogue says ${SEVERITY[d.code]}`),
    );
    assert.deepEqual(wrong, []);
    // A directory walk skips files that are not definitions.
    const files = reports.map((rep) => rep.file);
    assert.ok(!files.includes('examples/not-a-definition/settings.json'), files.join('\n'));
    assert.ok(!files.includes('examples/expected.json'), files.join('\n'));
    assert.ok(!reports.some((rep) => rep.diagnostics.some((d) => d.code === 'not-a-definition')));
  });

  test('the same expectations hold when run from inside examples/ with "."', () => {
    const r = cli(['check', '.'], join(ROOT, 'examples'));
    assert.equal(r.code, 1, show(r));
    const diff = diffAgainstExpected(parseText(r.stdout, /^(\.\/)?/));
    assert.equal(diff, '', diff);
  });

  for (const file of VALID) {
    test(`valid example ${file} alone: exit 0, nothing on stdout`, () => {
      const r = cli(['check', `examples/${file}`]);
      assert.equal(r.code, 0, show(r));
      assert.equal(r.stdout, '', show(r));
      assert.equal(r.stderr, '1 file checked: 0 errors, 0 warnings, 0 other.\n');
    });
  }

  test('each broken example alone reports what expected.json lists for it', () => {
    const blocks: string[] = [];
    for (const file of BROKEN) {
      const r = cli(['check', '--format', 'json', `examples/${file}`]);
      const reports = JSON.parse(r.stdout) as JsonReport[];
      assert.equal(reports.length, 1, show(r));
      const hasError = reports[0].diagnostics.some((d) => d.severity === 'error');
      assert.equal(r.code, hasError ? 1 : 0, `${file}: ${show(r)}`);
      const block = diffFile(file, EXPECTED[file], fromJson(reports, 'examples/').get(file) ?? []);
      if (block) blocks.push(block);
    }
    assert.equal(blocks.join('\n'), '');
  });
});

describe('tooldef check --format json', () => {
  test('has the documented shape [{file, kind, diagnostics:[{code, severity, message, range}]}]', () => {
    const r = cli(['check', '--format', 'json', 'examples']);
    const reports = JSON.parse(r.stdout) as unknown;
    assert.ok(Array.isArray(reports));
    assert.ok(reports.length >= VALID.length + BROKEN.length - 3, `only ${reports.length} files reported`);
    const isPos = (p: unknown): boolean =>
      !!p &&
      typeof p === 'object' &&
      Object.keys(p).sort().join() === 'character,line' &&
      Number.isInteger((p as { line: number }).line) &&
      (p as { line: number }).line >= 0 &&
      Number.isInteger((p as { character: number }).character) &&
      (p as { character: number }).character >= 0;
    for (const rep of reports as JsonReport[]) {
      assert.deepEqual(Object.keys(rep).sort(), ['diagnostics', 'file', 'kind']);
      assert.equal(typeof rep.file, 'string');
      assert.ok(rep.kind === 'smart' || rep.kind === 'llm' || rep.kind === null, String(rep.kind));
      assert.ok(Array.isArray(rep.diagnostics));
      for (const d of rep.diagnostics) {
        assert.deepEqual(Object.keys(d).sort(), ['code', 'message', 'range', 'severity'], JSON.stringify(d));
        assert.match(d.code, /^[a-z0-9]+(-[a-z0-9]+)*$/);
        assert.ok(['error', 'warning', 'information', 'hint'].includes(d.severity), d.severity);
        assert.ok(typeof d.message === 'string' && d.message.length > 10, JSON.stringify(d));
        assert.deepEqual(Object.keys(d.range).sort(), ['end', 'start']);
        assert.ok(isPos(d.range.start) && isPos(d.range.end), JSON.stringify(d.range));
        const { start, end } = d.range;
        assert.ok(
          end.line > start.line || (end.line === start.line && end.character >= start.character),
          `${rep.file}: ${JSON.stringify(d)}`,
        );
      }
    }
    const byFile = new Map((reports as JsonReport[]).map((rep) => [rep.file, rep]));
    assert.equal(byFile.get('examples/llm/translator.json')?.kind, 'llm');
    assert.deepEqual(byFile.get('examples/llm/translator.json')?.diagnostics, []);
    assert.equal(byFile.get('examples/smart/weather_lookup.json')?.kind, 'smart');
    assert.equal(byFile.get('examples/broken/sql_formatter.json')?.kind, 'smart');
    assert.equal(byFile.get('examples/broken/wrapped-in-array.json')?.kind, null);
    // Ranges are exact: the unknown placeholder of blog-post-writer covers `{{langauge}}`.
    const blog = byFile.get('examples/broken/blog-post-writer.json')!;
    const unknown = blog.diagnostics.find((d) => d.code === 'unknown-placeholder')!;
    const line = readFileSync(join(ROOT, 'examples/broken/blog-post-writer.json'), 'utf8').split('\n')[
      unknown.range.start.line
    ];
    assert.equal(line.slice(unknown.range.start.character, unknown.range.end.character), '{{langauge}}');
  });
});

describe('tooldef check --format sarif', () => {
  test('is SARIF 2.1.0: rules for every code used, results with ruleId, level and 1-based regions', () => {
    const r = cli(['check', '--format', 'sarif', 'examples']);
    assert.equal(r.code, 1, show(r));
    const sarif = JSON.parse(r.stdout);
    assert.equal(sarif.version, '2.1.0');
    assert.match(String(sarif.$schema), /sarif.*2\.1\.0/);
    assert.ok(Array.isArray(sarif.runs) && sarif.runs.length === 1);
    const run = sarif.runs[0];
    const driver = run.tool.driver;
    assert.equal(driver.name, 'tooldef');
    assert.equal(typeof driver.version, 'string');
    const ids: string[] = driver.rules.map((rule: { id: string }) => rule.id);
    assert.equal(new Set(ids).size, ids.length, 'rule ids are unique');
    for (const rule of driver.rules) {
      assert.equal(typeof rule.shortDescription?.text, 'string', JSON.stringify(rule));
      assert.ok(['error', 'warning', 'note', 'none'].includes(rule.defaultConfiguration?.level), JSON.stringify(rule));
    }
    const results: {
      ruleId: string;
      ruleIndex?: number;
      level: string;
      message: { text: string };
      locations: {
        physicalLocation: {
          artifactLocation: { uri: string };
          region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
        };
      }[];
    }[] = run.results;
    const json = JSON.parse(cli(['check', '--format', 'json', 'examples']).stdout) as JsonReport[];
    const flat = json.flatMap((rep) => rep.diagnostics.map((d) => ({ file: rep.file, d })));
    assert.equal(results.length, flat.length);
    const used = new Set(results.map((x) => x.ruleId));
    const expectedCodes = new Set(Object.values(EXPECTED).flatMap((l) => l.map((e) => e.code)));
    assert.deepEqual([...used].sort(), [...expectedCodes].sort());
    for (const code of used) assert.ok(ids.includes(code), `driver.rules lacks ${code}`);
    const LEVEL: Record<string, string> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };
    results.forEach((res, i) => {
      const { file, d } = flat[i];
      assert.equal(res.ruleId, d.code);
      if (res.ruleIndex !== undefined) assert.equal(ids[res.ruleIndex], res.ruleId, `ruleIndex of ${res.ruleId}`);
      assert.equal(res.level, LEVEL[d.severity], `${res.ruleId}: level ${res.level} for ${d.severity}`);
      assert.equal(res.message.text, d.message);
      assert.equal(res.locations.length, 1);
      const loc = res.locations[0].physicalLocation;
      assert.equal(loc.artifactLocation.uri, file);
      assert.ok(!loc.artifactLocation.uri.includes('\\'));
      assert.deepEqual(loc.region, {
        startLine: d.range.start.line + 1,
        startColumn: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
      });
      assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
    });
  });

  test('a file named explicitly that is not a definition has its rule in the driver too', () => {
    const r = cli(['check', '--format', 'sarif', 'examples/not-a-definition/settings.json']);
    const run = JSON.parse(r.stdout).runs[0];
    assert.deepEqual(
      run.results.map((x: { ruleId: string }) => x.ruleId),
      ['not-a-definition'],
    );
    assert.ok(run.tool.driver.rules.some((rule: { id: string }) => rule.id === 'not-a-definition'));
  });
});

describe('tooldef check: usage errors exit 2', () => {
  const usage = (r: Run, message: RegExp): void => {
    assert.equal(r.code, 2, show(r));
    assert.equal(r.stdout, '', show(r));
    assert.match(r.stderr, message);
    assert.match(r.stderr, /Usage: tooldef check/);
  };

  test('unknown option', () => usage(cli(['check', '--bogus', 'examples']), /^tooldef: Unknown option --bogus\./));
  test('no path', () => usage(cli(['check']), /^tooldef: Name at least one file or directory to check\./));
  test('bad --format value', () =>
    usage(cli(['check', '--format', 'xml', 'examples']), /--format must be text, json or sarif, not "xml"/));
  test('bad --kind value', () =>
    usage(cli(['check', '--kind', 'python', 'examples']), /--kind must be smart or llm, not "python"/));
  test('unknown rule in --rule', () =>
    usage(cli(['check', '--rule', 'no-such-rule=off', 'examples']), /--rule: unknown rule "no-such-rule"/));
  test('bad severity in --rule', () =>
    usage(
      cli(['check', '--rule', 'file-name-mismatch=loud', 'examples']),
      /severity must be error, warning, information, hint or off/,
    ));
  test('--format without a value', () => usage(cli(['check', 'examples', '--format']), /--format needs a value/));
  test('unknown command', () => usage(cli(['lint', 'examples']), /unknown command "lint"/));
  test('a switch given a value', () =>
    usage(cli(['check', '--format=json', '--kind', 'smart', '--rule=x', 'examples']), /--rule: unknown rule "x"/));
  test('--rule without a severity', () =>
    usage(cli(['check', '--rule', 'file-name-mismatch', 'examples']), /--rule file-name-mismatch: severity must be/));
  test('a value that looks like an option must be written --flag=VALUE', () =>
    usage(cli(['check', '--format', '-x', 'examples']), /--format needs a value; write --format=VALUE/));
  test('-- ends the options: what follows is a path, even when it starts with -', () => {
    const r = cli(['check', '--format', 'json', '--', '-no-such.json']);
    assert.equal(r.code, 2, show(r));
    assert.match(r.stderr, /cannot read -no-such\.json/);
    assert.doesNotMatch(r.stderr, /Usage:/);
  });

  test('a nonexistent file: exit 2 and a clear message naming it', () => {
    const r = cli(['check', 'examples/no-such-file.json']);
    assert.equal(r.code, 2, show(r));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /cannot read examples\/no-such-file\.json/);
  });

  test('a nonexistent file next to a valid one: the valid one is checked, exit is still 2', () => {
    const r = cli(['check', '--format', 'json', 'examples/llm/translator.json', 'missing-dir/x.json']);
    assert.equal(r.code, 2, show(r));
    const reports = JSON.parse(r.stdout) as JsonReport[];
    assert.deepEqual(
      reports.map((x) => x.file),
      ['examples/llm/translator.json'],
    );
    assert.match(r.stderr, /cannot read missing-dir\/x\.json/);
  });
});

describe('tooldef check: kinds, rules and the workspace', () => {
  test('an explicitly named non-definition JSON file gives not-a-definition', () => {
    const r = cli(['check', '--format', 'json', 'examples/not-a-definition/settings.json']);
    assert.equal(r.code, 1, show(r));
    const [rep, ...rest] = JSON.parse(r.stdout) as JsonReport[];
    assert.equal(rest.length, 0);
    assert.equal(rep.kind, null);
    assert.deepEqual(
      rep.diagnostics.map((d) => [d.code, d.severity]),
      [['not-a-definition', 'error']],
    );
    assert.match(rep.diagnostics[0].message, /--kind/);
    const text = cli(['check', 'examples/not-a-definition/settings.json']);
    assert.match(text.stdout, /^examples\/not-a-definition\/settings\.json:1:1 error not-a-definition /);
  });

  test('--rule applies to not-a-definition like to every other rule', () => {
    const file = 'examples/not-a-definition/settings.json';
    const warning = cli(['check', '--format', 'json', '--rule', 'not-a-definition=warning', file]);
    assert.deepEqual(
      (JSON.parse(warning.stdout) as JsonReport[])[0].diagnostics.map((d) => [d.code, d.severity]),
      [['not-a-definition', 'warning']],
    );
    assert.equal(warning.code, 0, show(warning));
    const off = cli(['check', '--rule', 'not-a-definition=off', file]);
    assert.equal(off.stdout, '', show(off));
    assert.equal(off.code, 0, show(off));
  });

  test('--kind smart on that file gives missing-field errors instead', () => {
    const r = cli(['check', '--kind', 'smart', '--format', 'json', 'examples/not-a-definition/settings.json']);
    assert.equal(r.code, 1, show(r));
    const [rep] = JSON.parse(r.stdout) as JsonReport[];
    assert.equal(rep.kind, 'smart');
    const codes = rep.diagnostics.map((d) => d.code);
    assert.ok(!codes.includes('not-a-definition'), codes.join());
    const missing = rep.diagnostics.filter((d) => d.code === 'missing-field');
    assert.deepEqual(missing.map((d) => /"(\w+)"/.exec(d.message)?.[1]).sort(), ['tool_code', 'tool_name']);
    for (const d of missing) {
      assert.equal(d.severity, 'error');
      assert.equal(d.range.start.line + 1, 4, 'anchored on the "metadata": { line');
    }
    // The smart-tool warnings come along: description is present, usage_notes and the others are not.
    const recommended = rep.diagnostics
      .filter((d) => d.code === 'missing-recommended-field')
      .map((d) => /"(\w+)"/.exec(d.message)?.[1])
      .sort();
    assert.deepEqual(recommended, [
      'creator',
      'expected_output',
      'model_version',
      'timestamp',
      'usage_notes',
      'variables',
    ]);
  });

  test('--kind llm on that file gives the LLM requirements', () => {
    const r = cli(['check', '--kind', 'llm', '--format', 'json', 'examples/not-a-definition/settings.json']);
    assert.equal(r.code, 1, show(r));
    const [rep] = JSON.parse(r.stdout) as JsonReport[];
    assert.equal(rep.kind, 'llm');
    assert.deepEqual(
      rep.diagnostics
        .filter((d) => d.code === 'missing-field')
        .map((d) => /"(\w+)"/.exec(d.message)?.[1])
        .sort(),
      ['creator', 'model_prompt', 'model_version', 'timestamp'],
    );
  });

  test('unknown-field messages list the known fields (never an empty list)', () => {
    const r = cli(['check', '--kind', 'smart', '--format', 'json', 'examples/not-a-definition/settings.json']);
    const [rep] = JSON.parse(r.stdout) as JsonReport[];
    const unknown = rep.diagnostics.filter((d) => d.code === 'unknown-field');
    assert.ok(unknown.length >= 4, JSON.stringify(unknown));
    for (const d of unknown) assert.doesNotMatch(d.message, /Known fields here: \./, d.message);
  });

  test('--rule file-name-mismatch=off removes that hint; =error makes it fail the run', () => {
    const file = 'examples/broken/currency-converter.json';
    const base = cli(['check', '--format', 'json', file]);
    assert.equal(base.code, 0, show(base));
    const codes = (r: Run) => (JSON.parse(r.stdout) as JsonReport[])[0].diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes(base), [
      'file-name-mismatch',
      'missing-recommended-field',
      'model-version-string',
      'unknown-field',
    ]);

    for (const args of [['--rule', 'file-name-mismatch=off'], ['--rule=file-name-mismatch=off']]) {
      const off = cli(['check', '--format', 'json', ...args, file]);
      assert.equal(off.code, 0, show(off));
      assert.deepEqual(
        codes(off),
        ['missing-recommended-field', 'model-version-string', 'unknown-field'],
        args.join(' '),
      );
    }
    const text = cli(['check', '--rule', 'file-name-mismatch=off', file]);
    assert.doesNotMatch(text.stdout, /file-name-mismatch/);
    assert.match(text.stderr, /1 file checked: 0 errors, 3 warnings, 0 other\./);

    const error = cli(['check', '--format', 'json', '--rule', 'file-name-mismatch=error', file]);
    assert.equal(error.code, 1, show(error));
    const d = (JSON.parse(error.stdout) as JsonReport[])[0].diagnostics.find((x) => x.code === 'file-name-mismatch');
    assert.equal(d?.severity, 'error');
  });

  test('a UTF-16 file: its encoding said once, and its own problems as in UTF-8', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldef-cli-'));
    try {
      const text = smartTool({ metadata: { tool_name: 'wide' } });
      writeFileSync(join(dir, 'wide.json'), Buffer.from(`\ufeff${text}`, 'utf16le'));
      const r = cli(['check', '--format', 'json', dir], dir);
      assert.equal(r.code, 1, show(r));
      const [rep] = JSON.parse(r.stdout) as JsonReport[];
      assert.deepEqual(
        rep.diagnostics.map((d) => [d.code, d.message]),
        [['json-syntax', 'This file is UTF-16 (little-endian); definition files are UTF-8 JSON: save it as UTF-8.']],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a name shared by many files: each says how many share it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldef-cli-'));
    try {
      for (let i = 0; i < 40; i++)
        writeFileSync(join(dir, `t${i}.json`), smartTool({ metadata: { tool_name: 'twin' } }));
      const r = cli(['check', '--format', 'json', '--rule', 'file-name-mismatch=off', dir], dir);
      assert.equal(r.code, 0, show(r));
      const reports = JSON.parse(r.stdout) as JsonReport[];
      assert.equal(reports.length, 40);
      for (const rep of reports)
        assert.deepEqual(
          rep.diagnostics.map((d) => d.message.replace(/:.*/, '')),
          ['39 other definitions in the workspace are also named "twin"'],
          rep.file,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('two smart tools sharing a tool_name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tooldef-cli-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const text = smartTool({ metadata: { tool_name: 'shared' } });
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'a', 'shared.json'), text);
    writeFileSync(join(dir, 'b', 'shared.json'), text);
    writeFileSync(join(dir, 'other.json'), smartTool({ metadata: { tool_name: 'other' } }));

    test('a directory check gives duplicate-tool-name in both (a warning: exit 0)', () => {
      const r = cli(['check', '--format', 'json', dir], dir);
      assert.equal(r.code, 0, show(r));
      const reports = JSON.parse(r.stdout) as JsonReport[];
      const byFile = new Map(reports.map((rep) => [rep.file.split('\\').join('/'), rep.diagnostics]));
      assert.deepEqual([...byFile.keys()].sort(), ['a/shared.json', 'b/shared.json', 'other.json']);
      for (const f of ['a/shared.json', 'b/shared.json']) {
        const ds = byFile.get(f)!;
        assert.deepEqual(
          ds.map((d) => [d.code, d.severity]),
          [['duplicate-tool-name', 'warning']],
          f,
        );
        assert.match(ds[0].message, /"shared"/);
        const line = text.split('\n')[ds[0].range.start.line];
        assert.equal(line.slice(ds[0].range.start.character, ds[0].range.end.character), '"shared"');
      }
      assert.deepEqual(byFile.get('other.json'), []);
    });

    test('so does naming the two files explicitly', () => {
      const r = cli(['check', join(dir, 'a', 'shared.json'), join(dir, 'b', 'shared.json')], dir);
      assert.equal(r.code, 0, show(r));
      const lines = r.stdout.trim().split('\n');
      assert.equal(lines.length, 2, show(r));
      assert.ok(
        lines.every((l) => / warning duplicate-tool-name /.test(l)),
        show(r),
      );
      assert.ok(lines[0].startsWith('a/shared.json:') || lines[0].startsWith('a\\shared.json:'), lines[0]);
    });

    test('a single one of them alone has no duplicate', () => {
      const r = cli(['check', join(dir, 'a', 'shared.json')], dir);
      assert.equal(r.code, 0, show(r));
      assert.equal(r.stdout, '');
    });
  });
});
