import type { JsonNode } from './tree';

/**
 * One pass over text that is expected to be strict JSON, building the position tree, the plain value
 * and the list of duplicate keys together. It answers `undefined` at the first deviation from
 * RFC 8259 (exactly what `JSON.parse` rejects), leaving error reporting to the recovering parser.
 *
 * Why not `JSON.parse` plus an index: that pays twice for every byte and copies every string, and
 * definition files are mostly a few very long strings (a 5 MB avatar, thousands of lines of
 * tool_code). Here string contents are never copied (values are slices of the text) and are checked
 * with native searches; only strings holding escapes are decoded, by `JSON.parse` of that literal.
 */
export function parseStrict(text: string, start: number): { root: JsonNode; value: unknown; duplicateKeys: JsonNode[] } | undefined {
  // Never valid anywhere in JSON. On long texts one native search per character beats a regex class
  // scan by far (3 ms against 8 ms on 5 MB); on short ones the single regex pass is cheaper.
  if (text.length < 65_536 ? FORBIDDEN_CONTROL_RE.test(text) : FORBIDDEN_CONTROL.some((c) => text.indexOf(c) >= 0)) return undefined;
  const scan = new Scanner(text);
  const stack: Frame[] = [];
  const duplicateKeys: JsonNode[] = [];
  let root: JsonNode | undefined;
  let rootValue: unknown;
  let pos = skipWs(text, start);

  const attach = (node: JsonNode, value: unknown): void => {
    const top = stack[stack.length - 1];
    if (!top) {
      root = node;
      rootValue = value;
    } else if (top.node.type === 'array') {
      node.parent = top.node;
      top.node.children!.push(node);
      (top.value as unknown[]).push(value);
    } else {
      const prop = top.prop!;
      node.parent = prop;
      prop.children!.push(node);
      setOwn(top.value as Record<string, unknown>, top.key!, value);
    }
  };

  for (;;) {
    // A value is expected at `pos`.
    const c = text.charCodeAt(pos);
    let end: number;
    if (c === 0x7b || c === 0x5b) {
      const isObject = c === 0x7b;
      const node: JsonNode = { type: isObject ? 'object' : 'array', offset: pos, length: 0, children: [] };
      const value: unknown = isObject ? {} : [];
      attach(node, value);
      pos = skipWs(text, pos + 1);
      if (text.charCodeAt(pos) === (isObject ? 0x7d : 0x5d)) {
        node.length = pos + 1 - node.offset;
        end = pos + 1;
      } else {
        stack.push({ node, value });
        if (isObject) {
          pos = key(pos);
          if (pos < 0) return undefined;
        }
        continue;
      }
    } else if (c === 0x22) {
      const s = scan.string(pos);
      if (!s) return undefined;
      attach({ type: 'string', offset: pos, length: s.end - pos, value: s.value }, s.value);
      end = s.end;
    } else if (c === 0x74 && text.startsWith('true', pos)) {
      attach({ type: 'boolean', offset: pos, length: 4, value: true }, true);
      end = pos + 4;
    } else if (c === 0x66 && text.startsWith('false', pos)) {
      attach({ type: 'boolean', offset: pos, length: 5, value: false }, false);
      end = pos + 5;
    } else if (c === 0x6e && text.startsWith('null', pos)) {
      attach({ type: 'null', offset: pos, length: 4, value: null }, null);
      end = pos + 4;
    } else {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      if (!m) return undefined;
      const value = Number(m[0]);
      attach({ type: 'number', offset: pos, length: m[0].length, value }, value);
      end = pos + m[0].length;
    }
    // After a value: close properties and containers, then a separator, or the end of the text.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top?.prop) top.prop.length = end - top.prop.offset;
      pos = skipWs(text, end);
      if (!top) return pos === text.length ? { root: root!, value: rootValue, duplicateKeys } : undefined;
      const d = text.charCodeAt(pos);
      if (d === 0x2c) {
        pos = skipWs(text, pos + 1);
        if (top.node.type === 'object') {
          pos = key(pos);
          if (pos < 0) return undefined;
        }
        break;
      }
      if (d !== (top.node.type === 'object' ? 0x7d : 0x5d)) return undefined;
      end = pos + 1;
      top.node.length = end - top.node.offset;
      stack.pop();
    }
  }

  /** Reads `"key" :` at `at` into the open object; returns where its value starts, or -1. */
  function key(at: number): number {
    if (text.charCodeAt(at) !== 0x22) return -1;
    const s = scan.string(at);
    if (!s) return -1;
    const top = stack[stack.length - 1];
    const keyNode: JsonNode = { type: 'string', offset: at, length: s.end - at, value: s.value };
    const prop: JsonNode = { type: 'property', offset: at, length: 0, parent: top.node, children: [keyNode] };
    keyNode.parent = prop;
    top.node.children!.push(prop);
    if (Object.prototype.hasOwnProperty.call(top.value, s.value)) duplicateKeys.push(keyNode);
    top.prop = prop;
    top.key = s.value;
    const colon = skipWs(text, s.end);
    if (text.charCodeAt(colon) !== 0x3a) return -1;
    prop.colonOffset = colon;
    return skipWs(text, colon + 1);
  }
}

interface Frame {
  readonly node: JsonNode;
  readonly value: unknown;
  /** Objects: the property whose value is being read, and its key. */
  prop?: JsonNode;
  key?: string;
}

/** Control characters other than tab, line feed and carriage return. */
const FORBIDDEN_CONTROL_RE = /[\x00-\x08\x0b\x0c\x0e-\x1f]/;
const FORBIDDEN_CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => !'\t\n\r'.includes(c));
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function skipWs(text: string, pos: number): number {
  for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++pos));
  return pos;
}

/** `JSON.parse` would make `__proto__` an own property; plain assignment would set the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * String literals, checked with native searches. The positions of the next backslash, line feed,
 * carriage return and tab only ever move forward, so each is searched for once per occurrence.
 */
class Scanner {
  private nextBackslash = -1;
  private nextLf = -1;
  private nextCr = -1;
  private nextTab = -1;

  constructor(private readonly text: string) {}

  /** The literal opening at `quote`: its end (past the closing quote) and decoded value. */
  string(quote: number): { end: number; value: string } | undefined {
    const text = this.text;
    let close = text.indexOf('"', quote + 1);
    for (;;) {
      if (close < 0) return undefined;
      let backslashes = 0;
      for (let k = close - 1; text.charCodeAt(k) === 0x5c; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    // Plain fields rather than one helper: this runs for every string of the document.
    if (this.nextLf < quote) this.nextLf = after(text, '\n', quote);
    if (this.nextCr < quote) this.nextCr = after(text, '\r', quote);
    if (this.nextTab < quote) this.nextTab = after(text, '\t', quote);
    if (this.nextLf < close || this.nextCr < close || this.nextTab < close) return undefined;
    if (this.nextBackslash < quote) this.nextBackslash = after(text, '\\', quote);
    if (this.nextBackslash < close) {
      try {
        return { end: close + 1, value: JSON.parse(text.slice(quote, close + 1)) as string };
      } catch {
        return undefined; // an invalid escape
      }
    }
    return { end: close + 1, value: text.slice(quote + 1, close) };
  }
}

/** Offset of the next `ch` at or after `from`, or Infinity. */
function after(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from);
  return i < 0 ? Infinity : i;
}
