import { createScanner, parseTree, printParseErrorCode, SyntaxKind, type ParseError } from 'jsonc-parser';
import { parseStrict, setOwn } from './strict';
import { parseByValue } from './valueTree';

export type NodeType = 'object' | 'array' | 'property' | 'string' | 'number' | 'boolean' | 'null';

/** Same shape as jsonc-parser's `Node`, so its helpers (findNodeAtOffset, getNodePath …) work on it. */
export interface JsonNode {
  readonly type: NodeType;
  readonly offset: number;
  readonly length: number;
  readonly parent?: JsonNode;
  readonly children?: JsonNode[];
  readonly value?: unknown;
  readonly colonOffset?: number;
}

export interface SyntaxError {
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

export interface ParsedJson {
  readonly root: JsonNode | undefined;
  /** The plain JSON value (the last of duplicate keys wins, as with `JSON.parse`). */
  readonly value: unknown;
  readonly syntaxErrors: readonly SyntaxError[];
  /** Keys repeated in their object, every occurrence after the first. */
  readonly duplicateKeys: readonly JsonNode[];
}

const NO_ERRORS: readonly SyntaxError[] = [];
const NO_NODES: readonly JsonNode[] = [];

/** Deeper documents are not recovered (jsonc-parser recurses); valid ones of any depth still parse. */
const MAX_RECOVERY_DEPTH = 500;

/**
 * Valid JSON takes a fast path: `JSON.parse` with positions found when first needed (./valueTree.ts),
 * or, for texts that may repeat a key and very long ones, one strict pass that builds positions and
 * values together (./strict.ts). Only invalid JSON pays for jsonc-parser's error-recovering tree and
 * its messages.
 */
export function parseJson(text: string): ParsedJson {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const byValue = parseByValue(text, start);
  if (byValue === 'invalid') return recover(text, start);
  if (byValue) return { root: byValue.root, value: byValue.value, duplicateKeys: NO_NODES, syntaxErrors: NO_ERRORS };
  const strict = parseStrict(text, start);
  return strict
    ? { root: strict.root, value: strict.value, duplicateKeys: strict.duplicateKeys, syntaxErrors: NO_ERRORS }
    : recover(text, start);
}

function recover(text: string, start: number): ParsedJson {
  const tooDeep = {
    root: undefined,
    value: undefined,
    duplicateKeys: [],
    syntaxErrors: [
      {
        offset: start,
        length: 1,
        message: `The JSON is invalid and nested more than ${MAX_RECOVERY_DEPTH} levels deep; fix the syntax near the first unbalanced bracket.`,
      },
    ],
  };
  if (nestingDepth(text) > MAX_RECOVERY_DEPTH) return tooDeep;
  const errors: ParseError[] = [];
  const body = start ? ' ' + text.slice(1) : text; // keep offsets: the BOM becomes a space
  let root: JsonNode | undefined;
  try {
    root = parseTree(body, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false }) as
      JsonNode | undefined;
  } catch (e) {
    if (e instanceof RangeError) return tooDeep; // the guard above should prevent this; stay safe anyway
    throw e;
  }
  const syntaxErrors: SyntaxError[] = [];
  const seen = new Set<number>();
  for (const e of errors) {
    if (seen.has(e.offset)) continue; // one problem per place
    seen.add(e.offset);
    syntaxErrors.push(
      trailingComma(e, body) ?? { offset: e.offset, length: Math.max(e.length, 1), message: syntaxMessage(e) },
    );
  }
  return {
    root,
    value: root ? nodeValue(root) : undefined,
    syntaxErrors,
    duplicateKeys: root ? findDuplicateKeys(root) : [],
  };
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
    InvalidCharacter:
      'Invalid character in string: control characters such as tabs and line breaks must be escaped (\\t, \\n).',
    InvalidSymbol:
      'Invalid symbol: strict JSON allows only objects, arrays, double-quoted strings, numbers, true, false and null.',
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
        if (k && v) setOwn(obj, String(k.value), out.get(v));
      }
      out.set(n, obj);
    } else if (n.type === 'array') {
      out.set(
        n,
        n.children!.map((c) => out.get(c)),
      );
    } else if (n.type !== 'property') {
      out.set(n, n.value);
    }
  }
  return out.get(root);
}

/** Every repeated key of every object, after its first occurrence (iterative: any depth). */
function findDuplicateKeys(root: JsonNode): JsonNode[] {
  const out: JsonNode[] = [];
  const todo = [root];
  while (todo.length) {
    const node = todo.pop()!;
    if (node.type === 'object') {
      const seen = new Set<unknown>();
      for (const p of node.children!) {
        const key = p.children?.[0];
        if (!key) continue;
        if (seen.has(key.value)) out.push(key);
        seen.add(key.value);
      }
    }
    for (const c of node.children ?? []) if (c.children) todo.push(c);
  }
  return out.sort((a, b) => a.offset - b.offset);
}
