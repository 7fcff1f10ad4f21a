// Deterministic mutations of Python source for the differential test against CPython: each one is an
// edit a person makes by mistake (a deleted colon, an unbalanced bracket, a bad indent…). A mutation
// picks one candidate line with a seeded generator and returns the new source and the edited line.

export { xorshift32 as rng } from '../random';

type Mutation = (lines: readonly string[], i: number) => string | null;

const indentOf = (s: string) => /^\s*/.exec(s)![0];
/** `name = value` on one line, without strings, comments or continuations. */
const simple = (l: string) => /^\s*[A-Za-z_][\w.]*\s*=\s*[\w([]/.test(l) && !/["'#\\]/.test(l) && !/[([{,]\s*$/.test(l);
const simpleName = (l: string) => simple(l) && !/^\s*\w+\./.test(l) && !/==/.test(l);

export const MUTATIONS: Record<string, Mutation> = {
  'delete-colon': (lines, i) => {
    const l = lines[i];
    if (!/^\s*(def|if|elif|else|for|while|class|with|try|except|finally)\b.*:\s*$/.test(l) || /["'#]/.test(l))
      return null;
    const j = l.lastIndexOf(':');
    return l.slice(0, j) + l.slice(j + 1);
  },
  'delete-close-paren': (lines, i) => {
    const l = lines[i];
    if (/["'#\\]/.test(l) || !/\)\s*$/.test(l) || !/^\s*\w/.test(l)) return null;
    let d = 0;
    for (const c of l) d += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (d !== 0) return null;
    const j = l.lastIndexOf(')');
    return l.slice(0, j) + l.slice(j + 1);
  },
  'extra-close-paren': (lines, i) => (simple(lines[i]) ? lines[i].replace(/\s*$/, ')') : null),
  'open-bracket': (lines, i) => (simple(lines[i]) ? lines[i].replace(/=\s*/, '= [') : null),
  'unexpected-indent': (lines, i) => {
    const l = lines[i];
    if (!simple(l) || i === 0 || !simple(lines[i - 1]) || indentOf(l) !== indentOf(lines[i - 1])) return null;
    return '    ' + l;
  },
  'bad-dedent': (lines, i) => (simple(lines[i]) && /^ {4,}\S/.test(lines[i]) ? lines[i].slice(1) : null),
  'tab-indent': (lines, i) => (simple(lines[i]) && /^ {8}\S/.test(lines[i]) ? '\t' + lines[i].slice(8) : null),
  'return-return': (lines, i) =>
    /^\s*return \S/.test(lines[i]) ? lines[i].replace('return ', 'return return ') : null,
  'assign-in-if': (lines, i) => {
    const l = lines[i];
    if (!/^\s*(if|elif|while) [^=]*[^=!<>]==[^=][^=]*:\s*$/.test(l) || /["'#]/.test(l)) return null;
    return l.replace('==', '=');
  },
  'missing-comma': (lines, i) => {
    const l = lines[i];
    if (/["'#]/.test(l)) return null;
    const m = /\(([A-Za-z_]\w*), ([A-Za-z_]\w*)\)/.exec(l);
    return m ? l.slice(0, m.index) + `(${m[1]} ${m[2]})` + l.slice(m.index + m[0].length) : null;
  },
  'kwarg-before-positional': (lines, i) => {
    const l = lines[i];
    if (/["'#]/.test(l) || !/^\s*\w/.test(l)) return null;
    const m = /\(([A-Za-z_]\w*), ([A-Za-z_]\w*)\)/.exec(l);
    return m ? l.slice(0, m.index) + `(k=${m[1]}, ${m[2]})` + l.slice(m.index + m[0].length) : null;
  },
  'keyword-target': (lines, i) => (simpleName(lines[i]) ? lines[i].replace(/^(\s*)[A-Za-z_]\w*/, '$1class') : null),
  'call-target': (lines, i) =>
    simple(lines[i]) ? lines[i].replace(/^(\s*)([A-Za-z_][\w.]*)(\s*=)/, '$1$2()$3') : null,
  'literal-target': (lines, i) =>
    simple(lines[i]) ? lines[i].replace(/^(\s*)([A-Za-z_][\w.]*)(\s*=)/, '$11$3') : null,
  'star-assign': (lines, i) => (simpleName(lines[i]) ? lines[i].replace(/^(\s*)([A-Za-z_]\w*)\s*=/, '$1*$2 =') : null),
  'walrus-statement': (lines, i) => (simpleName(lines[i]) ? lines[i].replace(/^(\s*[A-Za-z_]\w*)\s*=/, '$1 :=') : null),
  'await-in-def': (lines, i) =>
    simple(lines[i]) && /^\s/.test(lines[i]) ? lines[i].replace(/=\s*/, '= await ') : null,
  'unterminated-string': (lines, i) => {
    const l = lines[i];
    if (!/^[^"'#]*"([A-Za-z ]*)"[^"'#\\]*$/.test(l)) return null;
    const j = l.lastIndexOf('"');
    return l.slice(0, j) + l.slice(j + 1);
  },
  'double-operator': (lines, i) => {
    const l = lines[i];
    if (/["'#]/.test(l) || !/^\s*(\w+ = |return )/.test(l)) return null;
    const m = / ([+-]) ([A-Za-z_(])/.exec(l);
    return m ? l.slice(0, m.index) + ` ${m[1]} * ${m[2]}` + l.slice(m.index + m[0].length) : null;
  },
  'double-dot': (lines, i) => {
    const l = lines[i];
    if (/["'#]/.test(l) || !/^\s*\w/.test(l)) return null;
    const m = /([A-Za-z_]\w*)\.([A-Za-z_])/.exec(l);
    return m ? l.slice(0, m.index) + `${m[1]}..${m[2]}` + l.slice(m.index + m[0].length) : null;
  },
  'def-no-parens': (lines, i) => {
    const m = /^(\s*def \w+)\(([A-Za-z_]\w*)\):\s*$/.exec(lines[i]);
    return m ? `${m[1]} ${m[2]}:` : null;
  },
  'py2-print': (lines, i) => {
    const m = /^(\s*)print\((\w+)\)\s*$/.exec(lines[i]);
    return m ? `${m[1]}print ${m[2]}` : null;
  },
  'else-no-if': (lines, i) => {
    const l = lines[i];
    const ind = indentOf(l);
    if (!simple(l) || i === 0 || !simple(lines[i - 1]) || indentOf(lines[i - 1]) !== ind) return null;
    return `${ind}else:\n${ind}    pass\n${l}`;
  },
  'delete-pass-body': (lines, i) => {
    const l = lines[i];
    if (!/^\s+pass\s*$/.test(l)) return null;
    const ind = indentOf(l).length;
    const prev = lines[i - 1] ?? '';
    if (!/:\s*$/.test(prev) || indentOf(prev).length >= ind) return null;
    const next = lines[i + 1] ?? '';
    if (next.trim() && indentOf(next).length >= ind) return null;
    return '';
  },
  'bad-number': (lines, i) => {
    const l = lines[i];
    const m = /= (\d+)\s*$/.exec(l);
    return m && !/["'#]/.test(l) ? l.slice(0, m.index) + `= ${m[1]}abc` : null;
  },
  'leading-zero': (lines, i) => {
    const l = lines[i];
    const m = /= ([1-9]\d*)\s*$/.exec(l);
    return m && !/["'#]/.test(l) ? l.slice(0, m.index) + `= 0${m[1]}` : null;
  },
  'fstring-empty': (lines, i) => (simple(lines[i]) ? lines[i].replace(/=\s*/, '= f"{}" + ') : null),
  'unclosed-triple-quote': (lines, i) => {
    const l = lines[i];
    if (!/^\s*"""[^"]*"""\s*$/.test(l)) return null;
    return l.replace(/"""\s*$/, '');
  },
  'return-at-top': (lines, i) =>
    i > 0 && /^[A-Za-z_]\w* = \w/.test(lines[i]) && !/["'#\\([{]/.test(lines[i])
      ? lines[i].replace(/^(\w+) = /, 'return ')
      : null,
  'break-outside-loop': (lines, i) =>
    /^[A-Za-z_]\w* = \w/.test(lines[i]) && !/["'#\\([{]/.test(lines[i]) ? 'break' : null,
  'duplicate-param': (lines, i) => {
    const m = /^(\s*def \w+\()(\w+)(, )/.exec(lines[i]);
    return m && /\):\s*$/.test(lines[i]) ? lines[i].replace(m[0], `${m[1]}${m[2]}, ${m[2]}${m[3]}`) : null;
  },
  'default-before-plain': (lines, i) => {
    const m = /^(\s*def \w+\()(\w+), (\w+)\):\s*$/.exec(lines[i]);
    return m && m[2] !== 'self' ? `${m[1]}${m[2]}=None, ${m[3]}):` : null;
  },
  // `global x` added right after an assignment to x inside a function: CPython's symtable rejects it.
  'global-after-assign': (lines, i) => {
    const l = lines[i];
    if (!simpleName(l) || !/^\s+/.test(l) || !inFunction(lines, i)) return null;
    return `${l}\n${indentOf(l)}global ${/^\s*(\w+)/.exec(l)![1]}`;
  },
};

/** Whether line i is inside a `def` (the nearest less-indented headers above it include one). */
function inFunction(lines: readonly string[], i: number): boolean {
  let indent = indentOf(lines[i]).length;
  for (let j = i - 1; j >= 0 && indent > 0; j--) {
    const l = lines[j];
    if (!l.trim() || /^\s*#/.test(l) || indentOf(l).length >= indent) continue;
    if (/^\s*(async\s+)?def\s/.test(l)) return true;
    indent = indentOf(l).length;
  }
  return false;
}

/** Applies mutation `kind` to one candidate line chosen by `rand`; null when no line qualifies. */
export function mutate(src: string, kind: string, rand: () => number): { src: string; line: number } | null {
  const lines = src.split('\n');
  const f = MUTATIONS[kind];
  const candidates: [number, string][] = [];
  for (let i = 0; i < lines.length; i++) {
    const r = f(lines, i);
    if (r !== null && r !== lines[i]) candidates.push([i, r]);
  }
  if (!candidates.length) return null;
  const [i, r] = candidates[Math.floor(rand() * candidates.length)];
  const out = lines.slice();
  out[i] = r;
  return { src: out.join('\n'), line: i + 1 };
}
