// `npm run bench`: runs the benchmarks built by scripts/build.mjs into out/bench/ (this script builds
// nothing itself), prints each measure against its target and writes out/bench/results.json.
// Run with `node --expose-gc` so that garbage is collected between phases.
// Exit code 1 when a target is missed. To profile the spawned language servers, set
// TOOLDEF_BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=out/bench/prof" (extra node arguments), and
// TOOLDEF_BENCH_SERVER=path/to/an/unminified/server.js to get readable function names.
// Fixtures are generated in memory (test/bench/fixtures.ts); nothing is written besides results.json.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, setPriority } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const root = new URL('../..', import.meta.url).pathname;
process.chdir(root);

const started = performance.now();
const loadBefore = loadavg();
const log = (s) => console.error(s);
// Less noise from other processes where permitted (root); the spawned servers inherit it.
try {
  setPriority(-10);
  log('Running at raised priority (nice -10).');
} catch {
  // not permitted: run at normal priority
}
if (loadBefore[0] > cpus().length * 0.75)
  log(
    `warning: the machine is busy (load average ${loadBefore[0].toFixed(2)} on ${cpus().length} CPUs): timings will be inflated and noisy`,
  );
if (typeof globalThis.gc !== 'function') log('warning: run with node --expose-gc to collect garbage between phases');

// Bundle sizes first, right after `npm run bench` built them (another build may replace dist/ later).
const bundles = Object.fromEntries(
  ['server', 'server-main', 'python', 'tests', 'jsonSchema', 'outputCheck', 'cli', 'extension'].map((n) => [
    n,
    statSync(join(root, 'dist', `${n}.js`)).size,
  ]),
);
// dist/server.js starts dist/server-main.js: the server is both.
bundles.server += bundles['server-main'];
const pythonTables = statSync(join(root, 'dist', 'python-tables.grammar-data')).size;
// Only a --production build minifies the extension; a linked source map means dist/ was built without it.
const extensionIsDevBuild = readFileSync(join(root, 'dist/extension.js'), 'utf8').includes('//# sourceMappingURL=');

const { generateFixtures, runServiceBench } = require(join(root, 'out/bench/service.bench.js'));
const { runLspBench } = require(join(root, 'out/bench/lsp.bench.js'));
const { runPythonBench, ESCAPES } = require(join(root, 'out/bench/python.bench.js'));

log('Generating fixtures…');
const files = generateFixtures();
for (const f of files) log(`  ${f.id}: ${kb(Buffer.byteLength(f.text))}`);

log('In-process validation…');
const service = await runServiceBench(files, root, log);
globalThis.gc?.();
log('Embedded-Python analysis in-process…');
const python = await runPythonBench(files);
globalThis.gc?.();
log('Language server over stdio…');
const lsp = await runLspBench(files, root, log);

// ------------------------------------------------------------------------------------ checks

const checks = [];
/** A measure; `target` is `{ max }` or `{ min }`, or undefined for information only. */
function check(group, measure, value, unit, target, detail = '') {
  const pass = target === undefined ? undefined : 'max' in target ? value <= target.max : value >= target.min;
  checks.push({ group, measure, value, unit, target, pass, detail });
}
const ms = (n) => `${n.toFixed(n < 10 ? 2 : 1)} ms`;
const mp = (s) => `p50 ${ms(s.median)}, p90 ${ms(s.p90)}`;

// Validation ratios are judged on wall-clock medians; on a busy machine (other processes competing
// for the CPUs, so wall time mostly measures waiting) on process CPU-time medians instead.
const busy = Math.max(loadBefore[0], loadavg()[0]) > cpus().length * 0.75;
const basis = busy ? 'cpu' : 'wall';
for (const r of service) {
  const size = r.id.split('-')[0];
  const v = (m) => r[m][basis].median;
  const alt = busy ? 'wall' : 'cpu';
  const altRatio = (a, b) => (r[a][alt].median / r[b][alt].median).toFixed(2);
  check(
    'validation',
    `${r.id}: ours ÷ JSON.parse (${basis} median)`,
    v('ours') / v('jsonParse'),
    '×',
    size === 'small' ? undefined : { max: 2 },
    `ours ${mp(r.ours.wall)}; JSON.parse ${mp(r.jsonParse.wall)}; by ${alt} time ${altRatio('ours', 'jsonParse')}×`,
  );
  check(
    'validation',
    `${r.id}: vscode-json-languageservice ÷ ours (${basis} median)`,
    v('vscodeJson') / v('ours'),
    '×',
    { min: 4 },
    `vscode-json ${mp(r.vscodeJson.wall)}; by ${alt} time ${altRatio('vscodeJson', 'ours')}×`,
  );
}
check(
  'startup',
  'cold start: spawn → initialize result, from the code cache as the extension starts it (median of 9)',
  lsp.coldStart.median,
  'ms',
  { max: 200 },
  `p90 ${ms(lsp.coldStart.p90)}, min ${ms(lsp.coldStart.min)}`,
);
check(
  'startup',
  'cold start without a code cache directory (median of 9, taking turns with the above)',
  lsp.coldStartUncached.median,
  'ms',
  undefined,
  `p90 ${ms(lsp.coldStartUncached.p90)}, min ${ms(lsp.coldStartUncached.min)}`,
);
check('startup', 'first start of a build (writes the code cache)', lsp.firstStartMs, 'ms', undefined);
check(
  'startup',
  "node itself: spawn → exit of node -e '' (median of 9)",
  lsp.nodeBaseline.median,
  'ms',
  undefined,
  `p90 ${ms(lsp.nodeBaseline.p90)}, min ${ms(lsp.nodeBaseline.min)}`,
);
// Edit targets: the prompt (issue 2: large ≤ 10 ms, huge ≤ 40 ms); tool_code with its Python analysis
// (issue 3: large ≤ 15 ms, small ≤ 5 ms; huge as the prompt).
const editTarget = (file) =>
  ({ 'large-llm': 10, 'huge-llm': 40, 'large-smart': 15, 'small-smart': 5, 'huge-smart': 40 })[file];
for (const d of lsp.didChange) {
  const max = editTarget(d.file);
  check(
    'edit',
    `${d.file}: didChange in ${d.where} → diagnostics (median)`,
    d.stats.median,
    'ms',
    max === undefined ? undefined : { max },
    `p90 ${ms(d.stats.p90)}, max ${ms(d.stats.max)}, n=${d.stats.n}`,
  );
}
// Issue 17: any file's first diagnostics (JSON, shape, placeholders) ≤ 20 ms after didOpen, published
// before the Python analysis; the large smart tool's complete set (≈5,300 lines of tool_code) ≤ 120 ms,
// judged on the first such open after the server started, and ≤ 15 ms when it is opened again in a new
// window (from its kept analysis); the other opens are shown for comparison.
const completeTarget = (file) =>
  file === 'large-smart' ? { max: 120 } : file.startsWith('large-smart (reopened') ? { max: 15 } : undefined;
for (const o of lsp.didOpen) {
  check('open', `${o.file}: didOpen → first diagnostics`, o.firstMs, 'ms', { max: 20 });
  if (o.completeMs !== o.firstMs || completeTarget(o.file))
    check(
      'open',
      `${o.file}: didOpen → complete diagnostics (with the Python's)`,
      o.completeMs,
      'ms',
      completeTarget(o.file),
    );
}
check(
  'python',
  `large-smart tool_code (${python.largeSmartChars.toLocaleString('en')} characters): whole analysis in-process (median)`,
  python.largeSmart.wall.median,
  'ms',
  undefined,
  `p90 ${ms(python.largeSmart.wall.p90)}, min ${ms(python.largeSmart.wall.min)}`,
);
// Linear in a string's escapes: a quadratic took 3.2 s here.
check(
  'python',
  `a string of ${ESCAPES.toLocaleString('en')} escapes: whole analysis in-process (median)`,
  python.escapes.wall.median,
  'ms',
  { max: 100 },
  `p90 ${ms(python.escapes.wall.p90)}`,
);
check(
  'open',
  'Python warm-up at start-up (workspace with smart tools; wall time, in slices)',
  lsp.warmUpMs,
  'ms',
  undefined,
);
for (const q of lsp.requests) {
  const huge = q.file.startsWith('huge');
  const isCompletion = q.label.startsWith('completion');
  const target = !huge ? undefined : isCompletion ? { max: 10 } : { max: 2 };
  check(
    isCompletion ? 'completion' : 'hover',
    `${q.file}: ${q.label} (p90)`,
    q.stats.p90,
    'ms',
    target,
    `p50 ${ms(q.stats.median)}, max ${ms(q.stats.max)}; answer: ${q.answer}`,
  );
}
check(
  'completion',
  `${lsp.completionAfterEdit.file}: completion sent right after a didChange (p90)`,
  lsp.completionAfterEdit.stats.p90,
  'ms',
  undefined,
  `p50 ${ms(lsp.completionAfterEdit.stats.median)}`,
);
check('memory', 'server RSS idle after initialize', lsp.idle.rssMB, 'MB', { max: 60 });
check(
  'memory',
  'server RSS with the huge LLM file open',
  lsp.hugeLlmOpen.rssMB,
  'MB',
  { max: 100 },
  `peak (VmHWM) ${lsp.hugeLlmOpen.hwmMB.toFixed(1)} MB`,
);
check(
  'memory',
  'server RSS with both huge files open (Python analysis included)',
  lsp.bothHugeOpen.rssMB,
  'MB',
  { max: 150 },
  `peak (VmHWM) ${lsp.bothHugeOpen.hwmMB.toFixed(1)} MB`,
);
check(
  'memory',
  'server RSS after the huge-file edit/completion session',
  lsp.afterSession.rssMB,
  'MB',
  undefined,
  `peak (VmHWM) ${lsp.afterSession.hwmMB.toFixed(1)} MB`,
);
// Issue 17: ≤ 100 MB once idle after the huge files were opened and edited (a full GC stands for idle).
check(
  'memory',
  'server RSS after that session and a forced full GC',
  lsp.afterSessionGc.rssMB,
  'MB',
  { max: 100 },
  `JS heap used ${lsp.afterSessionGc.heapUsedMB.toFixed(1)} MB, external+buffers ${lsp.afterSessionGc.externalMB.toFixed(1)} MB`,
);
check('bundle', 'dist/server.js + server-main.js (minified)', bundles.server / 1024, 'KiB', { max: 400 });
// Issue 17: the server bundle, parser included, ≤ 400 KiB.
check(
  'bundle',
  'the server with its Python parser: dist/server.js, server-main.js, python.js and its parse tables',
  (bundles.server + bundles.python + pythonTables) / 1024,
  'KiB',
  { max: 400 },
  `python.js ${kb(bundles.python)}, parse tables (data file) ${kb(pythonTables)}`,
);
check(
  'bundle',
  'all JavaScript the server may load: dist/server.js, server-main.js and the parts loaded on first use',
  (bundles.server + bundles.python + bundles.tests + bundles.jsonSchema + bundles.outputCheck) / 1024,
  'KiB',
  undefined,
  `python.js ${kb(bundles.python)}, tests.js ${kb(bundles.tests)}, jsonSchema.js ${kb(bundles.jsonSchema)}, outputCheck.js ${kb(bundles.outputCheck)}, parse tables (data file) ${kb(pythonTables)}`,
);
check('bundle', 'dist/cli.js (minified)', bundles.cli / 1024, 'KiB', undefined);
check(
  'bundle',
  'dist/extension.js',
  bundles.extension / 1024,
  'KiB',
  undefined,
  extensionIsDevBuild
    ? 'NOT a production build: run node scripts/build.mjs --production first'
    : 'minified (production build)',
);

// ------------------------------------------------------------------------------------ report

function kb(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}
function fmt(v, unit) {
  return unit === '×' ? `${v.toFixed(2)}×` : `${v.toFixed(v < 10 ? 2 : 1)} ${unit}`;
}
function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join(' │ ');
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...rows.map(line)].join('\n');
}

const out = [];
out.push(
  '\nValidation, in one process: wall-clock median / p90 per call, then [CPU-time median], in ms. Fresh TextDocument per call;',
);
out.push(
  'the methods take turns in rounds; V8 collects garbage as it comes, inside the timed blocks. Ratios use ' +
    (busy ? 'CPU-time medians (machine busy).\n' : 'wall-clock medians.\n'),
);
const cell = (c) => `${c.wall.median.toFixed(3)} / ${c.wall.p90.toFixed(3)} [${c.cpu.median.toFixed(3)}]`;
out.push(
  table(
    [
      'file',
      'size',
      'JSON.parse',
      'vscode-json-languageservice',
      'ours (parse + doValidation)',
      'ours: parse only',
      'ours + every position',
      'ours 1st call',
      'ours ÷ JSON.parse',
      'vscode-json ÷ ours',
      'diagnostics: ours | vscode-json',
    ],
    service.map((r) => [
      r.id,
      kb(r.bytes),
      cell(r.jsonParse),
      cell(r.vscodeJson),
      cell(r.ours),
      cell(r.oursParseOnly),
      cell(r.oursWithPositions),
      r.oursFirstMs.toFixed(2),
      `${(r.ours[basis].median / r.jsonParse[basis].median).toFixed(2)}×`,
      `${(r.vscodeJson[basis].median / r.ours[basis].median).toFixed(2)}×`,
      `${r.oursDiagnostics.length ? r.oursDiagnostics.join(',') : 'none'} | ${r.vscodeJsonDiagnostics}`,
    ]),
  ),
);
out.push('\nTargets\n');
out.push(
  table(
    ['measure', 'value', 'target', 'result', 'detail'],
    checks.map((c) => [
      c.measure,
      fmt(c.value, c.unit),
      c.target === undefined
        ? '(info)'
        : 'max' in c.target
          ? `≤ ${fmt(c.target.max, c.unit)}`
          : `≥ ${fmt(c.target.min, c.unit)}`,
      c.pass === undefined ? '' : c.pass ? 'PASS' : 'FAIL',
      c.detail,
    ]),
  ),
);
const failed = checks.filter((c) => c.pass === false);
const elapsed = (performance.now() - started) / 1000;
const load = `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')} after, ${cpus().length} CPUs`;
out.push(
  `\n${checks.filter((c) => c.pass).length} PASS, ${failed.length} FAIL (bench took ${elapsed.toFixed(0)} s on node ${process.version}; ${load})`,
);
console.log(out.join('\n'));

mkdirSync(join(root, 'out/bench'), { recursive: true });
writeFileSync(
  join(root, 'out/bench/results.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      elapsedSeconds: elapsed,
      loadAverage: { before: loadBefore, after: loadavg(), cpus: cpus().length },
      validationRatiosJudgedOn: basis,
      fixtures: files.map((f) => ({ id: f.id, uri: f.uri, bytes: Buffer.byteLength(f.text) })),
      checks,
      service,
      lsp,
      bundles,
      extensionIsDevBuild,
    },
    null,
    2,
  ) + '\n',
);
console.log('Results written to out/bench/results.json');
process.exitCode = failed.length ? 1 : 0;
