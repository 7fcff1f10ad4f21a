import { MarkupKind, type Hover } from 'vscode-languageserver-types';
import { inspectBase64Image } from './avatar';
import { formatBytes } from './format';
import { child, nodeAtOffset, pathOf } from './json/nodes';
import type { JsonNode } from './json/tree';
import type { ToolModel, VariableDecl } from './model';
import { toRange } from './positions';
import { describeTypes, schemaAt } from './schema';
import { variableAt } from './variableRefs';

/** Larger images are described, not shown: a hover should stay instant. */
const MAX_INLINE_IMAGE = 200 * 1024;

/** `remoteImages`: whether an avatar given as a URL may be shown (fetched): not in Restricted Mode. */
export function doHover(model: ToolModel, offset: number, remoteImages = false): Hover | null {
  const kind = model.kind;
  if (!kind || !model.root) return null;
  const target = variableAt(model, offset);
  // An undeclared name has its diagnostic (with its suggestion), which the hover shows: nothing to add.
  if (target) return target.decl ? variableHover(model, target.decl, target.span) : null;
  const node = nodeAtOffset(model.root, offset);
  if (!node || node.type === 'object' || node.type === 'array') return null;
  const isKey = node.parent?.type === 'property' && node.parent.children![0] === node;
  const valueNode = isKey ? node.parent!.children![1] : node;
  const path = isKey ? [...pathOf(node.parent!.parent!), String(node.value)] : pathOf(node);
  if (
    !isKey &&
    valueNode?.type === 'string' &&
    path[0] === 'metadata' &&
    path[1] === 'avatar' &&
    (path.length === 2 || path[2] === 'avatar')
  ) {
    const md = describeAvatar(model, valueNode, remoteImages);
    if (md) return { contents: { kind: MarkupKind.Markdown, value: md }, range: toRange(model, node) };
  }
  const schema = schemaAt(kind, path);
  if (!schema?.description) return null;
  const name = path[path.length - 1];
  const title = typeof name === 'number' ? `item ${name}` : `\`${name}\``;
  const parts = [`**${title}** — ${describeTypes(schema) || 'value'}`, schema.description];
  if (!isKey && schema.enum && node.type === 'string') {
    const i = schema.enum.indexOf(node.value as string);
    if (i >= 0 && schema.enumDescriptions?.[i])
      parts.push(`\`"${node.value as string}"\`: ${schema.enumDescriptions[i]}`);
  }
  return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n') }, range: toRange(model, node) };
}

function variableHover(model: ToolModel, decl: VariableDecl, span: { offset: number; length: number }): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: describeVariable(model, decl) }, range: toRange(model, span) };
}

export function describeVariable(model: ToolModel, v: VariableDecl): string {
  const lines = [`**Variable \`${v.name}\`** — ${model.kind === 'llm' ? (v.type ?? 'text') : 'string'}`];
  if (v.description) lines.push(v.description);
  const d = v.defaultNode;
  if (d)
    lines.push(
      `Default: \`${d.type === 'string' ? JSON.stringify(d.value) : model.text.slice(d.offset, d.offset + Math.min(d.length, 200))}\``,
    );
  if (v.allowedValues?.length) lines.push(`Allowed values: ${v.allowedValues.map((a) => `\`${a}\``).join(', ')}`);
  return lines.join('\n\n');
}

function describeAvatar(model: ToolModel, value: JsonNode, remoteImages: boolean): string | undefined {
  const text = value.value as string;
  if (!text) return 'Empty avatar: the workspace shows its default icon.';
  const holder = value.parent?.parent;
  const typeNode = child(holder, 'avatar_type') ?? child(model.metadata, 'avatar_type');
  if (typeNode?.value === 'url' || /^https?:\/\//.test(text.slice(0, 16)))
    return remoteImages
      ? `![avatar](${text.replace(/[()\s]/g, percentEncoded)})\n\n${text}`
      : `${text}\n\n(Not previewed in Restricted Mode, which fetches nothing an author names: trust the workspace to see it.)`;
  const info = inspectBase64Image(text);
  if (!info.ok)
    return info.problem === 'not-image'
      ? `Not an image (${formatBytes(info.bytes)} of data).`
      : `Invalid base64: ${info.reason}.`;
  const size = info.width && info.height ? `${info.width}×${info.height} px` : 'vector image';
  const summary = `**Avatar** — ${info.type.toUpperCase()}, ${size}, ${formatBytes(info.bytes)}`;
  if (text.length > MAX_INLINE_IMAGE) return `${summary}\n\n(too large to preview in a hover)`;
  return `![avatar](data:${info.mime};base64,${text.replace(/\s+/g, '')})\n\n${summary}`;
}

/** A character as `%XX` (encodeURIComponent leaves `(` and `)`, which would end a Markdown link). */
function percentEncoded(c: string): string {
  return [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
