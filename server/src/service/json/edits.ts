import type { JsonNode } from './tree';

/** A text edit in offsets; converted to LSP ranges at the service's edge. */
export interface OffsetEdit {
  readonly offset: number;
  readonly length: number;
  readonly newText: string;
}

export function replaceNode(node: { offset: number; length: number }, newText: string): OffsetEdit {
  return { offset: node.offset, length: node.length, newText };
}

/** Removes a property together with the comma that separates it from a neighbour. */
export function removeProperty(prop: JsonNode): OffsetEdit {
  const siblings = prop.parent!.children!;
  const i = siblings.indexOf(prop);
  if (i + 1 < siblings.length)
    return { offset: prop.offset, length: siblings[i + 1].offset - prop.offset, newText: '' };
  if (i > 0) {
    const prevEnd = siblings[i - 1].offset + siblings[i - 1].length;
    return { offset: prevEnd, length: prop.offset + prop.length - prevEnd, newText: '' };
  }
  const obj = prop.parent!;
  return { offset: obj.offset + 1, length: obj.length - 2, newText: '' };
}

/**
 * Appends `"key": value` to an object (or an item to an array when `key` is undefined), indented
 * like its siblings; `valueText` may span lines written at indentation 0.
 */
export function appendMember(
  text: string,
  container: JsonNode,
  key: string | undefined,
  valueText: string,
): OffsetEdit {
  return appendMembers(text, container, [[key, valueText]]);
}

/** Appends several members in one edit (two inserts at one place would be ambiguous). */
export function appendMembers(
  text: string,
  container: JsonNode,
  members: readonly (readonly [string | undefined, string])[],
): OffsetEdit {
  const kids = container.children ?? [];
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const member = ([key, valueText]: readonly [string | undefined, string], indent: string): string =>
    ((key === undefined ? '' : `${JSON.stringify(key)}: `) + reindent(valueText, '', indent)).replace(/\r?\n/g, eol);
  if (kids.length) {
    const last = kids[kids.length - 1];
    const indent = lineIndent(text, last.offset);
    const sameLine = !text.slice(container.offset, last.offset).includes('\n');
    const sep = sameLine ? ', ' : `,${eol}${indent}`;
    return {
      offset: last.offset + last.length,
      length: 0,
      newText: members.map((m) => sep + member(m, indent)).join(''),
    };
  }
  const outer = lineIndent(text, container.offset);
  const inner = outer + indentUnit(text);
  const close = container.offset + container.length - 1;
  const body = members.map((m) => inner + member(m, inner)).join(`,${eol}`);
  return {
    offset: container.offset + 1,
    length: Math.max(0, close - container.offset - 1),
    newText: `${eol}${body}${eol}${outer}`,
  };
}

/** Leading whitespace of the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, Math.min(offset, lineStart + 200)))![0];
}

/** The document's indentation step, guessed from its first indented line. */
export function indentUnit(text: string): string {
  const m = /\n([ \t]+)\S/.exec(text.slice(0, 10_000));
  return m ? m[1] : '  ';
}

/** Re-bases the continuation lines of a multi-line snippet from one indentation to another. */
export function reindent(snippet: string, from: string, to: string): string {
  return snippet
    .split('\n')
    .map((line, i) => (i === 0 ? line : line.startsWith(from) ? to + line.slice(from.length) : to + line.trimStart()))
    .join('\n');
}
