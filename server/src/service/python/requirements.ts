// `metadata.requirements`: one PEP 508 requirement per line, checked against the imports of the
// tool_code. A small, careful PEP 508 parser (names, extras, version specifiers validated as PEP 440,
// environment markers, `name @ URL`), written here because the one npm parser for requirements
// files (pip-requirements-js, built on ohm-js) costs ~140 KB of minified JavaScript, a third of the
// server bundle's budget.
//
// Decisions: blank lines and `#` comments are accepted (pip ignores them too). pip options
// (`-r file`, `-e`, `--index-url`, `--hash`…) and line continuations are `invalid-requirement`: the
// format describes `requirements` as package names with optional version constraints, the upload
// carries no other file for `-r`/`-c`/`-e` to point at, and an index URL in a shared definition leaks
// credentials and makes the service's cached environment depend on a private index. For the same
// reasons, and because pip runs the setup code of whatever it builds, a requirement may only name a
// package of the index: `name @ URL`, a bare URL, a path and an archive file are refused too. This is
// the one policy: `tooldef check` reports these lines, and `run` refuses them before installing anything.
import type { ImportRef, PyProblem } from './types';
import { isStdlib } from './stdlib';
import { distributionsFor, normalizeName } from './distributions';

export interface Requirement {
  /** Distribution name as written. */
  name: string;
  /** PEP 503 normalised name. */
  normalized: string;
  extras: string[];
  /** Version specifiers as written, e.g. `>=1.2,<2`. */
  specifier: string;
  url?: string;
  marker?: string;
  /** Offsets into the requirements text: the whole line (without comment) and the name. */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  line: number;
}

export type RequirementProblem = PyProblem & {
  /** Which text the offsets point into: the requirements string, or the Python source. */
  in: 'requirements' | 'tool_code';
};

const ENV_VARS = new Set([
  'python_version',
  'python_full_version',
  'os_name',
  'sys_platform',
  'platform_release',
  'platform_system',
  'platform_version',
  'platform_machine',
  'platform_python_implementation',
  'implementation_name',
  'implementation_version',
  'extra',
  // Legacy names pip still accepts.
  'os.name',
  'sys.platform',
  'platform.version',
  'platform.machine',
  'platform.python_implementation',
  'python_implementation',
]);

// PEP 440 (the regular expression of `packaging.version`).
const PEP440 =
  /^\s*v?(?:(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?)(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?\s*$/i;

class ReqError extends Error {
  constructor(
    readonly at: number,
    readonly to: number,
    message: string,
  ) {
    super(message);
  }
}

/** A distribution file (wheel, sdist) that pip would install from the disk instead of the index. */
const ARCHIVE = /\.(whl|zip|tar|tgz|tar\.gz|tar\.bz2|tar\.xz)$/i;

/** Parses one requirement line (comment already removed) starting at `base` in the whole text. */
export function parseRequirement(line: string, base = 0, lineNo = 1): Requirement {
  let p = 0;
  const n = line.length;
  const ws = () => {
    while (p < n && (line[p] === ' ' || line[p] === '\t')) p++;
  };
  const fail = (message: string, at = p, to = Math.min(n, Math.max(at + 1, p))): never => {
    if (at >= n) {
      // At the end of the line: point at its last character.
      at = Math.max(0, n - 1);
      to = n;
    }
    throw new ReqError(base + at, base + Math.max(to, at + 1), message);
  };
  ws();
  const start = p;
  const rest = line.slice(p).trimEnd();
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(rest)) {
    fail(
      `'${rest}' is a URL: the service installs packages by name from the package index; write the package's name, e.g. 'requests>=2.31'.`,
      p,
      line.trimEnd().length,
    );
  }
  if (/^[./\\~]|^[A-Za-z]:[\\/]|[\\/]/.test(rest.split(/[\s;]/)[0])) {
    fail(
      `'${rest}' is a path: the service installs packages by name from the package index; write the package's name, e.g. 'requests>=2.31'.`,
      p,
      line.trimEnd().length,
    );
  }
  const nameM = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/.exec(line.slice(p));
  if (!nameM) {
    fail(`Expected a distribution name, found '${line.slice(p, p + 10).trim()}'.`, p, n);
  }
  const name = nameM![0];
  if (ARCHIVE.test(name)) {
    fail(
      `'${name}' is a file, not a package name: the service installs packages by name from the package index; write the package's name, e.g. 'requests>=2.31'.`,
      p,
      p + name.length,
    );
  }
  const nameStart = p;
  p += name.length;
  const nameEnd = p;
  ws();
  const extras: string[] = [];
  if (line[p] === '[') {
    const open = p;
    p++;
    ws();
    while (p < n && line[p] !== ']') {
      const m = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?/.exec(line.slice(p));
      if (!m) fail('Expected an extra name.');
      extras.push(m![0]);
      p += m![0].length;
      ws();
      if (p >= n) break;
      if (line[p] === ',') {
        p++;
        ws();
      } else if (line[p] !== ']') fail("Expected ',' or ']' in the extras.");
    }
    if (line[p] !== ']') fail("Unclosed '[' of the extras.", open, line.trimEnd().length);
    p++;
    ws();
  }
  let specifier = '';
  let url: string | undefined;
  if (line[p] === '@') {
    p++;
    ws();
    const m = /^\S+/.exec(line.slice(p));
    if (!m) fail("Expected a URL after '@'.");
    url = m![0];
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(url)) fail(`'${url}' is not a URL.`, p, p + url.length);
    p += url.length;
    const before = p;
    ws();
    if (p < n && line[p] === ';' && before === p) fail("A URL requirement needs a space before ';'.");
  } else {
    const paren = line[p] === '(';
    if (paren) {
      p++;
      ws();
    }
    const specStart = p;
    while (p < n && /[<>=!~]/.test(line[p])) {
      const opM = /^(===|==|!=|<=|>=|~=|<|>)/.exec(line.slice(p));
      if (!opM)
        fail(`'${line.slice(p, p + 2)}' is not a version operator (use ==, !=, <=, >=, <, >, ~= or ===).`, p, p + 2);
      const op = opM![0];
      const opAt = p;
      p += op.length;
      ws();
      const vM = /^[A-Za-z0-9_.*+!-]+/.exec(line.slice(p));
      if (!vM) fail(`Expected a version after '${op}'.`);
      const v = vM![0];
      if (op !== '===') {
        const wildcard = v.endsWith('.*');
        const core = wildcard ? v.slice(0, -2) : v;
        if (wildcard && op !== '==' && op !== '!=')
          fail(`A wildcard version ('${v}') only works with == or !=.`, p, p + v.length);
        if (!PEP440.test(core) || (wildcard && core.includes('+')))
          fail(`'${v}' is not a valid version (PEP 440).`, p, p + v.length);
        if (op === '~=' && !/^(?:[0-9]+!)?[0-9]+\.[0-9]+/.test(core.replace(/^v/i, '')))
          fail("'~=' needs a version with at least two parts, e.g. '~=1.4'.", opAt, p + v.length);
        if (/\+/.test(core) && op !== '==' && op !== '!=')
          fail(`A local version ('${v}') only works with == or !=.`, p, p + v.length);
      }
      p += v.length;
      ws();
      if (line[p] === ',') {
        p++;
        ws();
        if (!/[<>=!~]/.test(line[p] ?? '')) fail("Expected a version specifier after ','.");
      }
    }
    specifier = line.slice(specStart, p).trim();
    if (paren) {
      if (line[p] !== ')') fail("Expected ')' after the version specifiers.");
      p++;
      ws();
    }
  }
  let marker: string | undefined;
  if (line[p] === ';') {
    p++;
    ws();
    const mStart = p;
    p = parseMarker(line, p, fail);
    marker = line.slice(mStart, p).trim();
    ws();
  }
  if (p < n) {
    const rest = line.slice(p);
    if (/^[0-9]/.test(rest) && !specifier) fail(`A version needs an operator: write '${name}==${rest.trim()}'.`, p, n);
    fail(`Unexpected '${rest.trim().slice(0, 20)}'.`, p, n);
  }
  return {
    name,
    normalized: normalizeName(name),
    extras,
    specifier,
    url,
    marker,
    start: base + start,
    end: base + n,
    nameStart: base + nameStart,
    nameEnd: base + nameEnd,
    line: lineNo,
  };
}

type Fail = (message: string, at?: number, to?: number) => never;

/** PEP 508 markers: or/and of comparisons between env vars and quoted strings, with parentheses. */
function parseMarker(s: string, p: number, fail: Fail): number {
  const n = s.length;
  const ws = () => {
    while (p < n && (s[p] === ' ' || s[p] === '\t')) p++;
  };
  const value = (): 'var' | 'str' => {
    ws();
    const q = s[p];
    if (q === '"' || q === "'") {
      const close = s.indexOf(q, p + 1);
      if (close < 0) fail('Unterminated string in the marker.', p, n);
      p = close + 1;
      return 'str';
    }
    const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(s.slice(p));
    if (!m) fail('Expected an environment marker variable (e.g. python_version) or a quoted string.');
    if (!ENV_VARS.has(m![0])) fail(`Unknown environment marker '${m![0]}'.`, p, p + m![0].length);
    p += m![0].length;
    return 'var';
  };
  const atom = () => {
    ws();
    if (s[p] === '(') {
      const open = p;
      p++;
      or();
      ws();
      if (s[p] !== ')') fail("Expected ')' in the marker.", open, n);
      p++;
      return;
    }
    const left = value();
    ws();
    const opM = /^(===|==|!=|<=|>=|~=|<|>|in\b|not\s+in\b)/.exec(s.slice(p));
    if (!opM) fail('Expected a comparison operator in the marker.');
    p += opM![0].length;
    const right = value();
    if (left === 'str' && right === 'str') fail('A marker compares a variable with a string, not two strings.');
  };
  const and = () => {
    atom();
    for (;;) {
      ws();
      const m = /^and\b/.exec(s.slice(p));
      if (!m) return;
      p += 3;
      atom();
    }
  };
  const or = () => {
    and();
    for (;;) {
      ws();
      const m = /^or\b/.exec(s.slice(p));
      if (!m) return;
      p += 2;
      and();
    }
  };
  or();
  return p;
}

/** Parses the whole requirements text: requirements and per-line problems (offsets into `text`). */
export function parseRequirements(text: string): { requirements: Requirement[]; problems: RequirementProblem[] } {
  const requirements: Requirement[] = [];
  const problems: RequirementProblem[] = [];
  const re = /[^\r\n]*(\r\n|\r|\n|$)/g;
  let lineNo = 0;
  for (let m = re.exec(text); m && m.index < text.length; m = re.exec(text)) {
    lineNo++;
    const raw = m[0].replace(/[\r\n]+$/, '');
    const base = m.index;
    if (m[0] === '') break;
    // Comments: a whole line, or ` #…` after whitespace (pip's rule).
    const hash = raw.search(/(^|\s)#/);
    const line = hash < 0 ? raw : raw.slice(0, hash);
    const trimmed = line.trim();
    if (!trimmed) continue;
    const lead = line.length - line.trimStart().length;
    if (/^-/.test(trimmed)) {
      const opt = /^\S+/.exec(trimmed)![0];
      problems.push({
        code: 'invalid-requirement',
        in: 'requirements',
        start: base + lead,
        end: base + line.trimEnd().length,
        message: `'${opt}' is a pip option, not a requirement: the service installs each line as a package requirement (PEP 508), so options such as -r, -e, --index-url or --hash are not available.`,
      });
      continue;
    }
    if (/\\$/.test(line.trimEnd())) {
      const at = base + line.trimEnd().length - 1;
      problems.push({
        code: 'invalid-requirement',
        in: 'requirements',
        start: at,
        end: at + 1,
        message: 'Line continuations are not supported: put each requirement on one line.',
      });
      continue;
    }
    try {
      const r = parseRequirement(line, base, lineNo);
      if (r.url !== undefined) {
        problems.push({
          code: 'invalid-requirement',
          in: 'requirements',
          start: r.start,
          end: r.end,
          message: `'${r.name} @ …' installs from a URL, which the service does not do: name the package from the package index, e.g. '${r.name}>=1.0'.`,
        });
      } else requirements.push(r);
    } catch (e) {
      if (!(e instanceof ReqError)) throw e;
      problems.push({
        code: 'invalid-requirement',
        in: 'requirements',
        start: e.at,
        end: e.to,
        message: `Not a valid requirement: ${e.message}`,
      });
    }
  }
  return { requirements, problems };
}

/** Requirements that are commonly needed without being imported (optional backends of other packages). */
const IMPLICIT = new Set(
  'lxml html5lib openpyxl xlrd xlsxwriter pyarrow fastparquet tabulate odfpy pyxlsb setuptools wheel pip certifi urllib3 chardet charset-normalizer idna tzdata python-multipart uvloop'
    .split(' ')
    .map(normalizeName),
);

/**
 * Requirements against imports: invalid-requirement and duplicate-requirement (offsets into
 * `requirementsText`), missing-requirement (offsets into the Python source, at the import; data
 * `{ module, distribution }` for the "add requirement" fix) and unused-requirement (information).
 * `requirementsText` undefined means the field is absent: every third-party import is missing.
 */
export function checkRequirements(
  requirementsText: string | undefined,
  imports: readonly ImportRef[],
): RequirementProblem[] {
  const { requirements, problems } = parseRequirements(requirementsText ?? '');
  const seen = new Map<string, Requirement>();
  for (const r of requirements) {
    const key = `${r.normalized};${(r.marker ?? '').replace(/\s+/g, '')}`;
    const first =
      seen.get(key) ??
      (r.marker ? undefined : [...seen.values()].find((x) => x.normalized === r.normalized && !x.marker));
    if (first) {
      problems.push({
        code: 'duplicate-requirement',
        in: 'requirements',
        start: r.nameStart,
        end: r.nameEnd,
        message: `'${r.name}' is already required on line ${first.line}.`,
        data: { first: { start: first.start, end: first.end } },
      });
    } else seen.set(key, r);
  }
  const provided = new Set(requirements.map((r) => r.normalized));
  const used = new Set<string>();
  for (const imp of imports) {
    if (imp.relative || isStdlib(imp.module)) continue;
    const candidates = distributionsFor(imp.module);
    const hit = [...candidates, imp.module.split('.')[0]].find((d) => provided.has(normalizeName(d)));
    if (hit) {
      used.add(normalizeName(hit));
      continue;
    }
    if (imp.guarded) continue;
    problems.push({
      code: 'missing-requirement',
      in: 'tool_code',
      start: imp.start,
      end: imp.end,
      message:
        candidates[0] === imp.module.split('.')[0]
          ? `'${imp.module}' is not in the standard library and no requirement provides it: add '${candidates[0]}' to requirements.`
          : `'${imp.module}' comes from the distribution '${candidates[0]}', which is not in requirements.`,
      data: { module: imp.module, distribution: candidates[0] },
    });
  }
  for (const r of requirements) {
    if (used.has(r.normalized) || IMPLICIT.has(r.normalized)) continue;
    // Guarded imports still use a requirement they name.
    problems.push({
      code: 'unused-requirement',
      in: 'requirements',
      start: r.nameStart,
      end: r.nameEnd,
      message: `No import in tool_code uses '${r.name}'.`,
    });
  }
  return problems.sort((a, b) => (a.in === b.in ? a.start - b.start : a.in === 'requirements' ? -1 : 1));
}
