import * as validators from '../../generated/validators';
import { child, keyOrSelf, pathOf, property } from '../json/nodes';
import type { JsonNode } from '../json/tree';
import { HOME_PATH, homeAt, homeOf, RECOMMENDED } from '../fields';
import { acceptsType, describeTypes, jsonTypeWord, propertiesAt, schemaAt, type SchemaNode } from '../schema';
import { closest } from '../similar';
import type { Validator } from './context';

/** Values whose type other rules judge with more precise codes (`default-type-mismatch`). */
const OWNED = /^\/metadata\/variables\/\d+\/default(\/|$)/;

/** Structural checks from the JSON schema (missing, wrong-type, invalid-enum, unknown and misplaced fields). */
export const shape: Validator = (ctx) => {
  const { model } = ctx;
  const kind = model.kind;
  const root = model.root;
  if (!kind || root?.type !== 'object') return;
  const validate = validators[kind];
  validate(model.json.value);
  const errors = validate.errors ?? [];
  const anyOfSchemas = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.schemaPath + '/');
  for (const e of errors) {
    if (OWNED.test(e.instancePath)) continue;
    if (anyOfSchemas.some((p) => e.schemaPath.startsWith(p))) continue; // the anyOf error speaks for its branches
    const node = nodeAt(root, e.instancePath);
    if (!node) continue;
    const path = pathOf(node);
    const name = path.length ? `"${path[path.length - 1]}"` : 'The file';
    switch (e.keyword) {
      case 'required': {
        const missing = String((e.params as { missingProperty: string }).missingProperty);
        ctx.report(
          'missing-field',
          anchor(node),
          `Missing required field "${missing}" in ${where(path)}: add it.${hintFor(missing)}`,
          { fix: 'add-field', path, key: missing },
        );
        break;
      }
      case 'additionalProperties': {
        const key = String((e.params as { additionalProperty: string }).additionalProperty);
        const prop = property(node, key);
        if (kind === 'llm' && key === 'tool_code') break; // mixed-kind speaks for it
        if (prop) unknownOrMisplaced(ctx, kind, node, prop, key, path);
        break;
      }
      case 'type':
      case 'anyOf': {
        const schema = schemaAt(kind, path);
        const expected = schema ? describeTypes(schema) : String((e.params as { type?: string }).type);
        const literal = schema && unquotedLiteral(node, schema);
        ctx.report(
          'wrong-type',
          node,
          `${name} must be ${expected}, not ${jsonTypeWord(nodeValueOf(node))}: change the value.`,
          literal === undefined ? undefined : { fix: 'unquote', offset: node.offset, length: node.length, literal },
        );
        break;
      }
      case 'enum': {
        const allowed = (e.params as { allowedValues: string[] }).allowedValues;
        const actual = node.type === 'string' ? String(node.value) : '';
        const near = closest(actual, allowed, allowed.length);
        const candidates = [...near, ...allowed.filter((a) => !near.includes(a))];
        ctx.report(
          'invalid-enum',
          node,
          `${name} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}: replace ${JSON.stringify(nodeValueOf(node))}.`,
          {
            fix: 'replace',
            offset: node.offset,
            length: node.length,
            candidates,
            quoted: true,
          },
        );
        break;
      }
      default:
        ctx.report('wrong-type', node, `${name}: ${e.message ?? 'invalid value'}.`);
    }
  }
  recommended(ctx);
};

function unknownOrMisplaced(
  ctx: Parameters<Validator>[0],
  kind: 'smart' | 'llm',
  container: JsonNode,
  prop: JsonNode,
  key: string,
  path: (string | number)[],
): void {
  const keyNode = prop.children![0];
  const here = homeAt(path);
  const home = homeOf(kind, key);
  if (here && home && home !== here) {
    const target = HOME_PATH[home];
    ctx.report(
      'misplaced-field',
      keyNode,
      `"${key}" belongs in ${where([...target])}, not ${where(path)}: move it there.`,
      {
        fix: 'move-field',
        from: [...path, key],
        to: [...target],
      },
    );
    return;
  }
  const allowed = Object.keys(propertiesAt(kind, path)).filter((k) => k !== '$schema' && !property(container, k));
  const candidates = closest(key, allowed);
  const suggestion = candidates.length
    ? ` Did you mean "${candidates[0]}"?`
    : allowed.length
      ? ` Known fields here: ${allowed.map((a) => `"${a}"`).join(', ')}.`
      : '';
  ctx.report(
    'unknown-field',
    keyNode,
    `Unknown field "${key}" in ${where(path)}: the service ignores it.${suggestion}`,
    candidates.length ? { fix: 'rename-key', candidates } : undefined,
  );
}

/** Warnings for absent recommended fields, anchored like the schema's required ones. */
function recommended(ctx: Parameters<Validator>[0]): void {
  const { model } = ctx;
  const metadata = child(model.root, 'metadata');
  if (!model.kind || metadata?.type !== 'object') return;
  for (const key of RECOMMENDED[model.kind].metadata) {
    if (!property(metadata, key)) {
      ctx.report(
        'missing-recommended-field',
        anchor(metadata),
        `Missing recommended field "${key}" in "metadata": add it.${hintFor(key)}`,
        { fix: 'add-field', path: ['metadata'], key },
      );
    }
  }
}

const HINTS: Record<string, string> = {
  version: ' Use a short dotted version such as "1.0".',
  metadata: ' It holds the tool name, description, variables and the rest.',
  tool_name: ' The file should be named "<tool_name>.json".',
  tool_code: ' It is the Python source defining "def execute(variables):" that returns a str.',
  model_prompt: ' It is the prompt template with "{{variable}}" placeholders.',
  model_version: ' An array of model ids, e.g. ["gpt-4"].',
  creator: ' An object with "name", "email" and "organization".',
  timestamp: ' An ISO 8601 date-time such as "2026-03-14T09:30:00Z".',
};

function hintFor(key: string): string {
  return HINTS[key] ?? '';
}

function where(path: readonly (string | number)[]): string {
  return path.length ? `"${path.join('.')}"` : 'the top level';
}

/** A missing field is reported on the key of the object that should hold it, or the root's opening brace. */
function anchor(obj: JsonNode): JsonNode | { offset: number; length: number } {
  const key = keyOrSelf(obj);
  return key === obj ? { offset: obj.offset, length: 1 } : key;
}

function nodeAt(root: JsonNode, instancePath: string): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  if (!instancePath) return node;
  for (const raw of instancePath.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node) return undefined;
    node = node.type === 'array' ? node.children![Number(seg)] : child(node, seg);
  }
  return node;
}

function nodeValueOf(node: JsonNode): unknown {
  return node.type === 'object' ? {} : node.type === 'array' ? [] : node.value;
}

/** The literal a quoted number or boolean stands for (`"500"` → `500`), where the schema wants that type. */
function unquotedLiteral(node: JsonNode, schema: SchemaNode): string | undefined {
  if (node.type !== 'string' || typeof node.value !== 'string') return undefined;
  const text = node.value.trim();
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    if (acceptsType(schema, 'number') || (acceptsType(schema, 'integer') && Number.isInteger(Number(text))))
      return text;
  }
  if ((text === 'true' || text === 'false') && acceptsType(schema, 'boolean')) return text;
  return undefined;
}
