import { isEscaped, skipWs } from './scan';
import type { JsonNode, NodeType } from './tree';

/**
 * The fast path for valid JSON: `JSON.parse` (native) makes the value, the node tree is made from
 * that value, and the positions of all nodes are found by one scan of the text the first time any
 * node's offset or length is read. Checking a file that has no problem reads no position, so it costs
 * little more than `JSON.parse`; a problem, a hover or the outline pays for the scan once.
 *
 * The tree mirrors the text only when each object's keys are in the value in text order, once each.
 * `JSON.parse` keeps the last of duplicate keys and lists integer-like keys first, so texts that may
 * have either answer `undefined` and take the strict parser (./strict.ts), which reports duplicates.
 */
export function parseByValue(text: string, start: number): { root: JsonNode; value: unknown } | 'invalid' | undefined {
  // JSON.parse copies every string; the strict parser slices them, which wins when megabytes of one
  // escape-free string (a base64 avatar) make up the file.
  if (text.length - start > MAX_LENGTH) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(start ? text.slice(start) : text);
  } catch {
    return 'invalid';
  }
  const positions = new Positions(text, start);
  const built = new TreeBuilder(positions);
  const root = built.node(value, undefined, 0);
  if (!root || built.keys !== countKeyColons(text)) return undefined;
  positions.root = root;
  return { root, value };
}

/** Longer texts take the strict parser (see above). */
const MAX_LENGTH = 1_000_000;

/** Deeper values take the strict parser, which is iterative (building here recurses). */
const MAX_DEPTH = 1000;

class TreeBuilder {
  /** Object keys in the value (each property once). */
  keys = 0;

  constructor(private readonly positions: Positions) {}

  /** The node of `value`, or undefined when the value is too deep or has an integer-like key. */
  node(value: unknown, parent: ValueNode | undefined, depth: number): ValueNode | undefined {
    const positions = this.positions;
    switch (typeof value) {
      case 'string':
        return new ValueNode('string', parent, undefined, value, positions);
      case 'number':
        return new ValueNode('number', parent, undefined, value, positions);
      case 'boolean':
        return new ValueNode('boolean', parent, undefined, value, positions);
    }
    if (value === null) return new ValueNode('null', parent, undefined, null, positions);
    if (depth > MAX_DEPTH) return undefined;
    if (Array.isArray(value)) {
      const node = new ValueNode('array', parent, undefined, undefined, positions);
      const children = new Array<ValueNode>(value.length);
      for (let i = 0; i < value.length; i++) {
        const item = this.node(value[i], node, depth + 1);
        if (!item) return undefined;
        children[i] = item;
      }
      node.children = children;
      return node;
    }
    const node = new ValueNode('object', parent, undefined, undefined, positions);
    const keys = Object.keys(value as object);
    const children = new Array<ValueNode>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      const first = key.charCodeAt(0);
      if (first >= 0x30 && first <= 0x39) return undefined; // maybe an array index: listed out of text order
      const prop = new ValueNode('property', node, undefined, undefined, positions);
      const item = this.node((value as Record<string, unknown>)[key], prop, depth + 1);
      if (!item) return undefined;
      prop.children = [new ValueNode('string', prop, undefined, key, positions), item];
      children[i] = prop;
    }
    this.keys += keys.length;
    node.children = children;
    return node;
  }
}

/**
 * Upper bound of the keys in valid JSON text: colons whose previous non-whitespace character is an
 * unescaped quote. Every key's colon is one; a colon inside a string can only be one when the string
 * starts with it (`": …"`), which makes the count too high and sends the text to the strict parser.
 * So equal counts prove that no object repeats a key. One native search per colon.
 */
function countKeyColons(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let q = i - 1;
    for (let c = text.charCodeAt(q); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(--q));
    if (text.charCodeAt(q) === 0x22 && !isEscaped(text, q)) n++;
  }
  return n;
}

/** The text of a tree built from its value, and the scan that places every node of it. */
class Positions {
  root: ValueNode | undefined;
  constructor(
    private readonly text: string,
    private readonly start: number,
  ) {}

  /** Sets the offset and length of every node (and the colon of every property) in one pass. */
  locate(): void {
    if (this.root) this.place(this.root, this.start);
  }

  /** Places `node`, whose value starts at or after `pos` (after whitespace); answers its end. */
  private place(node: ValueNode, pos: number): number {
    const text = this.text;
    pos = skipWs(text, pos);
    let end: number;
    switch (node.type) {
      case 'string':
        end = stringEnd(text, pos, (node.value as string).length);
        break;
      case 'number':
        end = pos + 1;
        while (NUMBER_CHAR[text.charCodeAt(end)] === 1) end++;
        break;
      case 'boolean':
        end = pos + (node.value ? 4 : 5);
        break;
      case 'null':
        end = pos + 4;
        break;
      case 'array': {
        let at = pos + 1;
        for (const item of node.children!) at = skipWs(text, this.place(item, at)) + 1; // past `,` or `]`
        end = node.children!.length ? at : skipWs(text, at) + 1;
        break;
      }
      default: {
        let at = pos + 1;
        for (const prop of node.children!) {
          const [key, value] = prop.children!;
          const keyStart = skipWs(text, at);
          const keyEnd = stringEnd(text, keyStart, (key.value as string).length);
          key.setPosition(keyStart, keyEnd - keyStart);
          const colon = skipWs(text, keyEnd);
          prop.colon = colon;
          const valueEnd = this.place(value, colon + 1);
          prop.setPosition(keyStart, valueEnd - keyStart);
          at = skipWs(text, valueEnd) + 1; // past `,` or `}`
        }
        end = node.children!.length ? at : skipWs(text, at) + 1;
      }
    }
    node.setPosition(pos, end - pos);
    return end;
  }
}

/** Characters that can continue a JSON number. */
const NUMBER_CHAR = new Uint8Array(128);
for (const c of '0123456789+-.eE') NUMBER_CHAR[c.charCodeAt(0)] = 1;

/**
 * End (past the closing quote) of the valid string literal opening at `quote`, whose value has
 * `decoded` characters. Each comes from at least one character of the literal, so the closing quote
 * is not before `quote + 1 + decoded`: the search starts there, skipping the quotes escaped before
 * (a long tool_code holds thousands).
 */
function stringEnd(text: string, quote: number, decoded: number): number {
  let close = text.indexOf('"', quote + 1 + decoded);
  while (isEscaped(text, close)) close = text.indexOf('"', close + 1);
  return close + 1;
}

/** A node whose position is found when first read. Every node has every field (one hidden class). */
class ValueNode implements JsonNode {
  private at = -1;
  private span = 0;
  /** The property's colon (set by the scan). */
  colon: number | undefined = undefined;

  constructor(
    readonly type: NodeType,
    readonly parent: JsonNode | undefined,
    public children: ValueNode[] | undefined,
    readonly value: unknown,
    private readonly positions: Positions,
  ) {}

  get offset(): number {
    if (this.at < 0) this.positions.locate();
    return this.at;
  }

  get length(): number {
    if (this.at < 0) this.positions.locate();
    return this.span;
  }

  get colonOffset(): number | undefined {
    if (this.at < 0) this.positions.locate();
    return this.colon;
  }

  setPosition(offset: number, length: number): void {
    this.at = offset;
    this.span = length;
  }

  /** Whether the position has been found (read, or placed by a scan another read started). */
  get located(): boolean {
    return this.at >= 0;
  }
}

/**
 * Whether any position of the tree under `node` has been found yet: false until something reads one
 * (a tree from the strict parser has them from the start). For tests and measurements of the fast path.
 */
export function positionsLocated(node: JsonNode): boolean {
  if (!(node instanceof ValueNode)) return true;
  return node.located || (node.children ?? []).some(positionsLocated);
}
