// Language features of a tests file that come from its definition: the inputs of each case are the
// definition's variables, so their names complete, hover, jump and rename with them.
import type {
  CompletionItem,
  CompletionItemKind,
  Hover,
  InsertTextFormat,
  Location,
  Range,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { escapeJsonContent } from '../json/embeddedText';
import { nodeAtOffset } from '../json/nodes';
import type { JsonNode, ParsedJson } from '../json/tree';
import type { ToolModel, VariableDecl } from '../model';
import type { RenameResult } from '../navigation';
import { toRange } from '../positions';
import { readTestsFile } from './testsFile';

/**
 * A tests file as its features read it, with what they borrow from the definition's own features
 * (passed in, so that this module, loaded apart, does not carry copies of them).
 */
export interface TestsContext {
  readonly doc: TextDocument;
  /** The document's JSON, parsed once per version. */
  readonly json: ParsedJson;
  readonly definition: ToolModel;
  /** A variable's hover text. */
  readonly describe: (v: VariableDecl) => string;
  /** Renames the variable declared at an offset of the definition. */
  readonly rename: (offset: number, newName: string) => RenameResult;
}

// The protocol's enum values as literals: its namespaces would bring a copy of the whole types module
// into dist/tests.js, which this module is loaded from.
const VARIABLE: CompletionItemKind = 6;
const ENUM_MEMBER: CompletionItemKind = 20;
const SNIPPET: InsertTextFormat = 2;
const replace = (range: Range, newText: string): TextEdit => ({ range, newText });

/** Where the cursor is among a case's inputs. */
type InputSpot =
  /** On an input's name (`key`: its string node, absent while a new one is typed outside quotes). */
  | { readonly part: 'key'; readonly inputs: JsonNode; readonly key?: JsonNode }
  /** On an input's value, or on one string of a multi-select value. */
  | { readonly part: 'value'; readonly name: string; readonly value: JsonNode };

/** Variable names in `inputs` (the ones a case does not give yet first), allowed values in an input's value. */
export function testsCompletion(ctx: TestsContext, offset: number): CompletionItem[] {
  const { doc, definition } = ctx;
  const spot = inputAt(ctx.json, offset);
  if (!spot) return [];
  if (spot.part === 'value') {
    const v = definition.variableByName(spot.name);
    const values = v?.allowedValues ?? [];
    const range = toRange(doc, spot.value.type === 'string' ? spot.value : { offset, length: 0 });
    return values.map((value, i) => ({
      label: value,
      kind: ENUM_MEMBER,
      detail: `allowed value of "${spot.name}"`,
      sortText: String(i).padStart(4, '0'),
      filterText: JSON.stringify(value),
      textEdit: replace(range, JSON.stringify(value)),
    }));
  }
  const given = new Set(
    (spot.inputs.children ?? [])
      .map((p) => p.children?.[0])
      .filter((k) => k !== spot.key)
      .map((k) => k?.value),
  );
  const range = toRange(doc, spot.key ?? { offset, length: 0 });
  return definition.variables
    .filter((v): v is VariableDecl & { name: string } => v.name !== undefined && !given.has(v.name))
    .map((v, i) => ({
      label: v.name,
      kind: VARIABLE,
      detail: v.description,
      documentation: { kind: 'markdown', value: ctx.describe(v) },
      sortText: String(i).padStart(4, '0'),
      filterText: JSON.stringify(v.name),
      insertTextFormat: SNIPPET,
      // A key being typed inside quotes becomes the name; elsewhere the whole property, value to fill.
      textEdit: replace(
        range,
        spot.key
          ? JSON.stringify(v.name)
          : `${JSON.stringify(v.name)}: ${v.type === 'multi-select' ? '["$1"]' : '"$1"'}`,
      ),
    }));
}

/** On an input's name: the variable as the definition declares it. */
export function testsHover(ctx: TestsContext, offset: number): Hover | null {
  const key = inputKeyAt(ctx.json, offset);
  const v = key && ctx.definition.variableByName(key.value as string);
  if (!key || !v) return null;
  return { contents: { kind: 'markdown', value: ctx.describe(v) }, range: toRange(ctx.doc, key) };
}

/** From an input's name to the variable's declaration in the definition. */
export function testsDefinition(ctx: TestsContext, offset: number): Location[] {
  const key = inputKeyAt(ctx.json, offset);
  const name = key && ctx.definition.variableByName(key.value as string)?.nameNode;
  return name ? [{ uri: ctx.definition.document.uri, range: toRange(ctx.definition, name) }] : [];
}

/** Renaming from an input's name renames the variable: only a declared one. */
export function prepareTestsRename(ctx: TestsContext, offset: number): { range: Range; placeholder: string } | null {
  const key = inputKeyAt(ctx.json, offset);
  if (!key || !ctx.definition.variableByName(key.value as string)) return null;
  return {
    range: toRange(ctx.doc, { offset: key.offset + 1, length: key.length - 2 }),
    placeholder: key.value as string,
  };
}

/** Renames the variable an input names, in the definition and in the tests file alike. */
export function doTestsRename(ctx: TestsContext, offset: number, newName: string): RenameResult {
  const key = inputKeyAt(ctx.json, offset);
  const decl = key && ctx.definition.variableByName(key.value as string)?.nameNode;
  if (!key || !decl)
    return {
      error: 'Only an input that names a variable of the definition can be renamed: put the cursor on its name.',
    };
  const renamed = ctx.rename(decl.offset + 1, newName);
  return 'edit' in renamed
    ? { edit: withTestsEdits(renamed.edit, ctx.doc, ctx.json, key.value as string, newName) }
    : renamed;
}

/** A rename's edit with the tests file's inputs named `oldName` renamed too. */
export function withTestsEdits(
  edit: WorkspaceEdit,
  tests: TextDocument,
  json: ParsedJson,
  oldName: string,
  newName: string,
): WorkspaceEdit {
  const keys = readTestsFile(json).cases.flatMap((c) => {
    const key = c.inputs.get(oldName)?.property.children?.[0];
    return key ? [key] : [];
  });
  if (!keys.length) return edit;
  const edits = keys.map((k) =>
    replace(toRange(tests, { offset: k.offset + 1, length: k.length - 2 }), escapeJsonContent(newName)),
  );
  return { ...edit, changes: { ...edit.changes, [tests.uri]: edits } };
}

function inputKeyAt(json: ParsedJson, offset: number): JsonNode | undefined {
  const spot = inputAt(json, offset);
  return spot?.part === 'key' && spot.key?.type === 'string' ? spot.key : undefined;
}

/** The input under `offset`: `tests[i].inputs` holds it. */
function inputAt(json: ParsedJson, offset: number): InputSpot | undefined {
  const node = nodeAtOffset(json.root, offset, true);
  if (!node) return undefined;
  // Up from the node to the `inputs` object: at most key/value → property → inputs (or array → property).
  const path: JsonNode[] = [];
  for (let n: JsonNode | undefined = node; n; n = n.parent) path.push(n);
  const at = path.findIndex((n) => n.type === 'object' && isInputsObject(n));
  if (at < 0) return undefined;
  const inputs = path[at];
  if (at === 0) {
    // Between properties: a new input's name, typed without quotes yet.
    return inputs.offset < offset && offset < inputs.offset + inputs.length ? { part: 'key', inputs } : undefined;
  }
  const property = path[at - 1];
  const [key, value] = property.children ?? [];
  const inside = (n: JsonNode | undefined): boolean => !!n && offset >= n.offset && offset <= n.offset + n.length;
  if (inside(key) && path[at - 2] === key) return { part: 'key', inputs, key };
  if (!key || !value || !inside(value)) return undefined;
  const name = String(key.value);
  if (value.type === 'string') return { part: 'value', name, value };
  if (value.type === 'array') {
    const element = path[at - 3];
    return element?.parent === value ? { part: 'value', name, value: element } : { part: 'value', name, value: node };
  }
  return undefined;
}

/** Whether an object is a case's `inputs`: the value of `inputs` in an element of the root's `tests`. */
function isInputsObject(n: JsonNode): boolean {
  const property = n.parent;
  const testCase = property?.parent;
  const tests = testCase?.parent;
  const testsProperty = tests?.parent;
  return (
    property?.type === 'property' &&
    property.children?.[0]?.value === 'inputs' &&
    property.children[1] === n &&
    testCase?.type === 'object' &&
    tests?.type === 'array' &&
    testsProperty?.type === 'property' &&
    testsProperty.children?.[0]?.value === 'tests' &&
    testsProperty.parent?.parent === undefined
  );
}
