import { createScanner, parseTree, printParseErrorCode, SyntaxKind, type ParseError } from 'jsonc-parser';

export type NodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';

/** Same shape as jsonc-parser's `Node`, so its helpers (findNodeAtOffset, getNodePath …) work on it. */
export interface JsonNode {
  readonly type: NodeType;
  readonly offset: number;
  length: number;
  parent?: JsonNode;
  children?: JsonNode[];
  value?: unknown;
  colonOffset?: number;
}

export interface SyntaxError {
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

export interface ParsedJson {
  readonly root: JsonNode | undefined;
  /** The JSON value: from `JSON.parse` when the text is valid, else recovered from the tree. */
  readonly value: unknown;
  readonly syntaxErrors: readonly SyntaxError[];
}

/** Deeper documents are not recovered (jsonc-parser recurses); valid ones of any depth still parse. */
const MAX_RECOVERY_DEPTH = 500;

/**
 * Valid JSON takes the fast path: `JSON.parse` checks it and a position index is built by a scanner
 * that trusts the text (strings are skipped with `indexOf`, so long strings cost almost nothing).
 * Only invalid JSON pays for jsonc-parser's error-recovering tree.
 */
export function parseJson(text: string): ParsedJson {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const body = start ? text.slice(1) : text;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return recover(text, start);
  }
  let root: JsonNode;
  try {
    root = indexValidJson(text, start, value);
  } catch (e) {
    if (e !== DUPLICATE_KEYS) throw e;
    root = indexValidJson(text, start, NO_VALUE); // JSON.parse kept only the last of some keys
  }
  return { root, value, syntaxErrors: [] };
}

function recover(text: string, start: number): ParsedJson {
  const tooDeep = {
    root: undefined,
    value: undefined,
    syntaxErrors: [{ offset: start, length: 1, message: `The JSON is invalid and nested more than ${MAX_RECOVERY_DEPTH} levels deep; fix the syntax near the first unbalanced bracket.` }],
  };
  if (nestingDepth(text) > MAX_RECOVERY_DEPTH) return tooDeep;
  const errors: ParseError[] = [];
  const body = start ? ' ' + text.slice(1) : text; // keep offsets: the BOM becomes a space
  let root: JsonNode | undefined;
  try {
    root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false }) as JsonNode | undefined;
  } catch (e) {
    if (e instanceof RangeError) return tooDeep; // the guard above should prevent this; stay safe anyway
    throw e;
  }
  const syntaxErrors: SyntaxError[] = [];
  const seen = new Set<number>();
  for (const e of errors) {
    if (seen.has(e.offset)) continue; // one problem per place
    seen.add(e.offset);
    syntaxErrors.push(trailingComma(e, body) ?? { offset: e.offset, length: Math.max(e.length, 1), message: syntaxMessage(e) });
  }
  return { root, value: root ? nodeValue(root) : undefined, syntaxErrors };
}

/** A name or value expected right before a closer after a comma: point at the comma itself. */
function trailingComma(e: ParseError, text: string): SyntaxError | undefined {
  const code = printParseErrorCode(e.error);
  if (code !== 'PropertyNameExpected' && code !== 'ValueExpected') return undefined;
  const c = text[e.offset];
  if (c !== '}' && c !== ']') return undefined;
  let i = e.offset - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  if (text[i] !== ',') return undefined;
  return { offset: i, length: 1, message: 'Trailing comma: definition files are strict JSON, remove it.' };
}

function syntaxMessage(e: ParseError): string {
  const code = printParseErrorCode(e.error);
  const hints: Record<string, string> = {
    InvalidCommentToken: 'Definition files are strict JSON: remove the comment.',
    ValueExpected: 'Value expected: add a value here.',
    PropertyNameExpected: 'Property name expected: write a "name": value pair; names need double quotes.',
    CommaExpected: 'Comma expected: add a comma between the two values.',
    ColonExpected: 'Colon expected: write "name": value.',
    CloseBraceExpected: 'Closing brace expected: add } to close the object.',
    CloseBracketExpected: 'Closing bracket expected: add ] to close the array.',
    EndOfFileExpected: 'End of file expected: the document holds one value; remove what follows it.',
    UnexpectedEndOfString: 'Unterminated string: add the closing double quote.',
    UnexpectedEndOfComment: 'Unterminated comment: definition files are strict JSON, remove the comment.',
    UnexpectedEndOfNumber: 'Incomplete number: complete or remove it.',
    InvalidUnicode: 'Invalid \\u escape: use four hex digits, e.g. \\u00e9.',
    InvalidEscapeCharacter: 'Invalid escape: JSON allows \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX only.',
    InvalidCharacter: 'Invalid character in string: control characters such as tabs and line breaks must be escaped (\\t, \\n).',
    InvalidSymbol: 'Invalid symbol: strict JSON allows only objects, arrays, double-quoted strings, numbers, true, false and null.',
    InvalidNumberFormat: 'Invalid number: JSON numbers have no leading zeros, + sign, NaN or Infinity.',
  };
  return hints[code] ?? `Invalid JSON (${code}).`;
}

/**
 * Bracket depth as jsonc-parser's own scanner sees it (comments, unterminated strings and all), so
 * the guard before its recursive parser and the formatter cannot be fooled by brackets it skips.
 */
export function nestingDepth(text: string): number {
  const scanner = createScanner(text, false);
  let depth = 0;
  let max = 0;
  for (let t = scanner.scan(); t !== SyntaxKind.EOF; t = scanner.scan()) {
    if (t === SyntaxKind.OpenBraceToken || t === SyntaxKind.OpenBracketToken) {
      if (++depth > max) max = depth;
    } else if ((t === SyntaxKind.CloseBraceToken || t === SyntaxKind.CloseBracketToken) && depth > 0) {
      depth--;
    }
  }
  return max;
}

/** Offset of the closing quote of the string opening at `quote`, in text known to be valid. */
function stringEnd(text: string, quote: number): number {
  let from = quote + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    from = q + 1;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const NO_VALUE = Symbol('no value');
const DUPLICATE_KEYS = Symbol('duplicate keys');

/**
 * Builds the position tree of text already known to be valid JSON, iteratively (any depth).
 * Values are taken from `JSON.parse`'s result (`parsed`) instead of being decoded again, so a
 * multi-megabyte string is never copied twice; an object with duplicate keys makes JSON.parse drop
 * values, which throws DUPLICATE_KEYS so that the caller indexes again decoding every value itself.
 */
function indexValidJson(text: string, start: number, parsed: unknown): JsonNode {
  let pos = start;
  // For each entry of `stack`: the JS value of that container, or of the property's value.
  const values: unknown[] = [];
  const expected = (): unknown => {
    if (parsed === NO_VALUE) return NO_VALUE;
    const parent = stack[stack.length - 1];
    if (!parent) return parsed;
    const v = values[values.length - 1];
    if (parent.type !== 'array') return v;
    return Array.isArray(v) ? v[parent.children!.length] : NO_VALUE; // a mismatch: duplicates, caught at `close`
  };
  const close = (node: JsonNode): void => {
    const v = values[values.length - 1];
    if (node.type === 'object' && isObject(v) && Object.keys(v).length !== node.children!.length) throw DUPLICATE_KEYS;
  };
  const skipWs = (): void => {
    for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++pos));
  };
  const stack: JsonNode[] = [];
  let root: JsonNode | undefined;

  const attach = (node: JsonNode): void => {
    const parent = stack[stack.length - 1];
    if (!parent) {
      root = node;
      return;
    }
    node.parent = parent;
    parent.children!.push(node);
  };
  // After a value completes: close the enclosing property and consume a separator or closer.
  const afterValue = (end: number): void => {
    let top = stack[stack.length - 1];
    if (top?.type === 'property') {
      top.length = end - top.offset;
      stack.pop();
      values.pop();
      top = stack[stack.length - 1];
    }
    for (;;) {
      skipWs();
      const c = text.charCodeAt(pos);
      if (c === 0x2c) {
        pos++;
        return;
      }
      if ((c === 0x7d || c === 0x5d) && top) {
        pos++;
        top.length = pos - top.offset;
        close(top);
        stack.pop();
        values.pop();
        const parent = stack[stack.length - 1];
        if (parent?.type === 'property') {
          parent.length = pos - parent.offset;
          stack.pop();
          values.pop();
        }
        top = stack[stack.length - 1];
        continue;
      }
      return;
    }
  };

  for (;;) {
    skipWs();
    if (pos >= text.length) break;
    const container = stack[stack.length - 1];
    const c = text.charCodeAt(pos);
    if (container?.type === 'object') {
      if (c === 0x7d) {
        // empty object
        pos++;
        container.length = pos - container.offset;
        stack.pop();
        values.pop();
        afterValue(pos);
        continue;
      }
      const keyEnd = stringEnd(text, pos);
      const key: JsonNode = { type: 'string', offset: pos, length: keyEnd + 1 - pos, value: decodeString(text, pos, keyEnd) };
      const prop: JsonNode = { type: 'property', offset: pos, length: 0, children: [key], parent: container };
      key.parent = prop;
      container.children!.push(prop);
      pos = keyEnd + 1;
      skipWs();
      prop.colonOffset = pos;
      pos++;
      const objectValue = values[values.length - 1];
      values.push(isObject(objectValue) ? objectValue[key.value as string] : NO_VALUE);
      stack.push(prop);
      continue;
    }
    if (c === 0x5d && container?.type === 'array' && container.children!.length === 0) {
      pos++;
      container.length = pos - container.offset;
      stack.pop();
      values.pop();
      afterValue(pos);
      continue;
    }
    const v = expected();
    if (c === 0x7b || c === 0x5b) {
      const node: JsonNode = { type: c === 0x7b ? 'object' : 'array', offset: pos, length: 0, children: [] };
      attach(node);
      stack.push(node);
      values.push(v);
      pos++;
      continue;
    }
    let node: JsonNode;
    if (c === 0x22) {
      const end = stringEnd(text, pos);
      node = { type: 'string', offset: pos, length: end + 1 - pos, value: typeof v === 'string' ? v : decodeString(text, pos, end) };
    } else if (c === 0x74) {
      node = { type: 'boolean', offset: pos, length: 4, value: true };
    } else if (c === 0x66) {
      node = { type: 'boolean', offset: pos, length: 5, value: false };
    } else if (c === 0x6e) {
      node = { type: 'null', offset: pos, length: 4, value: null };
    } else {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text)!;
      node = { type: 'number', offset: pos, length: m[0].length, value: Number(m[0]) };
    }
    attach(node);
    pos = node.offset + node.length;
    afterValue(pos);
  }
  return root!;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function decodeString(text: string, quote: number, end: number): string {
  const raw = text.slice(quote + 1, end);
  return raw.indexOf('\\') < 0 ? raw : (JSON.parse(text.slice(quote, end + 1)) as string);
}

/** Plain value of a (possibly recovered) tree, iterative so deep trees cannot overflow the stack. */
export function nodeValue(root: JsonNode): unknown {
  const out = new Map<JsonNode, unknown>();
  const order: JsonNode[] = [];
  const todo = [root];
  while (todo.length) {
    const n = todo.pop()!;
    order.push(n);
    for (const child of n.children ?? []) todo.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i];
    if (n.type === 'object') {
      const obj: Record<string, unknown> = {};
      for (const p of n.children!) {
        const [k, v] = p.children ?? [];
        if (k && v) obj[String(k.value)] = out.get(v);
      }
      out.set(n, obj);
    } else if (n.type === 'array') {
      out.set(n, n.children!.map((c) => out.get(c)));
    } else if (n.type !== 'property') {
      out.set(n, n.value);
    }
  }
  return out.get(root);
}
