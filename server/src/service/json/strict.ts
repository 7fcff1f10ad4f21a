import { isEscaped, skipWs } from './scan';
import type { JsonNode, NodeType } from './tree';

/**
 * One pass over text that is expected to be strict JSON, building the position tree, the plain value
 * and the list of duplicate keys together. It answers `undefined` at the first deviation from
 * RFC 8259 (exactly what `JSON.parse` rejects), leaving error reporting to the recovering parser.
 *
 * Why not `JSON.parse` plus an index: that pays twice for every byte and copies every string, and
 * definition files are mostly a few very long strings (a 5 MB avatar, thousands of lines of
 * tool_code). Here string contents are never copied (values are slices of the text) and are checked
 * with native searches; only strings holding escapes are decoded, by `JSON.parse` of that literal.
 *
 * The per-token cost is what remains, so the loop keeps its state in locals and parallel stacks
 * (no closures, no per-token result objects) and every node has one hidden class.
 */
export function parseStrict(
  text: string,
  start: number,
): { root: JsonNode; value: unknown; duplicateKeys: JsonNode[] } | undefined {
  const strings = new StringScanner(text);
  // The open containers, innermost last; for objects also the property being read and its key.
  const nodes: Node[] = [];
  const values: unknown[] = [];
  const props: (Node | undefined)[] = [];
  const keyNodes: Node[] = [];
  const keys: string[] = [];
  // Children (and array items) of all open containers, each container's from `starts[d]` on: sliced
  // out at its close, so every `children` array is allocated once at its exact size.
  // (Counted by hand: truncating an array through its `length` is a slow runtime call.)
  const pendingNodes: Node[] = [];
  const pendingItems: unknown[] = [];
  let pending = 0;
  const starts: number[] = [];
  const duplicateKeys: JsonNode[] = [];
  let depth = 0;
  let root: Node | undefined;
  let rootValue: unknown;
  let pos = skipWs(text, start);

  for (;;) {
    // A value is expected at `pos`: make its node and value, then attach both to the open container.
    const c = text.charCodeAt(pos);
    const parentProp = depth > 0 ? props[depth - 1] : undefined;
    const parent = parentProp ?? (depth > 0 ? nodes[depth - 1] : undefined);
    let node: Node;
    let value: unknown;
    let end: number;
    let opened = false;
    if (c === 0x7b || c === 0x5b) {
      const isObject = c === 0x7b;
      node = new Node(isObject ? 'object' : 'array', pos, 0, parent, EMPTY, undefined);
      pos = skipWs(text, pos + 1);
      if (text.charCodeAt(pos) === (isObject ? 0x7d : 0x5d)) {
        node.length = pos + 1 - node.offset;
        node.children = [];
        value = isObject ? {} : [];
        end = pos + 1;
      } else {
        opened = true;
        value = isObject ? {} : undefined; // an array's items are sliced out at its close
        end = pos;
      }
    } else if (c === 0x22) {
      end = strings.read(pos);
      if (end < 0) return undefined;
      value = strings.value;
      node = new Node('string', pos, end - pos, parent, undefined, value);
    } else if (c === 0x74 && text.startsWith('true', pos)) {
      node = new Node('boolean', pos, 4, parent, undefined, (value = true));
      end = pos + 4;
    } else if (c === 0x66 && text.startsWith('false', pos)) {
      node = new Node('boolean', pos, 5, parent, undefined, (value = false));
      end = pos + 5;
    } else if (c === 0x6e && text.startsWith('null', pos)) {
      node = new Node('null', pos, 4, parent, undefined, (value = null));
      end = pos + 4;
    } else {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      if (!m) return undefined;
      node = new Node('number', pos, m[0].length, parent, undefined, (value = Number(m[0])));
      end = pos + m[0].length;
    }
    if (depth === 0) {
      root = node;
      rootValue = value;
    } else if (parentProp) {
      parentProp.children = [keyNodes[depth - 1], node];
      if (value !== undefined) setOwn(values[depth - 1] as Record<string, unknown>, keys[depth - 1], value);
    } else {
      pendingNodes[pending] = node;
      pendingItems[pending++] = value;
    }
    if (opened) {
      nodes[depth] = node;
      values[depth] = value;
      props[depth] = undefined;
      starts[depth] = pending;
      depth++;
      if (node.type === 'object' && (pos = readKey(pos)) < 0) return undefined;
      continue;
    }
    // After a value: close properties and containers, then a separator, or the end of the text.
    for (;;) {
      if (depth === 0) {
        const valid = skipWs(text, end) === text.length && !hasForbiddenControl(text, strings.decodedLong);
        return valid ? { root: root!, value: rootValue, duplicateKeys } : undefined;
      }
      const top = nodes[depth - 1];
      const prop = props[depth - 1];
      if (prop) prop.length = end - prop.offset;
      pos = skipWs(text, end);
      const d = text.charCodeAt(pos);
      if (d === 0x2c) {
        pos = skipWs(text, pos + 1);
        if (prop && (pos = readKey(pos)) < 0) return undefined;
        break;
      }
      if (d !== (top.type === 'object' ? 0x7d : 0x5d)) return undefined;
      end = pos + 1;
      top.length = end - top.offset;
      const first = starts[depth - 1];
      top.children = pendingNodes.slice(first, pending);
      let value = values[depth - 1];
      if (top.type === 'array') value = pendingItems.slice(first, pending);
      pending = first;
      depth--;
      // The finished container is its parent's value: attach what was deferred.
      if (depth === 0) rootValue = value;
      else if (props[depth - 1]) {
        if (top.type === 'array') setOwn(values[depth - 1] as Record<string, unknown>, keys[depth - 1], value);
      } else pendingItems[pending - 1] = value;
    }
  }

  /** Reads `"key" :` at `at` into the innermost open object; returns where its value starts, or -1. */
  function readKey(at: number): number {
    if (text.charCodeAt(at) !== 0x22) return -1;
    const end = strings.read(at);
    if (end < 0) return -1;
    const key = strings.value;
    const prop = new Node('property', at, 0, nodes[depth - 1], EMPTY, undefined);
    const keyNode = new Node('string', at, end - at, prop, undefined, key);
    pendingNodes[pending] = prop;
    pendingItems[pending++] = undefined;
    if (Object.prototype.hasOwnProperty.call(values[depth - 1], key)) duplicateKeys.push(keyNode);
    props[depth - 1] = prop;
    keyNodes[depth - 1] = keyNode;
    keys[depth - 1] = key;
    const colon = skipWs(text, end);
    if (text.charCodeAt(colon) !== 0x3a) return -1;
    prop.colonOffset = colon;
    return skipWs(text, colon + 1);
  }
}

/** Placeholder `children` of containers still open (a parse that fails never hands them out). */
const EMPTY: JsonNode[] = [];

/** Every node has every field, so that property reads on nodes stay monomorphic. */
class Node implements JsonNode {
  colonOffset: number | undefined = undefined;
  constructor(
    readonly type: NodeType,
    readonly offset: number,
    public length: number,
    public parent: JsonNode | undefined,
    public children: JsonNode[] | undefined,
    public value: unknown,
  ) {}
}

/**
 * Whether the text holds a control character JSON never allows (other than tab, line feed and
 * carriage return), outside the long literals `JSON.parse` has decoded, and so checked, already
 * (`skip`: pairs of their quote offsets). The structure pass rejects such characters between tokens
 * but not inside strings without escapes. One native search per character beats a regex class scan
 * at every size (about 4× on 3 KB, 2× on 5 MB); skipping a 200 KB tool_code saves most of it.
 */
function hasForbiddenControl(text: string, skip: readonly number[]): boolean {
  let from = 0;
  for (let k = 0; k <= skip.length; k += 2) {
    const to = k < skip.length ? skip[k] : text.length;
    // A slice of a long string shares its characters; it costs no copy.
    const part = from === 0 && to === text.length ? text : text.slice(from, to);
    for (const c of FORBIDDEN_CONTROL) if (part.indexOf(c) >= 0) return true;
    from = skip[k + 1] + 1;
  }
  return false;
}

/** Literals at least this long that `JSON.parse` decoded are not searched for control characters again. */
const LONG_LITERAL = 4096;

/** Control characters other than tab, line feed and carriage return. */
const FORBIDDEN_CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter(
  (c) => !'\t\n\r'.includes(c),
);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** `JSON.parse` would make `__proto__` an own property; plain assignment would set the prototype. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * String literals, checked with native searches. The positions of the next backslash, line feed,
 * carriage return and tab only ever move forward, so each is searched for once per occurrence.
 */
class StringScanner {
  /** The decoded value of the literal last read. */
  value = '';
  /** Opening and closing quote offsets of the long literals decoded (and so checked) by `JSON.parse`. */
  readonly decodedLong: number[] = [];
  private nextBackslash = -1;
  private nextLf = -1;
  private nextCr = -1;
  private nextTab = -1;

  constructor(private readonly text: string) {}

  /** Reads the literal opening at `quote`: answers its end (past the closing quote), or -1. */
  read(quote: number): number {
    const text = this.text;
    let close = text.indexOf('"', quote + 1);
    for (;;) {
      if (close < 0) return -1;
      if (!isEscaped(text, close)) break;
      close = text.indexOf('"', close + 1);
    }
    if (this.nextLf < quote) this.nextLf = after(text, '\n', quote);
    if (this.nextCr < quote) this.nextCr = after(text, '\r', quote);
    if (this.nextTab < quote) this.nextTab = after(text, '\t', quote);
    if (this.nextLf < close || this.nextCr < close || this.nextTab < close) return -1;
    if (this.nextBackslash < quote) this.nextBackslash = after(text, '\\', quote);
    if (this.nextBackslash < close) {
      try {
        this.value = JSON.parse(text.slice(quote, close + 1)) as string;
      } catch {
        return -1; // an invalid escape or control character
      }
      if (close - quote >= LONG_LITERAL) this.decodedLong.push(quote, close);
    } else this.value = text.slice(quote + 1, close);
    return close + 1;
  }
}

/** Offset of the next `ch` at or after `from`, or Infinity. */
function after(text: string, ch: string, from: number): number {
  const i = text.indexOf(ch, from);
  return i < 0 ? Infinity : i;
}
