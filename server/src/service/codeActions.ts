import {
  CodeAction,
  CodeActionKind,
  Command,
  type Diagnostic,
  type Range,
  TextEdit,
} from 'vscode-languageserver-types';
import {
  appendMember,
  indentUnit,
  lineIndent,
  reindent,
  removeProperty,
  replaceNode,
  type OffsetEdit,
} from './json/edits';
import { escapeJsonContent } from './json/embeddedText';
import { pythonStringContent } from './python/strings';
import { child, nodeAtOffset, nodeAtPath, property } from './json/nodes';
import type { JsonNode } from './json/tree';
import type { ToolModel } from './model';
import { toRange } from './positions';
import { schemaAt, type SchemaNode } from './schema';
import { isRuleCode } from './rules';
import { nowTimestamp } from './timestamp';
import type { FixData } from './validation/context';
import { STORE_SECRET_COMMAND } from './clientCommands';

const MAX_CANDIDATES = 3;

export interface CodeActionOptions {
  /** The client runs STORE_SECRET_COMMAND: a secret may be moved out of the file into its storage. */
  readonly storesSecrets?: boolean;
}

export function doCodeActions(
  model: ToolModel,
  range: Range,
  diagnostics: readonly Diagnostic[],
  options: CodeActionOptions = {},
): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    if (d.source !== 'tooldef' || !isRuleCode(d.code) || !d.data) continue;
    for (const { title, edits, preferred, command } of fixesFor(model, d, d.data as FixData, options)) {
      const action = CodeAction.create(
        title,
        { changes: { [model.document.uri]: edits.map((e) => toTextEdit(model, e)) } },
        CodeActionKind.QuickFix,
      );
      action.diagnostics = [d];
      if (preferred) action.isPreferred = true;
      if (command) action.command = command;
      actions.push(action);
    }
  }
  // "Update timestamp to now": the fix of an invalid timestamp, and a refactoring on any timestamp.
  const invalid = diagnostics.find((d) => d.source === 'tooldef' && d.code === 'invalid-timestamp');
  const ts = timestampAt(model, model.offsetAt(invalid?.range.start ?? range.start));
  if (ts) {
    const edit = {
      changes: { [model.document.uri]: [toTextEdit(model, replaceNode(ts, JSON.stringify(nowTimestamp())))] },
    };
    const action = CodeAction.create(
      'Update timestamp to now',
      edit,
      invalid ? CodeActionKind.QuickFix : CodeActionKind.RefactorRewrite,
    );
    if (invalid) {
      action.diagnostics = [invalid];
      action.isPreferred = true;
    }
    actions.push(action);
  }
  return actions;
}

interface Fix {
  readonly title: string;
  readonly edits: OffsetEdit[];
  readonly preferred?: boolean;
  /** Run by the client after the edit (what an edit cannot do, such as storing a secret). */
  readonly command?: Command;
}

/** Fixes that restructure the document (append, move, flatten) need a tree of valid JSON. */
/** What a hard-coded secret is replaced with: the service's own convention for a key to fill in. */
const SECRET_PLACEHOLDER = '<API_KEY>';

const STRUCTURAL = new Set<FixData['fix']>(['move-field', 'flatten-avatar', 'add-field']);

function fixesFor(model: ToolModel, d: Diagnostic, data: FixData, options: CodeActionOptions): Fix[] {
  const at = model.offsetAt(d.range.start);
  if (model.json.syntaxErrors.length && STRUCTURAL.has(data.fix)) return [];
  switch (data.fix) {
    case 'replace':
      return data.candidates.slice(0, MAX_CANDIDATES).map((c, i) => ({
        title: `Change to ${data.quoted ? JSON.stringify(c) : `"${c}"`}`,
        edits: [replaceNode(data, data.quoted ? JSON.stringify(c) : escapeJsonContent(c))],
        preferred: i === 0 && data.candidates.length === 1,
      }));
    case 'remove-import':
      return [{ title: 'Remove the unused import', edits: [replaceNode(data, '')], preferred: true }];
    case 'unquote':
      return [{ title: `Change to ${data.literal}`, edits: [replaceNode(data, data.literal)], preferred: true }];
    case 'unknown-name': {
      const write = (name: string): string =>
        escapeJsonContent(data.pythonQuote ? pythonStringContent(name, data.pythonQuote) : name);
      const fixes: Fix[] = data.candidates.slice(0, MAX_CANDIDATES).map((c, i) => ({
        title: `Change to "${c}"`,
        edits: [replaceNode(data, write(c))],
        preferred: i === 0,
      }));
      const add = model.json.syntaxErrors.length ? undefined : addVariable(model, data.name);
      if (add) fixes.push({ title: `Add variable "${data.name}"`, edits: [add] });
      return fixes;
    }
    case 'close-placeholder':
      return closePlaceholder(model, data.at);
    case 'trim-placeholder':
      return [
        {
          title: `Remove the spaces: {{${data.name}}}`,
          edits: [replaceNode(data, escapeJsonContent(data.name))],
          preferred: true,
        },
      ];
    case 'rename-key': {
      const key = nodeAtOffset(model.root, at);
      if (key?.type !== 'string') return [];
      return data.candidates.slice(0, MAX_CANDIDATES).map((c, i) => ({
        title: `Rename to "${c}"`,
        edits: [replaceNode(key, JSON.stringify(c))],
        preferred: i === 0,
      }));
    }
    case 'wrap-array': {
      const node = nodeAtOffset(model.root, at);
      if (!node) return [];
      return [
        {
          title: 'Wrap in an array',
          edits: [replaceNode(node, `[${model.text.slice(node.offset, node.offset + node.length)}]`)],
          preferred: true,
        },
      ];
    }
    case 'unwrap-array': {
      const node = nodeAtOffset(model.root, at);
      if (node?.type !== 'array') return [];
      const item = node.children![0];
      return [
        {
          title: 'Unwrap the array',
          edits: [replaceNode(node, item ? model.text.slice(item.offset, item.offset + item.length) : '""')],
          preferred: true,
        },
      ];
    }
    case 'move-field':
      return moveField(model, data.from, data.to);
    case 'secret-placeholder': {
      const literal = `${data.quote}${SECRET_PLACEHOLDER}${data.quote}`;
      const value = options.storesSecrets ? literalValue(model, data) : undefined;
      const name = value === undefined ? undefined : freeSecretName(model);
      const moved = name && `${data.quote}<${name}>${data.quote}`;
      return [
        ...(moved
          ? [
              {
                title: `Move to secret <${name}>`,
                edits: [replaceNode(data, escapeJsonContent(moved))],
                preferred: true,
                command: Command.create(`Keep <${name}> in secret storage`, STORE_SECRET_COMMAND, name, value),
              },
            ]
          : []),
        {
          title: `Replace the secret with ${literal}`,
          edits: [replaceNode(data, escapeJsonContent(literal))],
          preferred: !moved,
        },
      ];
    }
    case 'add-field':
      return addField(model, data.path, data.key);
    case 'flatten-avatar':
      return flattenAvatar(model);
    case 'add-requirement':
      return addRequirement(model, data.distribution);
  }
}

/**
 * The value of a secret's Python literal (`"sk-…"`, `r'…'`), read from the document; undefined for one
 * whose value would take decoding beyond its quotes (escapes, bytes, f-strings).
 */
function literalValue(model: ToolModel, span: { offset: number; length: number }): string | undefined {
  let source: string;
  try {
    source = JSON.parse(`"${model.text.slice(span.offset, span.offset + span.length)}"`) as string;
  } catch {
    return undefined;
  }
  const m = /^([rRuU]?)('''|"""|'|")([\s\S]*)\2$/.exec(source);
  if (!m || (!/r/i.test(m[1]) && m[3].includes('\\'))) return undefined;
  return m[3] || undefined;
}

/** `API_KEY`, else the first of `API_KEY_2`, `API_KEY_3` … that tool_code does not reference yet. */
function freeSecretName(model: ToolModel): string {
  const code = model.python?.embedded.text ?? '';
  for (let i = 1; ; i++) {
    const name = i === 1 ? 'API_KEY' : `API_KEY_${i}`;
    if (!code.includes(`<${name}>`)) return name;
  }
}

function addVariable(model: ToolModel, name: string): OffsetEdit | undefined {
  const metadata = model.metadata;
  if (!metadata) return undefined;
  const fields: [string, string][] = [
    ['name', name],
    ...(model.kind === 'llm' ? [['type', 'text'] as [string, string]] : []),
    ['description', ''],
    ['default', ''],
  ];
  const unit = indentUnit(model.text);
  const item = `{\n${fields.map(([k, v]) => `${unit}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}`;
  const variables = child(metadata, 'variables');
  if (variables?.type === 'array') return appendMember(model.text, variables, undefined, item);
  if (variables) return undefined;
  return appendMember(model.text, metadata, 'variables', `[\n${unit}${reindent(item, '', unit)}\n]`);
}

function addRequirement(model: ToolModel, distribution: string): Fix[] {
  const metadata = model.metadata;
  if (!metadata || model.json.syntaxErrors.length) return [];
  const title = `Add "${distribution}" to requirements`;
  const node = child(metadata, 'requirements');
  if (!node)
    return [
      {
        title,
        edits: [appendMember(model.text, metadata, 'requirements', JSON.stringify(distribution))],
        preferred: true,
      },
    ];
  if (node.type !== 'string') return [];
  const embedded = model.embedded(node);
  const current = embedded.text;
  const line = current === '' || current.endsWith('\n') ? distribution : `\n${distribution}`;
  return [
    { title, edits: [{ offset: embedded.contentEnd, length: 0, newText: escapeJsonContent(line) }], preferred: true },
  ];
}

/**
 * `}}` after each declared name the text after an unclosed `{{` (ending at decoded offset `at`) begins
 * with, the longest first. Worked out here, when the fixes are asked for, not for every unclosed `{{`
 * at each validation.
 */
function closePlaceholder(model: ToolModel, at: number): Fix[] {
  const prompt = model.prompt;
  if (!prompt) return [];
  const names = [...model.variablesByName.keys()]
    .filter((n) => n.trim() && prompt.embedded.text.startsWith(n, at))
    .sort((a, b) => b.length - a.length);
  return names.slice(0, MAX_CANDIDATES).map((name, i) => ({
    title: `Close as {{${name}}}`,
    edits: [
      { offset: prompt.embedded.rangeToDocument(at + name.length, at + name.length).offset, length: 0, newText: '}}' },
    ],
    preferred: i === 0,
  }));
}

/** Adds a missing field with an empty value of its type (an enum's first value; a timestamp: now). */
function addField(model: ToolModel, path: (string | number)[], key: string): Fix[] {
  const target = nodeAtPath(model.root, path);
  if (target?.type !== 'object' || property(target, key) || !model.kind) return [];
  const schema = schemaAt(model.kind, [...path, key]);
  const value = key === 'timestamp' ? JSON.stringify(nowTimestamp()) : emptyValue(schema);
  return [{ title: `Add "${key}"`, edits: [appendMember(model.text, target, key, value)], preferred: true }];
}

function emptyValue(schema: SchemaNode | undefined): string {
  if (schema?.enum?.length) return JSON.stringify(schema.enum[0]);
  const type = Array.isArray(schema?.type) ? schema.type[0] : (schema?.type ?? schema?.anyOf?.[0]?.type);
  return { number: '0', integer: '0', boolean: 'false', array: '[]', object: '{}' }[String(type)] ?? '""';
}

function moveField(model: ToolModel, from: (string | number)[], to: (string | number)[]): Fix[] {
  const key = String(from[from.length - 1]);
  const source = nodeAtPath(model.root, from.slice(0, -1));
  const prop = property(source, key);
  if (!prop) return [];
  const propText = model.text.slice(prop.offset, prop.offset + prop.length);
  const valueText = reindent(propText.slice(propText.indexOf(':') + 1).trim(), lineIndent(model.text, prop.offset), '');
  const remove = removeProperty(prop);
  // Find or create the target container, creating missing levels on the way.
  let target: JsonNode | undefined = model.root;
  let i = 0;
  for (; i < to.length; i++) {
    const next = child(target, String(to[i]));
    if (next?.type !== 'object') break;
    target = next;
  }
  if (!target || target.type !== 'object') return [];
  if (i < to.length && child(target, String(to[i]))) return []; // exists but is not an object: leave it to the user
  if (i === to.length && property(target, key)) return []; // the target already has this field
  // Wrap the value in the levels of `to` that do not exist yet.
  const unit = indentUnit(model.text);
  let value = valueText;
  let insertKey = key;
  for (let j = to.length - 1; j >= i; j--) {
    value = `{\n${unit}${JSON.stringify(insertKey)}: ${reindent(value, '', unit)}\n}`;
    insertKey = String(to[j]);
  }
  const insert = appendMember(model.text, target, insertKey, value);
  const where = to.length ? `"${to.join('.')}"` : 'the top level';
  return [{ title: `Move "${key}" into ${where}`, edits: [remove, insert], preferred: true }];
}

function flattenAvatar(model: ToolModel): Fix[] {
  const metadata = model.metadata;
  const prop = property(metadata, 'avatar');
  const nested = prop?.children?.[1];
  if (!metadata || nested?.type !== 'object') return [];
  const indent = lineIndent(model.text, prop!.offset);
  const members = nested.children!.map((p) => model.text.slice(p.offset, p.offset + p.length).trim());
  const edits: OffsetEdit[] = [replaceNode(prop!, members.join(`,\n${indent}`) || '"avatar": ""')];
  const outerType = property(metadata, 'avatar_type');
  if (outerType && property(nested, 'avatar_type')) edits.push(removeProperty(outerType));
  return [{ title: 'Move avatar_type and avatar directly into metadata', edits: sortEdits(edits), preferred: true }];
}

function sortEdits(edits: OffsetEdit[]): OffsetEdit[] {
  return edits.sort((a, b) => a.offset - b.offset);
}

function timestampAt(model: ToolModel, offset: number): JsonNode | undefined {
  const ts = child(model.metadata, 'timestamp');
  return ts?.type === 'string' && offset >= ts.offset && offset <= ts.offset + ts.length ? ts : undefined;
}

function toTextEdit(model: ToolModel, e: OffsetEdit): TextEdit {
  return TextEdit.replace(toRange(model, e), e.newText);
}
