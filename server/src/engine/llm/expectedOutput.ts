/**
 * Checks an LLM answer against the tool's `expected_output`. Pure, no `vscode` import.
 *
 * Decisions:
 * - `limited`: the answer, trimmed, must equal one of `allowed_values` exactly (case-sensitive, like
 *   every name and value in a definition file). An answer that matches only ignoring case, or only
 *   after removing wrapping quotes/backticks/asterisks and a final period, is a warning that names the
 *   value it matched (downstream exact comparisons would still fail); anything else is an error.
 * - `code` with `language`: the answer should hold a fenced code block (``` or ~~~) whose info string
 *   names the language (common aliases match: py/python3 → python, js → javascript, sh/bash → shell…).
 *   A block marked with another language is a warning; no fence, or fences without a language, a hint.
 * - `format` (any type) JSON / XML / CSV / TSV: the whole answer must parse; if it does not but the
 *   answer holds one fenced block (or exactly one whose info string names the format), that block is
 *   checked instead, and a hint says the content is fenced. Parse errors carry the 1-based line and
 *   column in the answer (columns count UTF-16 code units). XML must also have exactly one root
 *   element and no text outside it. CSV rows must all have the header's number of fields; other
 *   formats get a hint that they are not checked.
 */
import { XMLValidator } from 'fast-xml-parser';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ExpectedOutput } from './prompt';
import { listOf } from './prompt';

export type OutputViolationCode =
  | 'empty-output'
  | 'not-allowed-value'
  | 'case-mismatch'
  | 'decorated-value'
  | 'no-allowed-values'
  | 'missing-fence'
  | 'fence-without-language'
  | 'language-mismatch'
  | 'invalid-json'
  | 'invalid-xml'
  | 'invalid-csv'
  | 'inconsistent-columns'
  | 'format-in-fence'
  | 'format-not-checked'
  | 'unknown-type';

export interface OutputViolation {
  readonly code: OutputViolationCode;
  readonly severity: 'error' | 'warning' | 'hint';
  readonly message: string;
  /** 1-based line in the answer, when the problem has a place. */
  readonly line?: number;
  /** 1-based column (UTF-16 code units), when known. */
  readonly column?: number;
}

/** Checks an answer; an empty list means it fits `expected` (or there is nothing to check). */
export function checkOutput(text: string, expected: ExpectedOutput | undefined): OutputViolation[] {
  if (!expected) return [];
  const out: OutputViolation[] = [];
  if (text.trim() === '') {
    out.push({ code: 'empty-output', severity: 'error', message: 'The answer is empty.' });
    return out;
  }
  switch (expected.type) {
    case 'text':
      break;
    case 'limited':
      checkLimited(text, expected.allowedValues, out);
      break;
    case 'code':
      if (expected.language) checkLanguage(text, expected.language, out);
      break;
    default:
      out.push({
        code: 'unknown-type',
        severity: 'hint',
        message: `expected_output type "${expected.type}" is not one of text, code, limited: only its format is checked.`,
      });
  }
  if (expected.format) checkFormat(text, expected.format, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// limited

function checkLimited(text: string, allowed: readonly string[] | undefined, out: OutputViolation[]): void {
  if (!allowed || allowed.length === 0) {
    out.push({
      code: 'no-allowed-values',
      severity: 'hint',
      message: 'expected_output is "limited" but lists no allowed_values: the answer cannot be checked.',
    });
    return;
  }
  const answer = text.trim();
  if (allowed.includes(answer)) return;
  const shown = JSON.stringify(answer.length > 80 ? `${answer.slice(0, 80)}…` : answer);
  const folded = allowed.find((a) => a.toLowerCase() === answer.toLowerCase());
  if (folded !== undefined) {
    out.push({
      code: 'case-mismatch',
      severity: 'warning',
      message: `The answer ${shown} differs only in case from the allowed value ${JSON.stringify(folded)}.`,
    });
    return;
  }
  const bare = undecorate(answer);
  const exact = allowed.find((a) => a === bare) ?? allowed.find((a) => a.toLowerCase() === bare.toLowerCase());
  if (exact !== undefined) {
    out.push({
      code: 'decorated-value',
      severity: 'warning',
      message: `The answer ${shown} matches the allowed value ${JSON.stringify(exact)} only after removing quotes, markup or punctuation${exact === bare ? '' : ' and ignoring case'}.`,
    });
    return;
  }
  out.push({
    code: 'not-allowed-value',
    severity: 'error',
    message: `The answer ${shown} is not one of the allowed values (${listOf(allowed)}).`,
  });
}

/** Strips wrapping quotes, backticks, `*`/`_` emphasis and a final period, repeatedly. */
function undecorate(s: string): string {
  let prev: string;
  let cur = s.trim();
  do {
    prev = cur;
    cur = cur.replace(/[.!]+$/, '').trim();
    const m = /^(["'`“‘*_]+)([\s\S]*?)(["'`”’*_]+)$/.exec(cur);
    if (m) cur = m[2].trim();
  } while (cur !== prev);
  return cur;
}

// ---------------------------------------------------------------------------------------------
// code fences and languages

export interface FencedBlock {
  /** The whole info string after the fence. */
  readonly info: string;
  /** First word of the info string, lower-case ('' when none). */
  readonly language: string;
  readonly content: string;
  /** Offset of `content` in the answer. */
  readonly contentOffset: number;
  readonly closed: boolean;
}

/** Fenced code blocks of a Markdown-ish answer (``` or ~~~, three or more; indentation tolerated). */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lineRe = /[^\r\n]*(?:\r\n|\r|\n|$)/g;
  let open: { char: string; len: number; info: string; contentOffset: number } | undefined;
  let m: RegExpExecArray | null;
  while ((m = lineRe.exec(text)) && m[0] !== '') {
    const raw = m[0];
    const line = raw.replace(/[\r\n]+$/, '');
    const start = m.index;
    const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (!open) {
      if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
        open = { char: fence[1][0], len: fence[1].length, info: fence[2].trim(), contentOffset: start + raw.length };
      }
    } else if (fence && fence[1][0] === open.char && fence[1].length >= open.len && fence[2].trim() === '') {
      blocks.push(block(open, text.slice(open.contentOffset, start), true));
      open = undefined;
    }
  }
  if (open) blocks.push(block(open, text.slice(open.contentOffset), false));
  return blocks;
}

function block(open: { info: string; contentOffset: number }, content: string, closed: boolean): FencedBlock {
  return {
    info: open.info,
    language: (open.info.split(/\s+/)[0] ?? '')
      .replace(/^\{?\.?/, '')
      .replace(/\}$/, '')
      .toLowerCase(),
    content,
    contentOffset: open.contentOffset,
    closed,
  };
}

const LANGUAGE_ALIASES: Record<string, string> = {
  py: 'python',
  python3: 'python',
  py3: 'python',
  python2: 'python',
  js: 'javascript',
  node: 'javascript',
  nodejs: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ecmascript: 'javascript',
  ts: 'typescript',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  shellscript: 'shell',
  console: 'shell',
  'c++': 'cpp',
  cxx: 'cpp',
  cc: 'cpp',
  hpp: 'cpp',
  'c#': 'csharp',
  cs: 'csharp',
  'f#': 'fsharp',
  fs: 'fsharp',
  yml: 'yaml',
  golang: 'go',
  rs: 'rust',
  rb: 'ruby',
  kt: 'kotlin',
  kts: 'kotlin',
  ps1: 'powershell',
  pwsh: 'powershell',
  ps: 'powershell',
  md: 'markdown',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  plaintext: 'text',
  plain: 'text',
  postgresql: 'sql',
  postgres: 'sql',
  mysql: 'sql',
  sqlite: 'sql',
  tsql: 'sql',
  plsql: 'sql',
  psql: 'sql',
  'objective-c': 'objc',
  objectivec: 'objc',
  jl: 'julia',
  r: 'r',
  vb: 'vbnet',
  'vb.net': 'vbnet',
  dockerfile: 'docker',
  tf: 'terraform',
  hcl: 'terraform',
};

/** A canonical language name: lower-case, aliases resolved, `python 3`/`python3` → `python`. */
export function canonicalLanguage(name: string): string {
  const n = name.trim().toLowerCase().replace(/\s+/g, '');
  if (LANGUAGE_ALIASES[n]) return LANGUAGE_ALIASES[n];
  const unversioned = n.replace(/[\d.]+$/, '');
  return LANGUAGE_ALIASES[unversioned] ?? (unversioned || n);
}

function checkLanguage(text: string, language: string, out: OutputViolation[]): void {
  const want = canonicalLanguage(language);
  const blocks = fencedBlocks(text);
  if (blocks.length === 0) {
    out.push({
      code: 'missing-fence',
      severity: 'hint',
      message: `The answer has no fenced code block (\`\`\`${language.trim().toLowerCase()} … \`\`\`), so its language (${language}) cannot be confirmed.`,
    });
    return;
  }
  if (blocks.some((b) => b.language && canonicalLanguage(b.language) === want)) return;
  const marked = blocks.filter((b) => b.language);
  if (marked.length === 0) {
    out.push({
      code: 'fence-without-language',
      severity: 'hint',
      message: `The answer's code block${blocks.length > 1 ? 's have' : ' has'} no language in the fence, so the expected language (${language}) cannot be confirmed.`,
    });
    return;
  }
  const first = marked[0];
  const pos = positionAt(text, first.contentOffset);
  out.push({
    code: 'language-mismatch',
    severity: 'warning',
    message: `The code block is marked "${first.language}"${marked.length > 1 ? ` (and ${marked.length - 1} more, none ${language})` : ''}, but the tool expects ${language}.`,
    line: Math.max(1, pos.line - 1),
  });
}

// ---------------------------------------------------------------------------------------------
// formats

interface FormatError {
  readonly message: string;
  /** Offset in the checked text, or a line/column pair (1-based) in it. */
  readonly offset?: number;
  readonly line?: number;
  readonly column?: number;
  readonly code?: OutputViolationCode;
  /** Default `error`. */
  readonly severity?: 'error' | 'warning';
}

type FormatChecker = (content: string) => FormatError[];

interface FormatSpec {
  readonly name: string;
  readonly code: OutputViolationCode;
  readonly fenceNames: readonly string[];
  readonly check: FormatChecker;
  /** Prefer a fenced block over the whole answer (CSV: prose around a fence still "parses"). */
  readonly preferFence: boolean;
}

function formatSpec(format: string): FormatSpec | undefined {
  switch (format.trim().toLowerCase()) {
    case 'json':
      return {
        name: 'JSON',
        code: 'invalid-json',
        fenceNames: ['json', 'json5', 'jsonc'],
        check: jsonErrors,
        preferFence: false,
      };
    case 'xml':
      return { name: 'XML', code: 'invalid-xml', fenceNames: ['xml'], check: xmlErrors, preferFence: false };
    case 'csv':
      return {
        name: 'CSV',
        code: 'invalid-csv',
        fenceNames: ['csv'],
        check: (c) => csvErrors(c, ','),
        preferFence: true,
      };
    case 'tsv':
      return {
        name: 'TSV',
        code: 'invalid-csv',
        fenceNames: ['tsv', 'csv'],
        check: (c) => csvErrors(c, '\t'),
        preferFence: true,
      };
    default:
      return undefined;
  }
}

function checkFormat(text: string, format: string, out: OutputViolation[]): void {
  const spec = formatSpec(format);
  if (!spec) {
    out.push({
      code: 'format-not-checked',
      severity: 'hint',
      message: `Format "${format}" is not checked (JSON, XML, CSV and TSV are).`,
    });
    return;
  }
  const blocks = fencedBlocks(text);
  const named = blocks.filter((b) => spec.fenceNames.includes(b.language));
  const candidate = named.length === 1 ? named[0] : blocks.length === 1 ? blocks[0] : undefined;

  const wholeErrors = spec.preferFence && candidate ? undefined : spec.check(text);
  if (wholeErrors && wholeErrors.length === 0) return;
  if (candidate) {
    const errors = spec.check(candidate.content);
    if (errors.length === 0) {
      out.push({
        code: 'format-in-fence',
        severity: 'hint',
        message: `The ${spec.name} is inside a fenced code block; the answer itself is not bare ${spec.name}.`,
      });
      return;
    }
    report(text, errors, spec, candidate.contentOffset, out, ` (in the fenced block)`);
    return;
  }
  const note = blocks.length > 1 ? ` The answer has ${blocks.length} fenced blocks; one is expected.` : '';
  report(text, wholeErrors ?? spec.check(text), spec, 0, out, '', note);
}

function report(
  text: string,
  errors: FormatError[],
  spec: FormatSpec,
  base: number,
  out: OutputViolation[],
  where: string,
  note = '',
): void {
  const baseLine = positionAt(text, base).line;
  const shown = errors.slice(0, 5);
  for (const e of shown) {
    let line: number | undefined;
    let column: number | undefined;
    if (e.offset !== undefined) {
      ({ line, column } = positionAt(text, base + e.offset));
    } else if (e.line !== undefined) {
      line = baseLine + e.line - 1;
      column =
        e.column === undefined ? undefined : e.line === 1 ? positionAt(text, base).column + e.column - 1 : e.column;
    }
    const at =
      line === undefined ? '' : column === undefined ? ` at line ${line}` : ` at line ${line}, column ${column}`;
    const violation: OutputViolation = {
      code: e.code ?? spec.code,
      severity: e.severity ?? 'error',
      message: `${e.code === 'inconsistent-columns' ? `Inconsistent ${spec.name} columns` : e.severity === 'warning' ? `Suspicious ${spec.name}` : `Invalid ${spec.name}`}${at}${where}: ${e.message}${note}`,
    };
    out.push(
      line === undefined ? violation : column === undefined ? { ...violation, line } : { ...violation, line, column },
    );
  }
  if (errors.length > shown.length) {
    out.push({
      code: shown[shown.length - 1].code ?? spec.code,
      severity: 'error',
      message: `… and ${errors.length - shown.length} more ${spec.name} problem(s).`,
    });
  }
}

/** 1-based line and column of an offset; a CRLF counts as one line break. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

// JSON -----------------------------------------------------------------------------------------

const JSON_ERROR_WORDS: Record<string, string> = {
  InvalidSymbol:
    'unexpected character (JSON allows objects, arrays, double-quoted strings, numbers, true, false and null)',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'property name expected (names need double quotes; no trailing commas)',
  ValueExpected: 'value expected (no trailing commas)',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: 'closing } expected',
  CloseBracketExpected: 'closing ] expected',
  EndOfFileExpected: 'end of input expected: the answer holds more than one JSON value or text after it',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'incomplete number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'control character in a string (escape line breaks and tabs)',
};

function jsonErrors(content: string): FormatError[] {
  const body = content.charCodeAt(0) === 0xfeff ? ` ${content.slice(1)}` : content;
  try {
    JSON.parse(body);
    return [];
  } catch (e) {
    const errors: ParseError[] = [];
    parseJsonc(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    if (errors.length > 0) {
      const first = errors[0];
      const code = printParseErrorCode(first.error);
      return [{ message: JSON_ERROR_WORDS[code] ?? code, offset: first.offset }];
    }
    const message = (e as Error).message;
    const pos = /at position (\d+)/.exec(message);
    return [pos ? { message, offset: Number(pos[1]) } : { message }];
  }
}

// XML ------------------------------------------------------------------------------------------

function xmlErrors(content: string): FormatError[] {
  const result = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (result !== true) {
    const { msg, line, col } = result.err;
    return [{ message: msg, line: line ?? 1, column: col }];
  }
  const structure = xmlStructure(content);
  return structure ? [structure] : [];
}

/**
 * What the validator leaves out of well-formedness: exactly one root element and no text outside it.
 * Runs only on text the validator accepted, so tags are known to be balanced.
 */
function xmlStructure(xml: string): FormatError | undefined {
  const n = xml.length;
  let i = 0;
  let depth = 0;
  let roots = 0;
  const skipTo = (from: number, end: string): number => {
    const k = xml.indexOf(end, from);
    return k < 0 ? n : k + end.length;
  };
  /**
   * The `>` that ends a tag or declaration: quoted values are passed over, and so is a DOCTYPE's
   * internal subset `[ … ]` (outside quotes a `[` occurs in no valid tag, and the text is valid).
   */
  const tagEnd = (from: number): number => {
    let bracket = 0;
    let quote = '';
    let j = from;
    for (; j < n; j++) {
      const c = xml[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '[') bracket++;
      else if (c === ']') bracket--;
      else if (c === '>' && bracket <= 0) break;
    }
    return j;
  };
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (depth === 0) {
      const m = /\S/.exec(xml.slice(i, textEnd));
      if (m && !(i === 0 && m.index === 0 && xml.charCodeAt(0) === 0xfeff))
        return { message: 'text outside the root element', offset: i + m.index };
    }
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      i = skipTo(lt + 4, '-->');
    } else if (xml.startsWith('<![CDATA[', lt)) {
      if (depth === 0) return { message: 'CDATA outside the root element', offset: lt };
      i = skipTo(lt + 9, ']]>');
    } else if (xml.startsWith('<?', lt)) {
      i = skipTo(lt + 2, '?>');
    } else if (xml.startsWith('<!', lt)) {
      i = tagEnd(lt + 2) + 1; // DOCTYPE
    } else if (xml.startsWith('</', lt)) {
      depth--;
      i = skipTo(lt + 2, '>');
    } else {
      const j = tagEnd(lt + 1);
      if (depth === 0 && ++roots > 1)
        return { message: 'more than one root element (XML has exactly one)', offset: lt };
      if (xml[j - 1] !== '/') depth++;
      i = j + 1;
    }
  }
  return roots === 0 ? { message: 'no root element', offset: 0 } : undefined;
}

// CSV ------------------------------------------------------------------------------------------

interface CsvRecordInfo {
  readonly record: string[];
  readonly info: { readonly lines: number };
}

function csvErrors(content: string, delimiter: string): FormatError[] {
  let rows: CsvRecordInfo[];
  try {
    rows = parseCsv(content, {
      bom: true,
      delimiter,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as CsvRecordInfo[];
  } catch (e) {
    const err = e as { message?: string; lines?: number; code?: string };
    const message = err.message ?? String(e); // csv-parse's own text names the problem and the line
    return [err.lines !== undefined ? { message, line: err.lines } : { message }];
  }
  if (rows.length === 0) return [{ message: 'no rows' }];
  const errors: FormatError[] = [];
  const width = rows[0].record.length;
  const headerLine = rows[0].info.lines;
  for (const row of rows.slice(1)) {
    if (row.record.length !== width) {
      errors.push({
        code: 'inconsistent-columns',
        message: `this row has ${row.record.length} field(s), the first row (line ${headerLine}) has ${width}`,
        line: row.info.lines,
      });
    }
  }
  if (errors.length === 0 && width === 1 && delimiter === ',' && rows.length > 1) {
    const other = [';', '\t', '|'].find((d) => rows.every((r) => r.record[0].includes(d)));
    if (other)
      errors.push({
        severity: 'warning',
        message: `every row has a single field but contains ${other === '\t' ? 'tabs' : `"${other}"`}: the data seems to use another delimiter than ","`,
        line: headerLine,
      });
  }
  return errors;
}
