import {
  type CompletionItem,
  CompletionItemKind,
  CompletionList,
  InsertTextFormat,
  MarkupKind,
  TextEdit,
} from 'vscode-languageserver-types';
import { toRange } from './positions';
import { pythonAnalysis } from './python/load';
import { pythonStringContent } from './python/strings';
import { escapeJsonContent } from './json/embeddedText';
import { nodeAtOffset, pathOf, property, type JsonPath } from './json/nodes';
import type { JsonNode } from './json/tree';
import { RECOMMENDED } from './fields';
import type { Kind } from './kind';
import type { ToolModel } from './model';
import { propertiesAt, schemaAt, type SchemaNode } from './schema';
import type { Settings } from './settings';
import { nowTimestamp } from './timestamp';

type Replace = { offset: number; length: number };

export function doComplete(model: ToolModel, offset: number, settings: Settings, trigger?: string): CompletionList {
  const wanted = model.kind && (trigger === undefined || opensList(model, offset, trigger));
  return CompletionList.create(wanted ? complete(model, model.kind!, offset, settings) : [], false);
}

/**
 * Whether typing `trigger` just before `offset` should open the list: `"` anywhere (a key or a value
 * begins), `{` only as the second brace of a placeholder in model_prompt, `:` only where a property's
 * value goes. Elsewhere (a `{` opening an object, a `:` inside a timestamp) the list would pop up
 * unasked and Enter would insert an item instead of a line break.
 */
function opensList(model: ToolModel, offset: number, trigger: string): boolean {
  if (trigger === '"') return true;
  const node = model.root && nodeAtOffset(model.root, offset, true);
  if (trigger === '{')
    return node !== undefined && node === model.prompt?.node && model.text.slice(offset - 2, offset) === '{{';
  if (trigger === ':') return node?.type === 'property' && node.colonOffset === offset - 1;
  return false;
}

function complete(model: ToolModel, kind: Kind, offset: number, settings: Settings): CompletionItem[] {
  const root = model.root;
  if (!root) return [];
  const node = nodeAtOffset(root, offset, true);
  if (!node) return [];
  if (
    node.type === 'string' &&
    offset > node.offset &&
    (offset < node.offset + node.length || !closedString(model.text, node))
  ) {
    if (node === model.prompt?.node) return placeholderItems(model, offset);
    if (node === model.pythonNode) return variableKeyItems(model, node, offset);
    const parent = node.parent;
    if (parent?.type === 'property' && parent.children![0] === node) {
      return propertyItems(model, kind, parent.parent!, node, parent.colonOffset === undefined);
    }
    return valueItems(model, kind, pathOf(node), node, settings);
  }
  if (node.type === 'object' && !insideChild(node, offset))
    return propertyItems(model, kind, node, { offset, length: 0 }, true);
  if (node.type === 'property' && node.colonOffset !== undefined && offset > node.colonOffset) {
    // Only where the value is missing: before an existing value there is nothing to complete.
    if (node.children![1]) return [];
    return valueItems(
      model,
      kind,
      [...pathOf(node.parent!), String(node.children![0].value)],
      { offset, length: 0 },
      settings,
      true,
    );
  }
  if (node.type === 'array' && !insideChild(node, offset))
    return valueItems(model, kind, [...pathOf(node), node.children!.length], { offset, length: 0 }, settings, true);
  return [];
}

function closedString(text: string, node: JsonNode): boolean {
  return node.length >= 2 && text.charCodeAt(node.offset + node.length - 1) === 0x22;
}

function insideChild(node: JsonNode, offset: number): boolean {
  return (node.children ?? []).some((c) => offset > c.offset && offset < c.offset + c.length);
}

/** After `{{` in model_prompt: the declared variable names. */
function placeholderItems(model: ToolModel, offset: number): CompletionItem[] {
  const prompt = model.prompt!;
  const text = prompt.embedded.text;
  const d = prompt.embedded.toDecoded(offset);
  if (prompt.embedded.toDocument(d) !== offset) return []; // the cursor is inside an escape such as \u00e9
  const open = text.lastIndexOf('{{', d - 1);
  if (open < 0 || open + 2 > d) return [];
  const typed = text.slice(open + 2, d);
  if (typed.includes('}}') || typed.includes('\n')) return [];
  const close = text.indexOf('}}', d);
  const nextOpen = text.indexOf('{{', d);
  const closed = close >= 0 && (nextOpen < 0 || close < nextOpen) && !text.slice(d, close).includes('\n');
  const range = toRange(model, prompt.embedded.rangeToDocument(open + 2, closed ? close : d));
  return model.variables
    .filter((v) => v.name)
    .map((v, i) => ({
      label: v.name!,
      kind: CompletionItemKind.Variable,
      detail: v.type ?? 'text',
      documentation: v.description ? { kind: MarkupKind.Markdown, value: v.description } : undefined,
      sortText: String(i).padStart(4, '0'),
      filterText: v.name!,
      textEdit: TextEdit.replace(range, escapeJsonContent(v.name!) + (closed ? '' : '}}')),
    }));
}

/**
 * Inside `variables["…"]` or `variables.get("…")` in tool_code: the declared variable names. Only the
 * decoded code is read, not its analysis, which may still be running.
 */
function variableKeyItems(model: ToolModel, node: JsonNode, offset: number): CompletionItem[] {
  const code = model.embedded(node);
  const d = code.toDecoded(offset);
  if (code.toDocument(d) !== offset) return []; // inside a JSON escape
  const key = pythonAnalysis().variableKeyAt(code.text, d);
  if (!key) return [];
  const range = toRange(model, code.rangeToDocument(key.start, key.end));
  return model.variables
    .filter((v) => v.name)
    .map((v, i) => ({
      label: v.name!,
      kind: CompletionItemKind.Variable,
      detail: 'variable',
      documentation: v.description ? { kind: MarkupKind.Markdown, value: v.description } : undefined,
      sortText: String(i).padStart(4, '0'),
      textEdit: TextEdit.replace(range, escapeJsonContent(pythonStringContent(v.name!, key.quote))),
    }));
}

function propertyItems(
  model: ToolModel,
  kind: Kind,
  obj: JsonNode,
  replace: Replace,
  withValue: boolean,
): CompletionItem[] {
  const path = pathOf(obj);
  const props = propertiesAt(kind, path);
  const required = new Set(schemaAt(kind, path)?.required ?? []);
  const recommended = new Set(path.length === 1 && path[0] === 'metadata' ? RECOMMENDED[kind].metadata : []);
  const range = toRange(model, replace);
  const comma = withValue && followedByMember(model.text, replace.offset + replace.length) ? ',' : '';
  const items: CompletionItem[] = [];
  for (const [key, schema] of Object.entries(props)) {
    const existing = property(obj, key);
    if (existing && existing.children![0].offset !== replace.offset) continue;
    const rank = required.has(key) ? 0 : recommended.has(key) ? 1 : key === '$schema' ? 3 : 2;
    items.push({
      label: key,
      kind: CompletionItemKind.Property,
      detail: required.has(key) ? 'required' : recommended.has(key) ? 'recommended' : undefined,
      documentation: schema.description ? { kind: MarkupKind.Markdown, value: schema.description } : undefined,
      sortText: `${rank}${key}`,
      filterText: replace.length ? `"${key}"` : key,
      insertTextFormat: InsertTextFormat.Snippet,
      textEdit: TextEdit.replace(
        range,
        `"${key}"` +
          (withValue ? `: ${key === 'timestamp' ? `"\${1:${nowTimestamp()}}"` : valueSnippet(schema)}${comma}` : ''),
      ),
      // Values with known choices get their suggestions right away, as VS Code's JSON support does.
      command:
        withValue && (schema.enum || key === 'model_version')
          ? { title: 'Suggest', command: 'editor.action.triggerSuggest' }
          : undefined,
    });
  }
  return items;
}

function followedByMember(text: string, from: number): boolean {
  const m = /\S/.exec(text.slice(from, from + 200));
  return !!m && (m[0] === '"' || m[0] === '{' || m[0] === '[');
}

/** A snippet for a property's value, from the schema's `defaultSnippets` or its type. */
export function valueSnippet(schema: SchemaNode): string {
  const body = schema.defaultSnippets?.[0]?.body;
  if (body !== undefined) return snippetOf(body, '');
  if (schema.enum) return `"\${1|${schema.enum.join(',')}|}"`;
  const type = Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? schema.anyOf?.[0]?.type);
  switch (type) {
    case 'string':
      return '"$1"';
    case 'number':
    case 'integer':
      return '${1:0}';
    case 'boolean':
      return '${1:false}';
    case 'array':
      return '[$1]';
    case 'object':
      return '{$1}';
    default:
      return '$1';
  }
}

/** JSON text of a snippet body; strings starting with `^` are inserted raw (VS Code's convention). */
function snippetOf(body: unknown, indent: string): string {
  if (typeof body === 'string') return body.startsWith('^') ? body.slice(1) : `"${body}"`;
  if (Array.isArray(body)) return `[${body.map((b) => snippetOf(b, indent)).join(', ')}]`;
  if (body && typeof body === 'object') {
    const inner = indent + '\t';
    const members = Object.entries(body).map(([k, v]) => `${inner}"${k}": ${snippetOf(v, inner)}`);
    return `{\n${members.join(',\n')}\n${indent}}`;
  }
  return String(body);
}

function valueItems(
  model: ToolModel,
  kind: Kind,
  path: JsonPath,
  replace: Replace,
  settings: Settings,
  bare = false,
): CompletionItem[] {
  const range = toRange(model, replace);
  const comma = bare && followedByMember(model.text, replace.offset) ? ',' : '';
  const quoted = (
    value: string,
    kindOf: CompletionItemKind,
    detail?: string,
    doc?: string,
    sort?: number,
  ): CompletionItem => ({
    label: value,
    kind: kindOf,
    detail,
    documentation: doc ? { kind: MarkupKind.Markdown, value: doc } : undefined,
    sortText: sort === undefined ? undefined : String(sort).padStart(4, '0'),
    filterText: replace.length ? JSON.stringify(value) : value,
    textEdit: TextEdit.replace(range, JSON.stringify(value) + comma),
  });
  const last = path[path.length - 1];
  const parentKey = typeof last === 'number' ? path[path.length - 2] : last;
  // model_version, either the string form or an item of the array
  if (path[0] === 'metadata' && path[1] === 'model_version') {
    return settings.knownModels
      .filter((m) => m !== '')
      .map((m, i) => quoted(m, CompletionItemKind.EnumMember, 'model id', undefined, i));
  }
  if (path[0] === 'metadata' && path[1] === 'timestamp') {
    return [
      quoted(nowTimestamp(), CompletionItemKind.Value, 'now (UTC)', 'The current time as an ISO 8601 date-time.'),
    ];
  }
  if (path[0] === 'metadata' && path[1] === 'variables' && typeof path[2] === 'number' && path[3] === 'default') {
    const v = model.variables[path[2]];
    return (v?.allowedValues ?? [])
      .filter((a) => a !== '')
      .map((a, i) => quoted(a, CompletionItemKind.EnumMember, 'allowed value', undefined, i));
  }
  const schema = schemaAt(kind, path);
  if (!schema) return [];
  if (schema.enum) {
    return schema.enum.map((e, i) =>
      quoted(e, CompletionItemKind.EnumMember, String(parentKey), schema.enumDescriptions?.[i], i),
    );
  }
  if (bare) {
    const snippet = valueSnippet(schema);
    const label =
      schema.defaultSnippets?.[0]?.label ?? (typeof last === 'number' ? 'new item' : `${String(last)} value`);
    return [
      {
        label,
        kind: CompletionItemKind.Snippet,
        insertTextFormat: InsertTextFormat.Snippet,
        textEdit: TextEdit.replace(range, snippet + comma),
        documentation: schema.description,
      },
    ];
  }
  return [];
}
