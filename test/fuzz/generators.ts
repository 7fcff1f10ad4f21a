/**
 * Inputs for the robustness suite: example files, fast-check arbitraries of random and mutated
 * definition files, the deep / huge / odd-encoding documents, and a hang watchdog.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { llmTool, smartTool } from '../helpers';

// ---------------------------------------------------------------------------------------------
// Examples

export interface ExampleFile {
  /** Forward-slash path relative to examples/. */
  readonly name: string;
  readonly text: string;
}

export function exampleFiles(dir = 'examples'): ExampleFile[] {
  const out: ExampleFile[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.json'))
        out.push({ name: relative(dir, p).split('\\').join('/'), text: readFileSync(p, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

/** Valid definitions to mutate: the examples plus the test fixtures. */
export function baseDefinitions(): string[] {
  return [...exampleFiles().map((e) => e.text), llmTool(), smartTool()];
}

// ---------------------------------------------------------------------------------------------
// Text variants

export const withCrlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');
export const withCr = (text: string): string => text.replace(/\r?\n/g, '\r');
export const withBom = (text: string): string => '\ufeff' + text;

/** True when `text` (a leading BOM allowed) is strict JSON. */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Deterministic PRNG for sampling outside fast-check

export { mulberry32 as rng } from '../random';

// ---------------------------------------------------------------------------------------------
// Arbitraries

/** Characters and fragments that matter to JSON, to placeholders, to escapes and to positions. */
export const TOKENS = [
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  ',',
  ':',
  '{{',
  '}}',
  '\\u',
  '\\u00',
  '\\ud83d',
  '\\ude00',
  '\\ud800',
  '\\"',
  '\\\\',
  '\ud800',
  '\udc00',
  '\ud83d',
  '\ude00',
  '😀',
  '\r',
  '\n',
  '\r\n',
  '\t',
  ' ',
  '\ufeff',
  '\u2028',
  '\u0000',
  '/*',
  '*/',
  '//',
  'true',
  'null',
  '-',
  '0',
  '1e9',
  '.5',
  'é',
  '"model_prompt"',
  '"metadata"',
  '"tool_code"',
  '"tool_name"',
  '"variables"',
  '"name"',
  '"default"',
  '"allowed_values"',
  '"type"',
  '"avatar"',
  '"avatar_type"',
  '"timestamp"',
  '"model_version"',
  '"expected_output"',
  '"parameters"',
  '"version"',
  '"multi-select"',
  '"single-select"',
  '"limited"',
  '"url"',
  '"base64"',
] as const;

/**
 * Any code point, lone surrogates included. (fast-check's `unit: 'binary'` would do, but building it
 * costs seconds.)
 */
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
const binaryString = (maxLength: number): fc.Arbitrary<string> =>
  fc.array(codePoint, { maxLength }).map((a) => a.join(''));

/** A lone surrogate, raw or written as a JSON escape. */
export const loneSurrogate = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => `\\u${c.toString(16)}`),
);

/** Strings with every kind of UTF-16 trouble: lone surrogates, pairs, line breaks, controls. */
export const nastyString = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ maxLength: 6 }) },
      { weight: 2, arbitrary: binaryString(4) },
      { weight: 2, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '{{',
          '}}',
          '{{ a }}',
          '{{text}}',
          '{{name}}',
          '\r\n',
          '\n',
          '\r',
          '"',
          '\\',
          '😀',
          '\ufeff',
          '\u2028',
        ),
      },
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

/** A random JSON document: any JSON value, pretty-printed or not, CRLF or not. */
export const randomJsonText = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 1, 2, '\t'), fc.boolean())
  .map(([v, indent, crlf]) => {
    const text = JSON.stringify(v, null, indent) ?? 'null';
    return crlf ? withCrlf(text) : text;
  });

const modelId = fc.oneof(fc.constantFrom('gpt-4', 'gpt-3.5', 'claude', 'chat-bison', '', 'gpt-4o'), nastyString);
const fieldValue = (good: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: good },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    { weight: 1, arbitrary: nastyString },
  );

const variableName = fc.oneof(
  fc.constantFrom('text', 'name', 'target language', ' text ', '', 'a}}b', 'x{{y'),
  nastyString,
);
const variable = fc.record(
  {
    name: fieldValue(variableName),
    type: fieldValue(fc.constantFrom('text', 'single-select', 'multi-select', 'dropdown')),
    description: fieldValue(fc.string({ maxLength: 10 })),
    default: fieldValue(fc.oneof(variableName, fc.array(variableName, { maxLength: 3 }))),
    allowed_values: fieldValue(fc.array(variableName, { maxLength: 4 })),
  },
  { requiredKeys: [] },
);
const prompt = fc
  .array(
    fc.oneof(
      nastyString,
      variableName.map((n) => `{{${n}}}`),
      fc.constantFrom('{{', '}}', '{{}}', '{{{x}}}'),
    ),
    { maxLength: 8 },
  )
  .map((p) => p.join(''));
const tinyPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const metadata = fc.record(
  {
    tool_name: fieldValue(fc.constantFrom('tool', 'x', '')),
    tool_code: fieldValue(
      fc.constantFrom('def execute(variables):\n    return variables["name"]\n', 'import yaml\n', ''),
    ),
    prompt_name: fieldValue(fc.string({ maxLength: 8 })),
    description: fieldValue(fc.string({ maxLength: 8 })),
    model_version: fieldValue(fc.oneof(modelId, fc.array(modelId, { maxLength: 3 }))),
    creator: fieldValue(
      fc.record(
        {
          name: fc.string({ maxLength: 5 }),
          email: fc.oneof(fc.constantFrom('<EMAIL>', 'a@b.c', 'ann at acme'), nastyString),
        },
        { requiredKeys: [] },
      ),
    ),
    parameters: fieldValue(
      fc.dictionary(
        fc.constantFrom('temperature', 'top_p', 'max_tokens', 'presence_penalty', 'frequency_penalty', 'seed'),
        fc.oneof(fc.double(), fc.integer(), fc.string()),
      ),
    ),
    variables: fieldValue(fc.array(variable, { maxLength: 4 })),
    expected_output: fieldValue(
      fc.record(
        {
          type: fc.constantFrom('text', 'code', 'limited', 'json'),
          language: fc.string({ maxLength: 4 }),
          allowed_values: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        },
        { requiredKeys: [] },
      ),
    ),
    avatar_type: fieldValue(fc.constantFrom('base64', 'url', 'svg')),
    avatar: fieldValue(
      fc.oneof(
        fc.constantFrom(
          '',
          tinyPng,
          'https://example.com/a.png',
          'data:image/png;base64,' + tinyPng,
          'AAAA',
          'not base64',
          'www.x',
        ),
        fc.record({ avatar_type: fc.constantFrom('url', 'base64'), avatar: fc.constantFrom('', tinyPng) }),
      ),
    ),
    timestamp: fieldValue(fc.constantFrom('2026-03-14T09:30:00Z', 'yesterday', '2026-02-30T00:00:00Z', '')),
    requirements: fieldValue(fc.constantFrom('', 'requests\n', 'PyYAML>=6.0\nrequests\nrequests')),
    model_prompt: fieldValue(prompt),
  },
  { requiredKeys: [] },
);

/** A tool-shaped document: the format's field names with good, wrong and random values. */
export const toolishText = fc
  .tuple(
    fc.record(
      {
        version: fieldValue(fc.constantFrom('1.0', 1, -1, 'v1-beta')),
        model_prompt: fieldValue(prompt),
        metadata: fieldValue(metadata),
        tool_code: fieldValue(fc.constant('def execute(variables):\n    return ""\n')),
        temperature: fc.double(),
      },
      { requiredKeys: [] },
    ),
    fc.constantFrom(0, 2, '\t'),
    fc.boolean(),
  )
  .map(([v, indent, crlf]) => {
    const text = JSON.stringify(v, null, indent);
    return crlf ? withCrlf(text) : text;
  });

/** A soup of JSON-significant tokens: mostly invalid JSON that is close to valid. */
export const tokenSoup = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...TOKENS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
    ),
    { maxLength: 60 },
  )
  .map((t) => t.join(''));

/** Any string at all, code unit by code unit (lone surrogates included). */
export const anyText = fc.oneof(
  binaryString(120),
  fc
    .array(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      { maxLength: 80 },
    )
    .map((a) => a.join('')),
);

export interface Mutation {
  readonly op: 'insert' | 'delete' | 'replace';
  /** Where, as a fraction of the current text length. */
  readonly at: number;
  readonly token: string;
  /** Characters removed by delete/replace. */
  readonly span: number;
}

export const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom('insert', 'delete', 'replace') as fc.Arbitrary<Mutation['op']>,
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  token: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...TOKENS) },
    { weight: 1, arbitrary: loneSurrogate },
    { weight: 1, arbitrary: binaryString(3) },
  ),
  span: fc.integer({ min: 1, max: 4 }),
});

/** Applies mutations in order; returns the new text and the offsets where it changed. */
export function mutate(text: string, mutations: readonly Mutation[]): { text: string; touched: number[] } {
  const touched: number[] = [];
  for (const m of mutations) {
    const at = Math.floor(m.at * (text.length + 1));
    if (m.op === 'insert') text = text.slice(0, at) + m.token + text.slice(at);
    else if (m.op === 'delete') text = text.slice(0, at) + text.slice(at + m.span);
    else text = text.slice(0, at) + m.token + text.slice(at + m.span);
    touched.push(at);
  }
  return { text, touched };
}

/** A valid definition (example or fixture) with 1–8 random edits; `touched` are the edited offsets. */
export function mutatedDefinition(
  bases: readonly string[],
): fc.Arbitrary<{ base: number; crlf: boolean; mutations: Mutation[] }> {
  return fc.record({
    base: fc.integer({ min: 0, max: bases.length - 1 }),
    crlf: fc.boolean(),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 8 }),
  });
}

/** A lone surrogate placed inside a string literal or a key of a valid definition. */
export function surrogateInString(
  bases: readonly string[],
): fc.Arbitrary<{ base: number; literal: number; at: number; surrogate: string }> {
  return fc.record({
    base: fc.integer({ min: 0, max: bases.length - 1 }),
    literal: fc.nat(),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    surrogate: loneSurrogate,
  });
}

/** Content offsets [start, end) of every string literal (keys included) of a valid JSON text. */
export function stringLiterals(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '"') continue;
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
    out.push([i + 1, j]);
    i = j;
  }
  return out;
}

/** Inserts `s` into string literal `literal` (modulo their number) at fraction `at`, never splitting an escape. */
export function insertIntoLiteral(text: string, literal: number, at: number, s: string): string {
  const lits = stringLiterals(text);
  const [start, end] = lits[literal % lits.length];
  let pos = start + Math.floor(at * (end - start));
  // step back to the start of an escape when `pos` is inside one
  for (let k = start; k < pos;) {
    const w = text[k] === '\\' ? (text[k + 1] === 'u' ? 6 : 2) : 1;
    if (k + w > pos) {
      pos = k;
      break;
    }
    k += w;
  }
  return text.slice(0, pos) + s + text.slice(pos);
}

// ---------------------------------------------------------------------------------------------
// Deep and huge documents

export const DEPTH = 10_000;

export function deepDocuments(): { name: string; text: string; kind?: 'llm' | 'smart' }[] {
  const n = DEPTH;
  const inDefault = (inner: string): string =>
    `{"version": "1.0", "model_prompt": "{{a}}", "metadata": {"variables": [{"name": "a", "default": ${inner}}]}}`;
  return [
    // Formatting indents 2 spaces or 1 tab per level: 201 levels pass 200 spaces and 200 tabs.
    { name: '201 [ closed (formatting indentation)', text: '['.repeat(201) + ']'.repeat(201) },
    { name: `${n} [ closed`, text: '['.repeat(n) + ']'.repeat(n) },
    { name: `${n} [ unclosed`, text: '['.repeat(n) },
    { name: `${n} {"a": closed`, text: '{"a":'.repeat(n) + '1' + '}'.repeat(n) },
    { name: `${n} {"a": unclosed`, text: '{"a":'.repeat(n) },
    { name: `${n} {"a": unclosed, forced llm`, text: '{"a":'.repeat(n), kind: 'llm' },
    { name: `${n} [ closed, one per line (CRLF)`, text: '[\r\n'.repeat(n) + ']\r\n'.repeat(n) },
    { name: `${n} [ in a variable default, closed`, text: inDefault('['.repeat(n) + ']'.repeat(n)) },
    { name: `${n} [ in a variable default, unclosed`, text: inDefault('['.repeat(n)) },
    {
      name: `${n} {"a": as the metadata, closed`,
      text: `{"model_prompt": "x", "metadata": ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`,
    },
    {
      name: `${n} [ in a smart tool's variables, closed`,
      text: `{"metadata": {"tool_name": "tool", "variables": ${'['.repeat(n)}${']'.repeat(n)}}}`,
    },
    // Invalid documents whose nesting hides from a bracket counter that does not tokenise like the parser.
    { name: `${n} [ after ] inside a block comment`, text: '/*' + ']'.repeat(n) + '*/' + '['.repeat(n) },
    { name: `${n} {"a": after } inside a line comment`, text: '//' + '}'.repeat(n) + '\n' + '{"a":'.repeat(n) },
    { name: `${n} [ after a string broken by a line break`, text: '[\n"\n' + '['.repeat(n) },
    // The parser stops after the first value; the formatter goes on through every bracket.
    { name: `${n} [ after a top-level string broken by a line break`, text: '"\n' + '['.repeat(n) + '\n"' },
    { name: `${n} [ after a number and ] inside a block comment`, text: '0/*' + ']'.repeat(n) + '*/' + '['.repeat(n) },
    { name: `${n} [ inside an unclosed prompt, forced llm`, text: '{"model_prompt": "' + '['.repeat(n), kind: 'llm' },
  ];
}

/** A 256x256 PNG header followed by filler, as base64 of about `chars` characters. */
export function hugePngBase64(chars: number): string {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452000001000000010008060000005c72a866', 'hex');
  const bytes = Buffer.alloc(Math.floor((chars * 3) / 4));
  header.copy(bytes);
  for (let i = header.length; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
  return bytes.toString('base64');
}

export const MB20 = 20 * 1024 * 1024;

/** 20 MB documents, built on demand (each is 40 MB in memory). */
export function hugeDocuments(): { name: string; build: () => string }[] {
  const smart = (): string => smartTool({ metadata: { avatar: hugePngBase64(MB20) } });
  return [
    { name: 'smart tool with a 20 MB base64 avatar', build: smart },
    {
      name: 'LLM tool with a 20 MB prompt (escapes throughout, a placeholder every ~1 KB)',
      build: () => {
        const unit =
          'Summarise {{text}} in {{target language}}, politely; mind "quotes" \\ and \n new lines. ' +
          'Lorem ipsum dolor sit amet, é😀 '.repeat(30);
        const body = JSON.stringify(unit).slice(1, -1);
        const prompt = body.repeat(Math.ceil(MB20 / body.length)) + '{{unknown}} {{ text }} {{';
        return llmTool({ prompt: 'P' }).replace('"model_prompt": "P"', `"model_prompt": "${prompt}"`);
      },
    },
    { name: 'the 20 MB avatar tool with CRLF, truncated (invalid JSON)', build: () => withCrlf(smart()).slice(0, -40) },
  ];
}

// ---------------------------------------------------------------------------------------------
// Progress and hang watchdog

/**
 * What is running right now, in shared memory, so that another thread can tell which call hangs:
 * a synchronous hang cannot be caught by a test timeout.
 */
export class Progress {
  readonly sab: SharedArrayBuffer;
  private readonly state: Int32Array;
  private readonly callName: Uint8Array;
  private readonly document: Uint8Array;
  private readonly encoder = new TextEncoder();

  constructor(sab?: SharedArrayBuffer) {
    // [progress counter, idle flag, offset], the call's name, the document's description
    this.sab = sab ?? new SharedArrayBuffer(16 + 128 + 16384);
    this.state = new Int32Array(this.sab, 0, 4);
    this.callName = new Uint8Array(this.sab, 16, 128);
    this.document = new Uint8Array(this.sab, 144);
  }

  private write(into: Uint8Array, s: string): void {
    const r = this.encoder.encodeInto(s.slice(0, into.length), into);
    if (r.written < into.length) into[r.written] = 0;
  }

  /** Describes the document the next calls run on. */
  onDocument(description: string): void {
    this.write(this.document, description);
  }

  /** Records the call about to run. */
  enter(call: string, offset = -1): void {
    this.write(this.callName, call);
    Atomics.store(this.state, 2, offset);
    Atomics.add(this.state, 0, 1);
  }

  /** Between tests nothing runs, and the watchdog must not count that time. */
  idle(on: boolean): void {
    Atomics.store(this.state, 1, on ? 1 : 0);
  }

  counter(): number {
    return Atomics.load(this.state, 0);
  }

  describe(): string {
    const decode = (bytes: Uint8Array): string => {
      const end = bytes.indexOf(0);
      return new TextDecoder().decode(bytes.slice(0, end < 0 ? bytes.length : end));
    };
    const offset = Atomics.load(this.state, 2);
    return `${decode(this.callName)}${offset >= 0 ? ` at offset ${offset}` : ''} on ${decode(this.document)}`;
  }
}

/**
 * Kills the process, printing what was running, when `progress` has not moved for `hangMs`: the
 * last resort for a hang in the main thread.
 */
export function startWatchdog(progress: Progress, hangMs: number): Worker {
  const code = `
    const { workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const state = new Int32Array(workerData.sab, 0, 4);
    const decode = (bytes) => { const end = bytes.indexOf(0); return new TextDecoder().decode(bytes.slice(0, end < 0 ? bytes.length : end)); };
    let last = -1, since = Date.now();
    setInterval(() => {
      const now = Atomics.load(state, 0);
      if (Atomics.load(state, 1) === 1 || now !== last) { last = now; since = Date.now(); return; }
      if (Date.now() - since > workerData.hangMs) {
        const call = decode(new Uint8Array(workerData.sab, 16, 128));
        const doc = decode(new Uint8Array(workerData.sab, 144));
        fs.writeSync(2, '\\n[robustness watchdog] no progress for ' + workerData.hangMs + ' ms in ' + call + ' at offset ' + Atomics.load(state, 2) + ' on ' + doc + '\\n');
        process.kill(process.pid, 'SIGKILL');
      }
    }, 250);
  `;
  const worker = new Worker(code, { eval: true, workerData: { sab: progress.sab, hangMs } });
  worker.unref();
  return worker;
}
