/**
 * Robustness: every feature of the language service, at many offsets, on random, mutated, truncated,
 * deep, huge and oddly encoded documents. No exception may escape, every call must return within a
 * bound, and every range, position and edit the service returns must be usable by an LSP client.
 *
 * Seeds are fixed: a failure prints the seed, the fast-check path and a minimal counterexample.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type {
  Diagnostic,
  DocumentSymbol,
  Position,
  Range,
  SelectionRange,
  TextEdit,
} from 'vscode-languageserver-types';
import {
  getLanguageService,
  type Kind,
  type LanguageService,
  type ToolModel,
} from '../../server/src/service/languageService';
import { isRuleCode } from '../../server/src/service/rules';
import { DEFAULT_SETTINGS, type Settings } from '../../server/src/service/settings';
import type { WorkspaceIndex } from '../../server/src/service/validation/context';
import { collectProblems } from '../../server/src/service/validation/index';
import {
  anyText,
  baseDefinitions,
  DEPTH,
  deepDocuments,
  exampleFiles,
  hugeDocuments,
  insertIntoLiteral,
  isJson,
  mutate,
  mutatedDefinition,
  randomJsonText,
  rng,
  surrogateInString,
  tokenSoup,
  toolishText,
  Progress,
  startWatchdog,
  withBom,
  withCr,
  withCrlf,
} from './generators';

// ---------------------------------------------------------------------------------------------
// Bounds

/** Per call, on documents up to SMALL characters. */
const SMALL_CALL_MS = 200;
/** Per call, on bigger documents (deep nesting, 20 MB). */
const BIG_CALL_MS = 2000;
/** Validation of a 20 MB file. */
const HUGE_VALIDATION_MS = 5000;
const SMALL = 100_000;
/** The watchdog kills the run when one call makes no progress for this long. */
const HANG_MS = 30_000;

/**
 * A call on a deep or huge document (run in a worker) that runs this long is terminated: it is over
 * its bound anyway.
 */
const DEEP_HANG_MS = BIG_CALL_MS + 1000;
const HUGE_HANG_MS = HUGE_VALIDATION_MS + 3000;
/**
 * A worker's stack is 4 MB by default, four times the main thread's, where the language server
 * runs: it would hide stack overflows. This gives it about the main thread's depth.
 */
const WORKER_STACK_MB = 1.15;

const SEED = 20260314;

/** Files up to this size are cut at every length; bigger ones at PREFIX_SAMPLES lengths. */
const EVERY_PREFIX_UP_TO = 1500;
const PREFIX_SAMPLES = 250;

/**
 * The lengths to cut `text` at: all of them for a small file; otherwise every cut next to a
 * character that matters to JSON or templates, sampled, plus uniformly random cuts.
 */
function prefixLengths(text: string, seed: number): number[] {
  if (text.length <= EVERY_PREFIX_UP_TO) return Array.from({ length: text.length + 1 }, (_, n) => n);
  const random = rng(seed);
  const structural: number[] = [];
  for (let i = 0; i < text.length; i++) if ('"\\{}[],:\r\n'.includes(text[i])) structural.push(i, i + 1);
  const cuts = new Set<number>([0, 1, text.length - 1, text.length]);
  while (cuts.size < PREFIX_SAMPLES * 0.7) cuts.add(structural[Math.floor(random() * structural.length)]);
  while (cuts.size < PREFIX_SAMPLES) cuts.add(Math.floor(random() * (text.length + 1)));
  return [...cuts].sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// Violations

interface Violation {
  readonly call: string;
  readonly problem: string;
  readonly label: string;
  readonly text: string;
  readonly offset?: number;
}

function signature(v: Violation): string {
  return `${v.call}: ${v.problem.replace(/\d+(\.\d+)?/g, '#').slice(0, 160)}`;
}

function show(text: string, max = 300): string {
  return text.length <= max ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, max))}… (${text.length} chars)`;
}

/** One entry per distinct (call, problem), with the shortest input that shows it. */
function summarise(violations: readonly Violation[]): string {
  const best = new Map<string, { v: Violation; count: number }>();
  for (const v of violations) {
    const key = signature(v);
    const cur = best.get(key);
    if (!cur) best.set(key, { v, count: 1 });
    else best.set(key, { v: v.text.length < cur.v.text.length ? v : cur.v, count: cur.count + 1 });
  }
  return [...best.values()]
    .map(
      ({ v, count }) =>
        `- ${v.call}${v.offset === undefined ? '' : ` @${v.offset}`}: ${v.problem} [${count}×; ${v.label}]\n    input: ${show(v.text)}`,
    )
    .join('\n');
}

// ---------------------------------------------------------------------------------------------
// Position checks

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Line starts and content ends (before the EOL), with TextDocument's notion of a line break. */
class Lines {
  readonly starts: number[] = [0];
  readonly ends: number[] = [];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0d || c === 0x0a) {
        this.ends.push(i);
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
        this.starts.push(i + 1);
      }
    }
    this.ends.push(text.length);
  }

  /**
   * Why `p` is not a valid UTF-16 position of the text, if it is not. `request` is the position a
   * request was made at: a result may echo it even where it splits a surrogate pair.
   */
  problem(p: Position | undefined, request?: Position): string | undefined {
    if (!p || !Number.isInteger(p.line) || !Number.isInteger(p.character) || p.line < 0 || p.character < 0)
      return `not a position: ${JSON.stringify(p)}`;
    if (p.line >= this.starts.length) return `line ${p.line} beyond the last line ${this.starts.length - 1}`;
    const len = this.ends[p.line] - this.starts[p.line];
    if (p.character > len) return `character ${p.character} beyond the end of line ${p.line} (length ${len})`;
    const o = this.starts[p.line] + p.character;
    if (
      o > 0 &&
      o < this.text.length &&
      isHigh(this.text.charCodeAt(o - 1)) &&
      isLow(this.text.charCodeAt(o)) &&
      !(request && request.line === p.line && request.character === p.character)
    ) {
      return `splits the surrogate pair at offset ${o - 1}`;
    }
    return undefined;
  }
}

/**
 * Valid JSON without its whitespace (and BOM): what formatting must preserve. Linear and without
 * recursion, unlike JSON.stringify, which overflows the stack on 10,000 levels.
 */
function minify(json: string): string {
  const out: string[] = [];
  let from = json.charCodeAt(0) === 0xfeff ? 1 : 0;
  let i = from;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < json.length && json.charCodeAt(i) !== 0x22; i++) if (json.charCodeAt(i) === 0x5c) i++;
      i++;
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      out.push(json.slice(from, i));
      while (i < json.length && ' \t\n\r'.includes(json[i])) i++;
      from = i;
    } else {
      i++;
    }
  }
  out.push(json.slice(from));
  return out.join('');
}

const before_ = (a: Position, b: Position): boolean =>
  a.line < b.line || (a.line === b.line && a.character <= b.character);
const containsPos = (r: Range, p: Position): boolean => before_(r.start, p) && before_(p, r.end);
const containsRange = (outer: Range, inner: Range): boolean =>
  before_(outer.start, inner.start) && before_(inner.end, outer.end);

// ---------------------------------------------------------------------------------------------
// The checker

const WORKSPACE: WorkspaceIndex = {
  toolsNamed: (name, exceptUri) =>
    name === 'tool' || name === 'Summariser'
      ? { shown: [{ uri: exceptUri + '.other', line: 0, character: 0, message: 'also here' }], total: 1 }
      : { shown: [], total: 0 },
};

const RENAMES = [
  'renamed',
  'new name',
  'a"b\\c',
  '\ud800',
  '😀x',
  'x\r\ny',
  '{{x',
  '}}',
  ' ',
  '',
  'text',
  'target language',
  '\ufeff',
];
const FORMAT_OPTIONS = [
  { tabSize: 2, insertSpaces: true },
  { tabSize: 4, insertSpaces: false },
];

interface CheckOptions {
  readonly label: string;
  readonly kind?: Kind;
  readonly uri?: string;
  readonly settings?: Settings;
  /** 'all', or how many offsets to sample (`extraOffsets` are always included). */
  readonly offsets: 'all' | number;
  readonly extraOffsets?: readonly number[];
  /** Per-call bound; by default SMALL_CALL_MS or BIG_CALL_MS by size. */
  readonly limitMs?: number;
  readonly validationLimitMs?: number;
  /** Only parse, validation, its quick fixes and the offsets: no once-per-document features. */
  readonly light?: boolean;
  readonly seed?: number;
  /** Receives the slowest time of each call. */
  readonly timings?: Map<string, number>;
}

/** In a worker: each violation is posted as soon as it is found, so a later hang cannot lose it. */
let onViolation: ((v: Violation) => void) | undefined;

/** Where `check` reports what it is running (for the watchdog, or for the parent of a worker). */
let progress: Progress | undefined;
let watchdog: Worker | undefined;

/** Runs every feature of the service over one document; returns what went wrong. */
function check(text: string, opts: CheckOptions): Violation[] {
  const violations: Violation[] = [];
  const uri = opts.uri ?? 'file:///work/tool.json';
  const doc = TextDocument.create(uri, 'tooldef', 1, text);
  const lines = new Lines(text);
  const service: LanguageService = getLanguageService({
    settings: opts.settings ?? DEFAULT_SETTINGS,
    workspace: WORKSPACE,
  });
  const limit = opts.limitMs ?? (text.length > SMALL ? BIG_CALL_MS : SMALL_CALL_MS);
  const valid = isJson(text);
  const random = rng(opts.seed ?? text.length);
  const label = opts.label + (opts.kind ? ` (forced ${opts.kind})` : '');
  const what = text.length <= 2000 ? show(text, 2000) : `${text.length} chars`;

  progress?.onDocument(`${label}: ${what}`);

  const fail = (call: string, problem: string, offset?: number): void => {
    const v: Violation = { call, problem, label, text, offset };
    violations.push(v);
    onViolation?.(v);
  };

  /** Runs one handler: no exception, within `bound`, and (for LSP results) serialisable. */
  function call<T>(
    name: string,
    offset: number | undefined,
    fn: () => T,
    bound = limit,
    serialise = true,
  ): T | undefined {
    progress?.enter(name, offset);
    const t0 = performance.now();
    let result: T;
    try {
      result = fn();
    } catch (e) {
      const err = e as Error;
      const frames = (err?.stack ?? '')
        .split('\n')
        .slice(1, 4)
        .map((l) => l.trim())
        .join(' | ');
      fail(
        name,
        `threw ${err?.name ?? typeof e}: ${String(err?.message ?? e)
          .split('\n')[0]
          .slice(0, 200)} (${frames})`,
        offset,
      );
      return undefined;
    }
    let ms = performance.now() - t0;
    if (ms > bound) {
      // Over the bound: run it twice more and keep the fastest, so that a busy machine (a GC pause,
      // another process) does not pass for a slow handler.
      const times = [ms];
      for (let i = 0; i < 2 && ms > bound; i++) {
        const t1 = performance.now();
        try {
          fn();
        } catch {
          // reported above if it throws every time
        }
        times.push(performance.now() - t1);
        ms = Math.min(...times);
      }
      if (ms > bound) fail(name, `took ${times.map((x) => x.toFixed(0)).join(' / ')} ms (bound ${bound} ms)`, offset);
    }
    if (opts.timings && ms > (opts.timings.get(name) ?? -1)) opts.timings.set(name, ms);
    if (!serialise) return result;
    try {
      JSON.stringify(result);
    } catch (e) {
      fail(name, `result cannot be sent over LSP: ${String((e as Error).message).slice(0, 120)}`, offset);
    }
    return result;
  }

  /** `offset`: where the request was made (a result range may echo that position). */
  const checkRange = (name: string, r: Range | undefined, offset?: number, what = 'range'): boolean => {
    if (!r) {
      fail(name, `${what} missing`, offset);
      return false;
    }
    const request = offset === undefined ? undefined : doc.positionAt(offset);
    const p = lines.problem(r.start, request) ?? lines.problem(r.end, request);
    if (p) {
      fail(name, `${what} ${p}`, offset);
      return false;
    }
    if (!before_(r.start, r.end)) {
      fail(name, `${what} ends before it starts: ${JSON.stringify(r)}`, offset);
      return false;
    }
    return true;
  };

  /** Edits must be well-formed, non-overlapping, and keep valid JSON valid (when `keepJson`). */
  const checkEdits = (
    name: string,
    edits: TextEdit[],
    offset: number | undefined,
    keepJson: boolean,
    sameValue = false,
  ): void => {
    for (const e of edits) {
      if (typeof e.newText !== 'string') fail(name, 'edit without newText', offset);
      if (!checkRange(name, e.range, offset, 'edit range')) return;
    }
    let out: string;
    try {
      out = TextDocument.applyEdits(doc, edits);
    } catch (e) {
      fail(name, `edits do not apply: ${(e as Error).message}`, offset);
      return;
    }
    if (keepJson && !isJson(out)) {
      fail(name, `turns valid JSON into invalid JSON: ${show(out, 400)}`, offset);
    } else if (sameValue && keepJson && minify(out) !== minify(text)) {
      fail(name, `formatting changed more than whitespace: ${show(out, 400)}`, offset);
    }
  };

  const checkActions = (
    name: string,
    actions: ReturnType<LanguageService['doCodeActions']> | undefined,
    offset: number | undefined,
  ): void => {
    for (const a of actions ?? []) {
      if (typeof a.title !== 'string' || !a.title) fail(name, 'code action without a title', offset);
      const changes = a.edit?.changes ?? {};
      for (const [u, edits] of Object.entries(changes)) {
        if (u !== uri) fail(name, `code action edits another document: ${u}`, offset);
        checkEdits(`${name} → "${a.title.replace(/`[^`]*`|"[^"]*"/g, '…')}"`, edits, offset, valid);
      }
    }
  };

  // parse + validation
  const model = call<ToolModel>(
    'parse',
    undefined,
    () => service.parse(doc, opts.kind),
    opts.validationLimitMs ?? limit,
    false,
  );
  if (!model) return violations;
  const diagnostics =
    call<Diagnostic[]>('doValidation', undefined, () => service.doValidation(model), opts.validationLimitMs ?? limit) ??
    [];
  for (const d of diagnostics) {
    if (!isRuleCode(d.code)) fail('doValidation', `diagnostic code ${JSON.stringify(d.code)} is not a rule code`);
    if (typeof d.message !== 'string' || !d.message.trim()) fail('doValidation', `${String(d.code)}: empty message`);
    if (![1, 2, 3, 4].includes(d.severity as number))
      fail('doValidation', `${String(d.code)}: severity ${String(d.severity)}`);
    checkRange('doValidation', d.range, undefined, `${String(d.code)} range`);
  }
  // The offsets behind the ranges: positionAt clamps, which would hide spans outside the text.
  const problems = opts.light
    ? []
    : (call(
        'collectProblems',
        undefined,
        () => collectProblems(model, service.settings, WORKSPACE).problems,
        opts.validationLimitMs ?? limit,
        false,
      ) ?? []);
  for (const p of problems) {
    // A span may run past the end (a syntax error at the end of the text is one character wide, so
    // that editors show it); it must not start outside the text or be negative.
    if (!(
      Number.isInteger(p.offset) &&
      Number.isInteger(p.length) &&
      p.offset >= 0 &&
      p.length >= 0 &&
      p.offset <= text.length
    )) {
      fail('doValidation', `${p.code} span [${p.offset}, +${p.length}) outside the text (length ${text.length})`);
    }
  }

  // quick fixes of each diagnostic, then of all of them over the whole document
  for (const d of diagnostics)
    checkActions(
      'doCodeActions(diagnostic)',
      call('doCodeActions', undefined, () => service.doCodeActions(model, d.range, [d])),
      undefined,
    );
  const whole: Range = { start: { line: 0, character: 0 }, end: doc.positionAt(text.length) };
  checkActions(
    'doCodeActions(all)',
    call('doCodeActions', undefined, () => service.doCodeActions(model, whole, diagnostics)),
    undefined,
  );

  // per offset
  const offsets = new Set<number>(opts.extraOffsets?.filter((o) => o >= 0 && o <= text.length) ?? []);
  if (opts.offsets === 'all') for (let o = 0; o <= text.length; o++) offsets.add(o);
  else for (let i = 0; i < opts.offsets; i++) offsets.add(Math.floor(random() * (text.length + 1)));
  offsets.add(0);
  offsets.add(text.length);
  const sorted = [...offsets].sort((a, b) => a - b);
  const covering = (p: Position): Diagnostic[] => diagnostics.filter((d) => containsPos(d.range, p));
  let k = 0;
  for (const o of sorted) {
    const pos = doc.positionAt(o);
    // Serialising every result is the costliest check: per offset, one in eight.
    const ser = k % 8 === 0;
    const completion = call('doComplete', o, () => service.doComplete(model, pos), limit, ser);
    for (const item of completion?.items ?? []) {
      if (typeof item.label !== 'string' || !item.label) fail('doComplete', 'item with an empty label', o);
      const te = item.textEdit;
      if (!te) continue;
      const ranges = 'range' in te ? [te.range] : [te.insert, te.replace];
      for (const r of ranges) {
        if (!checkRange('doComplete', r, o, 'textEdit range')) continue;
        if (r.start.line !== r.end.line)
          fail('doComplete', `textEdit range spans lines ${r.start.line}-${r.end.line} (LSP: single line)`, o);
        else if (!containsPos(r, pos))
          fail(
            'doComplete',
            `textEdit range ${JSON.stringify(r)} does not contain the position ${JSON.stringify(pos)}`,
            o,
          );
      }
    }
    const hover = call('doHover', o, () => service.doHover(model, pos), limit, ser);
    if (hover) {
      const c = hover.contents as { value?: string };
      if (typeof c?.value !== 'string' || !c.value) fail('doHover', 'empty hover', o);
      if (hover.range) checkRange('doHover', hover.range, o);
    }
    for (const loc of call('findDefinition', o, () => service.findDefinition(model, pos), limit, ser) ?? []) {
      if (loc.uri !== uri) fail('findDefinition', `other uri ${loc.uri}`, o);
      checkRange('findDefinition', loc.range, o);
    }
    for (const loc of call('findReferences', o, () => service.findReferences(model, pos, k % 2 === 0), limit, ser) ??
      []) {
      if (loc.uri !== uri) fail('findReferences', `other uri ${loc.uri}`, o);
      checkRange('findReferences', loc.range, o);
    }
    for (const h of call('findDocumentHighlights', o, () => service.findDocumentHighlights(model, pos), limit, ser) ??
      [])
      checkRange('findDocumentHighlights', h.range, o);
    const prep = call('prepareRename', o, () => service.prepareRename(model, pos), limit, ser);
    if (prep) {
      if (typeof prep.placeholder !== 'string') fail('prepareRename', 'no placeholder', o);
      if (checkRange('prepareRename', prep.range, o) && !containsPos(prep.range, pos))
        fail(
          'prepareRename',
          `range ${JSON.stringify(prep.range)} does not contain the position ${JSON.stringify(pos)}`,
          o,
        );
    }
    const newName = RENAMES[k % RENAMES.length];
    const renamed = call('doRename', o, () => service.doRename(model, pos, newName), limit, ser);
    if (renamed && 'error' in renamed) {
      if (typeof renamed.error !== 'string' || !renamed.error) fail('doRename', 'empty error', o);
    } else if (renamed) {
      if (!prep) fail('doRename', 'renames where prepareRename refused', o);
      for (const [u, edits] of Object.entries(renamed.edit.changes ?? {})) {
        if (u !== uri) fail('doRename', `edits another document: ${u}`, o);
        checkEdits(`doRename(${JSON.stringify(newName)})`, edits, o, valid);
      }
    }
    const here = covering(pos);
    checkActions(
      'doCodeActions(cursor)',
      call(
        'doCodeActions',
        o,
        () => service.doCodeActions(model, { start: pos, end: pos }, k % 50 === 0 ? diagnostics : here),
        limit,
        ser,
      ),
      o,
    );
    k++;
  }

  // random ranges for code actions
  for (let i = 0; i < 3; i++) {
    const a = Math.floor(random() * (text.length + 1));
    const b = a + Math.floor(random() * (text.length + 1 - a));
    checkActions(
      'doCodeActions(range)',
      call('doCodeActions', a, () =>
        service.doCodeActions(model, { start: doc.positionAt(a), end: doc.positionAt(b) }, diagnostics),
      ),
      a,
    );
  }

  // positions a client might send past the text
  const beyond: Position[] = [
    { line: lines.starts.length + 3, character: 0 },
    { line: 0, character: 1_000_000 },
    { line: lines.starts.length - 1, character: 1_000_000 },
  ];
  for (const p of beyond) {
    call('doComplete', undefined, () => service.doComplete(model, p));
    call('doHover', undefined, () => service.doHover(model, p));
    call('prepareRename', undefined, () => service.prepareRename(model, p));
  }

  // selection ranges, in batches
  const positions = [...sorted.map((o) => doc.positionAt(o))];
  for (let i = 0; i < positions.length; i += 500) {
    const batch = positions.slice(i, i + 500);
    const result = call<SelectionRange[]>('getSelectionRanges', sorted[i], () =>
      service.getSelectionRanges(model, batch),
    );
    if (!result) continue;
    if (result.length !== batch.length)
      fail('getSelectionRanges', `${result.length} results for ${batch.length} positions`, sorted[i]);
    result.forEach((sel, j) => {
      const o = sorted[i + j];
      if (!sel || !checkRange('getSelectionRanges', sel.range, o)) return;
      if (!containsPos(sel.range, batch[j]))
        fail(
          'getSelectionRanges',
          `innermost range ${JSON.stringify(sel.range)} does not contain the position ${JSON.stringify(batch[j])}`,
          o,
        );
      let depth = 0;
      for (let s: SelectionRange | undefined = sel; s?.parent; s = s.parent) {
        if (++depth > 1000) {
          fail('getSelectionRanges', 'chain longer than 1000', o);
          break;
        }
        if (!checkRange('getSelectionRanges', s.parent.range, o, 'parent range')) break;
        if (!containsRange(s.parent.range, s.range)) {
          fail(
            'getSelectionRanges',
            `parent ${JSON.stringify(s.parent.range)} does not contain child ${JSON.stringify(s.range)}`,
            o,
          );
          break;
        }
      }
    });
  }
  // Whole-document features last: formatting is the likeliest to blow up on a pathological document.
  if (!opts.light) {
    const symbols = call('findDocumentSymbols', undefined, () => service.findDocumentSymbols(model)) ?? [];
    const todo: DocumentSymbol[] = [...symbols];
    let count = 0;
    while (todo.length) {
      const s = todo.pop()!;
      if (++count > 100_000) {
        fail('findDocumentSymbols', 'more than 100,000 symbols');
        break;
      }
      if (typeof s.name !== 'string' || !s.name)
        fail('findDocumentSymbols', `symbol with an empty name (kind ${s.kind})`);
      if (
        checkRange('findDocumentSymbols', s.range) &&
        checkRange('findDocumentSymbols', s.selectionRange, undefined, 'selectionRange') &&
        !containsRange(s.range, s.selectionRange)
      ) {
        fail(
          'findDocumentSymbols',
          `selectionRange ${JSON.stringify(s.selectionRange)} not inside range ${JSON.stringify(s.range)}`,
        );
      }
      todo.push(...(s.children ?? []));
    }
    for (const f of call('getFoldingRanges', undefined, () => service.getFoldingRanges(model)) ?? []) {
      if (!(
        Number.isInteger(f.startLine) &&
        f.startLine >= 0 &&
        f.startLine <= f.endLine &&
        f.endLine < lines.starts.length
      ))
        fail('getFoldingRanges', `bad folding range ${JSON.stringify(f)}`);
    }
    // One set of options and no range on big documents: formatting 20 MB takes about a second, with or without a range.
    const big = text.length > SMALL;
    for (const [i, o] of FORMAT_OPTIONS.slice(0, big ? 1 : undefined).entries()) {
      const edits = call('format', undefined, () => service.format(model, undefined, o));
      if (edits) checkEdits('format(document)', edits, undefined, valid, true);
      if (big) continue;
      const a = Math.floor(random() * (text.length + 1));
      const b = i === 0 ? a + Math.floor(random() * (text.length + 1 - a)) : text.length;
      const range = { start: doc.positionAt(a), end: doc.positionAt(b) };
      const partial = call('format', a, () => service.format(model, range, o));
      if (partial) checkEdits('format(range)', partial, a, valid, true);
    }
  }

  return violations;
}

function assertClean(violations: readonly Violation[], what: string): void {
  if (violations.length) assert.fail(`${violations.length} violation(s) on ${what}:\n${summarise(violations)}`);
}

/** A fast-check property over documents: any violation fails it (and is shrunk). */
function property<T>(arb: fc.Arbitrary<T>, toCheck: (v: T) => { text: string; opts: CheckOptions }) {
  return fc.property(arb, (v) => {
    const { text, opts } = toCheck(v);
    const violations = check(text, opts);
    if (violations.length) throw new Error(summarise(violations));
  });
}

const settingsVariants: Settings[] = [
  DEFAULT_SETTINGS,
  { knownModels: [], rules: {} },
  { knownModels: ['gpt-4'], rules: { 'json-syntax': 'off', 'unknown-field': 'hint', 'file-name-mismatch': 'off' } },
];
const kindArb = fc.constantFrom<Kind | undefined>(undefined, undefined, 'llm', 'smart');
const uriArb = fc.constantFrom(
  'file:///work/tool.json',
  'untitled:Untitled-1',
  'file:///work/%E2%82%AC%zz.json',
  'file:///work/x.JSON',
);

// ---------------------------------------------------------------------------------------------
// Deep and huge documents run in a worker: a hang or a crash there is terminated and reported as a
// failure of that document, instead of taking the whole run down.

interface WorkerJob {
  readonly robustness: true;
  readonly set: 'deep' | 'huge';
  readonly index: number;
  readonly sab: SharedArrayBuffer;
}

interface WorkerResult {
  readonly violations: Violation[];
  readonly notes: string[];
}

type WorkerMessage = { readonly violation: Violation } | { readonly notes: string[] };

/** Violations cross the thread boundary without their 20 MB inputs. */
const portable = (v: Violation): Violation =>
  v.text.length > 4000 ? { ...v, text: v.text.slice(0, 2000) + `… (${v.text.length} chars in all)` } : v;

function runJob(job: WorkerJob): void {
  progress = new Progress(job.sab);
  onViolation = (v) => parentPort!.postMessage({ violation: portable(v) } satisfies WorkerMessage);
  const timings = new Map<string, number>();
  const notes: string[] = [];
  if (job.set === 'deep') {
    const d = deepDocuments()[job.index];
    // Pathological documents: the bound for big ones applies, whatever their size.
    check(d.text, {
      label: d.name,
      kind: d.kind,
      offsets: 60,
      extraOffsets: [1, 2, 5000, d.text.length - 1],
      limitMs: BIG_CALL_MS,
      timings,
    });
  } else {
    const d = hugeDocuments()[job.index];
    const text = d.build();
    check(text, {
      label: d.name,
      offsets: 8,
      extraOffsets: [10, 200, 1000, text.length - 100],
      limitMs: BIG_CALL_MS,
      validationLimitMs: HUGE_VALIDATION_MS,
      timings,
    });
    notes.push(
      `${(text.length / 1024 / 1024).toFixed(1)} MB: parse ${timings.get('parse')?.toFixed(0)} ms, doValidation ${timings.get('doValidation')?.toFixed(0)} ms`,
    );
  }
  const slowest = [...timings].sort((a, b) => b[1] - a[1]).slice(0, 4);
  notes.push(`slowest calls: ${slowest.map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join(', ')}`);
  parentPort!.postMessage({ notes } satisfies WorkerMessage);
}

/**
 * Runs one job in a worker thread. A call that makes no progress for `hangMs` (beyond its own bound)
 * is terminated and reported; violations found before it are kept.
 */
function inWorker(set: WorkerJob['set'], index: number, name: string, hangMs: number): Promise<WorkerResult> {
  const watch = new Progress();
  const job: WorkerJob = { robustness: true, set, index, sab: watch.sab };
  const violations: Violation[] = [];
  return new Promise((resolve) => {
    const worker = new Worker(__filename, {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 2048, stackSizeMb: WORKER_STACK_MB },
      execArgv: [],
    });
    let settled = false;
    const done = (notes: string[], problem?: string): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      void worker.terminate();
      if (problem)
        violations.push({
          call: watch.describe().replace(/ (at offset|on) .*/s, ''),
          problem,
          label: name,
          text: `(${set}Documents()[${index}] in test/fuzz/generators.ts)`,
        });
      resolve({ violations, notes });
    };
    let last = -1;
    let since = Date.now();
    const timer = setInterval(() => {
      const now = watch.counter();
      if (now !== last) {
        last = now;
        since = Date.now();
      } else if (Date.now() - since > hangMs) {
        done([], `no result within ${hangMs / 1000} s, terminated (was running ${watch.describe()})`);
      }
    }, 50);
    worker.on('message', (m: WorkerMessage) => ('violation' in m ? violations.push(m.violation) : done(m.notes)));
    worker.on('error', (e) => {
      const frames = (e.stack ?? '')
        .split('\n')
        .slice(1, 3)
        .map((l) => l.trim())
        .join(' | ');
      done(
        [],
        `crashed the worker: ${e.name}: ${e.message.split('\n')[0]} (last call started: ${watch.describe()}; ${frames})`,
      );
    });
    worker.on('exit', (code) => done([], `worker exited with code ${code} (was running ${watch.describe()})`));
  });
}

/** Runs jobs two at a time (the machine has two cores). */
async function inWorkers<T>(items: readonly T[], run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) await run(items[i], i);
  };
  await Promise.all([lane(), lane()]);
}

const job = workerData as WorkerJob | undefined;
if (!isMainThread && job?.robustness) {
  runJob(job);
} else {
  describe('robustness: every handler survives any input', { concurrency: false }, () => {
    const examples = exampleFiles();
    const bases = baseDefinitions();

    before(() => {
      progress = new Progress();
      progress.idle(true);
      watchdog = startWatchdog(progress, HANG_MS);
    });
    after(() => void watchdog?.terminate());

    const timed = (t: TestContext, name: string, fn: () => void): void => {
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      progress?.idle(false);
      try {
        fn();
      } finally {
        progress?.idle(true);
        const cpu = process.cpuUsage(cpu0);
        t.diagnostic(
          `${name}: ${(performance.now() - t0).toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`,
        );
      }
    };

    it('examples: every offset, as written, with CRLF, with CR, with a BOM, with BOM+CRLF', (t) => {
      assert.ok(examples.length >= 20, 'examples/ found');
      timed(t, 'examples', () => {
        const violations: Violation[] = [];
        for (const ex of examples) {
          const variants: [string, string][] = [
            ['as written', ex.text],
            ['CRLF', withCrlf(ex.text)],
            ['CR', withCr(ex.text)],
            ['BOM', withBom(ex.text)],
            ['BOM+CRLF', withBom(withCrlf(ex.text))],
          ];
          for (const [v, text] of variants) {
            violations.push(
              ...check(text, {
                label: `${ex.name} ${v}`,
                uri: `file:///work/examples/${ex.name}`,
                offsets: v === 'as written' || v === 'BOM+CRLF' ? 'all' : 400,
              }),
            );
          }
        }
        assertClean(violations, 'the examples');
      });
    });

    it('examples: every prefix of the small ones, sampled prefixes of the others (truncated files, detected and forced kind)', (t) => {
      timed(t, 'prefixes', () => {
        const violations: Violation[] = [];
        let count = 0;
        for (const [fileIndex, ex] of examples.entries()) {
          const kind: Kind | undefined = ex.name.startsWith('llm/')
            ? 'llm'
            : ex.name.startsWith('smart/')
              ? 'smart'
              : /"model_prompt"/.test(ex.text)
                ? 'llm'
                : /"tool_(code|name)"/.test(ex.text)
                  ? 'smart'
                  : undefined;
          const text = ex.name.startsWith('smart/') ? withCrlf(ex.text) : ex.text;
          const cuts = prefixLengths(text, fileIndex);
          count += cuts.length;
          for (const n of cuts) {
            const prefix = text.slice(0, n);
            // Every prefix gets validation, its quick fixes and every feature at the end (where typing
            // happens) and just before it; every 8th also random offsets and the whole-document features.
            violations.push(
              ...check(prefix, {
                label: `${ex.name} prefix ${n}`,
                uri: `file:///work/examples/${ex.name}`,
                kind: n % 2 ? kind : undefined,
                offsets: n % 8 === 0 ? 8 : 0,
                extraOffsets: [n - 1, n],
                light: n % 8 !== 0,
                seed: n,
              }),
            );
          }
        }
        t.diagnostic(`${count} prefixes of ${examples.length} files`);
        assertClean(violations, 'the prefixes of the examples');
      });
    });

    it('random JSON values', (t) => {
      timed(t, 'random JSON', () =>
        fc.assert(
          property(
            fc.tuple(randomJsonText, kindArb, fc.constantFrom(...settingsVariants)),
            ([text, kind, settings]) => ({ text, opts: { label: 'random JSON', kind, settings, offsets: 'all' } }),
          ),
          { seed: SEED, numRuns: 150, includeErrorInReport: true },
        ),
      );
    });

    it('tool-shaped JSON with random, wrong and good values', (t) => {
      timed(t, 'toolish JSON', () =>
        fc.assert(
          property(
            fc.tuple(toolishText, kindArb, uriArb, fc.constantFrom(...settingsVariants)),
            ([text, kind, uri, settings]) => ({
              text,
              opts: { label: 'tool-shaped JSON', kind, uri, settings, offsets: text.length < 800 ? 'all' : 200 },
            }),
          ),
          { includeErrorInReport: true, seed: SEED + 1, numRuns: 200 },
        ),
      );
    });

    it('token soup: near-JSON made of quotes, escapes, brackets, braces, surrogates and line breaks', (t) => {
      timed(t, 'token soup', () =>
        fc.assert(
          property(fc.tuple(tokenSoup, kindArb), ([text, kind]) => ({
            text,
            opts: { label: 'token soup', kind, offsets: 'all' },
          })),
          { includeErrorInReport: true, seed: SEED + 2, numRuns: 400 },
        ),
      );
    });

    it('arbitrary strings, code unit by code unit', (t) => {
      timed(t, 'arbitrary strings', () =>
        fc.assert(
          property(fc.tuple(anyText, kindArb), ([text, kind]) => ({
            text,
            opts: { label: 'arbitrary string', kind, offsets: 'all' },
          })),
          { includeErrorInReport: true, seed: SEED + 3, numRuns: 300 },
        ),
      );
    });

    it('mutated valid definitions (insert / delete / replace of JSON and template tokens)', (t) => {
      timed(t, 'mutations', () =>
        fc.assert(
          property(fc.tuple(mutatedDefinition(bases), kindArb), ([m, kind]) => {
            const base = m.crlf ? withCrlf(bases[m.base]) : bases[m.base];
            const { text, touched } = mutate(base, m.mutations);
            const near = touched.flatMap((o) => [o - 2, o - 1, o, o + 1, o + 2, o + 3]);
            return {
              text,
              opts: { label: `definition ${m.base} mutated`, kind, offsets: 60, extraOffsets: near, seed: m.base },
            };
          }),
          { includeErrorInReport: true, seed: SEED + 4, numRuns: 250 },
        ),
      );
    });

    it('lone surrogates inside strings and keys (raw and escaped)', (t) => {
      timed(t, 'lone surrogates', () =>
        fc.assert(
          property(fc.tuple(surrogateInString(bases), fc.boolean()), ([s, crlf]) => {
            const base = crlf ? withCrlf(bases[s.base]) : bases[s.base];
            const text = insertIntoLiteral(base, s.literal, s.at, s.surrogate);
            const at = text.indexOf(s.surrogate);
            return {
              text,
              opts: {
                label: `definition ${s.base} with ${JSON.stringify(s.surrogate)}`,
                offsets: 40,
                extraOffsets: [at - 1, at, at + 1, at + 2, at + s.surrogate.length],
                seed: s.base,
              },
            };
          }),
          { includeErrorInReport: true, seed: SEED + 5, numRuns: 200 },
        ),
      );
    });

    it('lone surrogates and BOM in every string of a definition, every offset', (t) => {
      timed(t, 'surrogates everywhere', () => {
        const violations: Violation[] = [];
        const quoteEvery = (text: string, s: string): string =>
          text.replace(/"((?:[^"\\]|\\.)*)"/g, (_m, inner: string) => `"${inner}${s}"`);
        for (const [i, base] of [bases[bases.length - 2], bases[bases.length - 1]].entries()) {
          for (const s of ['\ud800', '\udfff', '\\ud800', '\\udc00x', '😀', '\ud83d']) {
            violations.push(
              ...check(withBom(quoteEvery(base, s)), {
                label: `fixture ${i}, ${JSON.stringify(s)} at the end of every string, BOM`,
                offsets: 'all',
              }),
            );
          }
        }
        assertClean(violations, 'definitions full of surrogates');
      });
    });

    it(`deep nesting: ${DEPTH} levels of [ and {"a":, closed and unclosed (each document in a worker)`, async (t) => {
      const violations: Violation[] = [];
      const t0 = performance.now();
      await inWorkers(deepDocuments(), async (d, i) => {
        const t1 = performance.now();
        const r = await inWorker('deep', i, d.name, DEEP_HANG_MS);
        violations.push(...r.violations);
        t.diagnostic(
          `${d.name} (${d.text.length} chars): ${(performance.now() - t1).toFixed(0)} ms; ${r.notes.join('; ')}`,
        );
      });
      t.diagnostic(`deep nesting: ${(performance.now() - t0).toFixed(0)} ms`);
      assertClean(violations, 'deeply nested documents');
    });

    it('20 MB files: validation within 5 s, every other call within 2 s (each document in a worker)', async (t) => {
      const violations: Violation[] = [];
      const t0 = performance.now();
      for (const [i, d] of hugeDocuments().entries()) {
        const t1 = performance.now();
        const r = await inWorker('huge', i, d.name, HUGE_HANG_MS);
        violations.push(...r.violations);
        for (const n of r.notes) t.diagnostic(`${d.name}: ${n}`);
        t.diagnostic(`${d.name}: ${(performance.now() - t1).toFixed(0)} ms in all`);
      }
      t.diagnostic(`20 MB: ${(performance.now() - t0).toFixed(0)} ms`);
      assertClean(violations, '20 MB documents');
    });
  });
}
