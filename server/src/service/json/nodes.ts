import type { JsonNode } from './tree';

export type JsonPath = (string | number)[];

/** The property node with key `key` (the last one, as JSON.parse would keep). */
export function property(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  if (obj?.type !== 'object') return undefined;
  const props = obj.children!;
  for (let i = props.length - 1; i >= 0; i--) if (props[i].children?.[0]?.value === key) return props[i];
  return undefined;
}

/** Value node of property `key` of `obj`. */
export function child(obj: JsonNode | undefined, key: string): JsonNode | undefined {
  return property(obj, key)?.children?.[1];
}

export function nodeAtPath(root: JsonNode | undefined, path: readonly (string | number)[]): JsonNode | undefined {
  let node = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (typeof seg === 'number') node = node.type === 'array' ? node.children![seg] : undefined;
    else node = child(node, seg);
  }
  return node;
}

export function pathOf(node: JsonNode): JsonPath {
  const path: JsonPath = [];
  for (let n: JsonNode | undefined = node; n?.parent; n = n.parent) {
    const p: JsonNode = n.parent;
    if (p.type === 'property') {
      if (p.children![1] === n) path.push(String(p.children![0].value));
    } else if (p.type === 'array') {
      path.push(p.children!.indexOf(n));
    }
  }
  return path.reverse();
}

export function stringValue(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? (node.value as string) : undefined;
}

/** Innermost node containing `offset` (boundaries inclusive at the end, like jsonc-parser). */
export function nodeAtOffset(root: JsonNode | undefined, offset: number, includeEnd = false): JsonNode | undefined {
  if (!root || !contains(root, offset, includeEnd)) return undefined;
  let node: JsonNode = root;
  for (;;) {
    const kids: JsonNode[] | undefined = node.children;
    if (!kids?.length) return node;
    // children are sorted by offset: binary search for the last child starting at or before offset
    let lo = 0;
    let hi = kids.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (kids[mid].offset <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const next: JsonNode | undefined = found >= 0 ? kids[found] : undefined;
    if (!next || !contains(next, offset, includeEnd)) return node;
    node = next;
  }
}

function contains(node: JsonNode, offset: number, includeEnd: boolean): boolean {
  return (
    offset >= node.offset &&
    (offset < node.offset + node.length || (includeEnd && offset === node.offset + node.length))
  );
}

/** The range of a property's key, or of the node itself: where a diagnostic about a value's field goes. */
export function keyOrSelf(node: JsonNode): JsonNode {
  const p = node.parent;
  return p?.type === 'property' && p.children![1] === node ? p.children![0] : node;
}
