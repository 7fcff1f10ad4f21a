import smartSchema from '../../../schemas/smart-tool.schema.json';
import llmSchema from '../../../schemas/llm-tool.schema.json';
import type { Kind } from './kind';

/** The parts of our own JSON schemas the features read: the schemas are the one source of field docs. */
export interface SchemaNode {
  readonly type?: string | string[];
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly enumDescriptions?: readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly examples?: readonly unknown[];
  readonly defaultSnippets?: readonly { label?: string; body: unknown }[];
  readonly deprecationMessage?: string;
}

const SCHEMAS: Record<Kind, SchemaNode> = { smart: smartSchema as SchemaNode, llm: llmSchema as SchemaNode };

/** The schema of the value at `path` (array indices are numbers), looking into `anyOf` branches. */
export function schemaAt(kind: Kind, path: readonly (string | number)[]): SchemaNode | undefined {
  let s: SchemaNode | undefined = SCHEMAS[kind];
  for (const seg of path) {
    if (!s) return undefined;
    s =
      typeof seg === 'number'
        ? branches(s).find((b) => b.items)?.items
        : branches(s).find((b) => b.properties?.[seg])?.properties?.[seg];
  }
  return s;
}

/** The object branch's properties of the schema at `path`. */
export function propertiesAt(kind: Kind, path: readonly (string | number)[]): Readonly<Record<string, SchemaNode>> {
  const s = schemaAt(kind, path);
  return (s && branches(s).find((b) => b.properties)?.properties) ?? {};
}

export function branches(s: SchemaNode): readonly SchemaNode[] {
  return s.anyOf ? [s, ...s.anyOf] : [s];
}

/** Whether the schema accepts a value of JSON Schema type `type` (in any of its branches). */
export function acceptsType(s: SchemaNode, type: string): boolean {
  return branches(s).some((b) => (Array.isArray(b.type) ? b.type.includes(type) : b.type === type));
}

/** Human words for a schema's accepted types: "a string or an array of strings". */
export function describeTypes(s: SchemaNode): string {
  const words = branches(s)
    .flatMap((b) =>
      b.type === undefined ? [] : Array.isArray(b.type) ? b.type.map((t) => ({ type: t }) as SchemaNode) : [b],
    )
    .map(typeWord);
  return [...new Set(words)].join(' or ');
}

function typeWord(s: SchemaNode): string {
  switch (s.type) {
    case 'array':
      return s.items?.type === 'string'
        ? 'an array of strings'
        : s.items?.type === 'object'
          ? 'an array of objects'
          : 'an array';
    case 'object':
      return 'an object';
    case 'integer':
      return 'an integer';
    default:
      return `a ${String(s.type)}`;
  }
}

export function jsonTypeWord(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return 'a string';
}
