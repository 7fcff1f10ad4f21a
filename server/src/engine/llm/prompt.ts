/**
 * The pure core of "Preview LLM Prompt": what an LLM tool asks for, and how its prompt is filled.
 * No `vscode` import: the client, the CLI and the tests call it with a parsed `ToolModel`.
 *
 * Decisions (binding for the client):
 * - Placeholders match variable names exactly (case-sensitive, spaces included), as everywhere else.
 * - A multi-select value is inserted as its entries joined with ", " (`["a","b","c"]` → `a, b, c`), in
 *   the order the user picked them; an empty selection inserts the empty string.
 * - A value that is provided is inserted even when it is the empty string; a placeholder is left as-is
 *   (and reported in `missing`) only when no value was given for it.
 * - Placeholders that name no declared variable are never filled (the service only fills declared
 *   variables) and are reported in `unknown`; unclosed `{{` are left as-is and reported in `unclosed`.
 * - Filling is one pass over the template: a value that itself contains `{{x}}` is inserted literally.
 */
import type { JsonNode } from '../../service/json/tree';
import { child, stringValue } from '../../service/json/nodes';
import type { ToolModel, VariableDecl } from '../../service/model';
import { scanPlaceholders, type Placeholder } from '../../service/template';

export type InputType = 'text' | 'single-select' | 'multi-select';

/** One input the user is asked for, in the order of `metadata.variables`. */
export interface LlmInput {
  readonly name: string;
  readonly type: InputType;
  readonly description: string | undefined;
  /** A string for `text`/`single-select` (undefined when absent); always an array for `multi-select`. */
  readonly default: string | string[] | undefined;
  /** `allowed_values` (strings only); undefined when absent. */
  readonly allowedValues: readonly string[] | undefined;
  /** Index in `metadata.variables`. */
  readonly index: number;
}

/** The file's sampling settings; only finite numbers are kept. */
export interface LlmParameters {
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
}

export const PARAMETER_NAMES = ['temperature', 'max_tokens', 'top_p', 'frequency_penalty', 'presence_penalty'] as const;

export interface ExpectedOutput {
  /** `text`, `code`, `limited` (other strings are kept so checks can say they are unknown). */
  readonly type: string;
  readonly format?: string;
  readonly language?: string;
  readonly allowedValues?: readonly string[];
}

export interface LlmTool {
  readonly name: string | undefined;
  readonly description: string | undefined;
  /** Decoded `model_prompt`. */
  readonly prompt: string;
  readonly placeholders: readonly Placeholder[];
  readonly inputs: readonly LlmInput[];
  readonly parameters: LlmParameters;
  /** `metadata.model_version` (a single string is accepted as a one-element list). */
  readonly modelIds: readonly string[];
  readonly expectedOutput: ExpectedOutput | undefined;
  /** Things that were skipped or coerced while reading the file (the diagnostics say more). */
  readonly warnings: readonly string[];
}

export type LlmToolResult =
  { readonly ok: true; readonly tool: LlmTool } | { readonly ok: false; readonly error: string };

/** Reads the LLM-tool description from a parsed model, or says clearly why it is not one. */
export function llmToolOf(model: ToolModel): LlmToolResult {
  if (model.root?.type !== 'object') {
    const why = model.json.syntaxErrors.length
      ? 'its JSON has syntax errors and no root object could be read'
      : 'its root is not a JSON object';
    return { ok: false, error: `This file is not an LLM tool definition: ${why}.` };
  }
  if (model.kind === 'smart')
    return {
      ok: false,
      error:
        'This file is a smart tool definition (metadata.tool_code / tool_name), not an LLM tool: use Run Smart Tool instead.',
    };
  if (model.kind !== 'llm')
    return {
      ok: false,
      error: 'This file is not an LLM tool definition: an LLM tool has a top-level "model_prompt" string.',
    };
  const prompt = model.prompt;
  if (!prompt) return { ok: false, error: 'This LLM tool has no usable prompt: "model_prompt" must be a string.' };

  const warnings: string[] = [];
  if (model.json.syntaxErrors.length)
    warnings.push(`The file has ${model.json.syntaxErrors.length} JSON syntax error(s); what could be read is used.`);
  const metadata = model.metadata;
  return {
    ok: true,
    tool: {
      name: stringValue(child(metadata, 'prompt_name')),
      description: stringValue(child(metadata, 'description')),
      prompt: prompt.embedded.text,
      placeholders: prompt.placeholders,
      inputs: readInputs(model.variables, warnings),
      parameters: readParameters(child(metadata, 'parameters'), warnings),
      modelIds: readModelIds(child(metadata, 'model_version'), warnings),
      expectedOutput: readExpectedOutput(child(metadata, 'expected_output'), warnings),
      warnings,
    },
  };
}

function scalarText(node: JsonNode): string | undefined {
  return node.type === 'string' || node.type === 'number' || node.type === 'boolean' ? String(node.value) : undefined;
}

function readInputs(vars: readonly VariableDecl[], warnings: string[]): LlmInput[] {
  const inputs: LlmInput[] = [];
  const seen = new Set<string>();
  for (const v of vars) {
    const where = `variables[${v.index}]`;
    if (v.name === undefined || v.name === '') {
      warnings.push(`${where} has no name and is skipped.`);
      continue;
    }
    if (seen.has(v.name)) {
      warnings.push(`${where}: variable "${v.name}" is declared twice; the first declaration is used.`);
      continue;
    }
    seen.add(v.name);
    let type: InputType;
    if (v.type === 'text' || v.type === 'single-select' || v.type === 'multi-select') {
      type = v.type;
    } else {
      type = 'text';
      warnings.push(
        `Variable "${v.name}" has ${v.type === undefined ? 'no type' : `unknown type "${v.type}"`}; it is asked for as text.`,
      );
    }
    inputs.push({
      name: v.name,
      type,
      description: v.description,
      default: readDefault(v, type, warnings),
      allowedValues: v.allowedValues,
      index: v.index,
    });
  }
  return inputs;
}

function readDefault(v: VariableDecl, type: InputType, warnings: string[]): string | string[] | undefined {
  const node = v.defaultNode;
  if (type === 'multi-select') {
    if (!node || node.type === 'null') return [];
    if (node.type === 'array') {
      const items = node.children!.map(scalarText);
      if (items.some((s) => s === undefined))
        warnings.push(`Variable "${v.name}": non-string entries of its default are skipped.`);
      return items.filter((s): s is string => s !== undefined);
    }
    const s = scalarText(node);
    if (s === undefined) return [];
    warnings.push(
      `Variable "${v.name}" is multi-select but its default is not an array; it is used as a one-element selection.`,
    );
    return s === '' ? [] : [s];
  }
  if (!node || node.type === 'null') return undefined;
  if (node.type === 'array') {
    const items = node.children!.map(scalarText).filter((s): s is string => s !== undefined);
    warnings.push(`Variable "${v.name}" is ${type} but its default is an array; its first entry is used.`);
    return items[0];
  }
  const s = scalarText(node);
  if (s === undefined) warnings.push(`Variable "${v.name}": its default is not a string and is ignored.`);
  return s;
}

function readParameters(node: JsonNode | undefined, warnings: string[]): LlmParameters {
  const out: LlmParameters = {};
  if (!node) return out;
  if (node.type !== 'object') {
    warnings.push('metadata.parameters is not an object and is ignored.');
    return out;
  }
  for (const prop of node.children!) {
    const key = prop.children?.[0]?.value as string;
    const value = prop.children?.[1];
    if (!(PARAMETER_NAMES as readonly string[]).includes(key)) {
      warnings.push(`Parameter "${key}" is not a known sampling parameter and is not sent.`);
      continue;
    }
    const n = value?.type === 'number' ? (value.value as number) : NaN;
    if (!Number.isFinite(n)) {
      warnings.push(`Parameter "${key}" is not a number and is not sent.`);
      continue;
    }
    if (key === 'max_tokens' && (!Number.isInteger(n) || n < 1)) {
      warnings.push(`Parameter "max_tokens" must be a positive integer (got ${n}); it is not sent.`);
      continue;
    }
    out[key as keyof LlmParameters] = n;
  }
  return out;
}

function readModelIds(node: JsonNode | undefined, warnings: string[]): string[] {
  if (!node) return [];
  if (node.type === 'string') return node.value ? [node.value as string] : [];
  if (node.type !== 'array') {
    warnings.push('metadata.model_version is neither an array nor a string and is ignored.');
    return [];
  }
  const ids = node.children!.filter((c) => c.type === 'string' && c.value !== '').map((c) => c.value as string);
  return [...new Set(ids)];
}

function readExpectedOutput(node: JsonNode | undefined, warnings: string[]): ExpectedOutput | undefined {
  if (!node) return undefined;
  if (node.type !== 'object') {
    warnings.push('metadata.expected_output is not an object and is ignored.');
    return undefined;
  }
  const allowed = child(node, 'allowed_values');
  const out: { -readonly [K in keyof ExpectedOutput]: ExpectedOutput[K] } = {
    type: stringValue(child(node, 'type')) ?? 'text',
  };
  const format = stringValue(child(node, 'format'));
  const language = stringValue(child(node, 'language'));
  if (format) out.format = format;
  if (language) out.language = language;
  if (allowed?.type === 'array')
    out.allowedValues = allowed.children!.filter((c) => c.type === 'string').map((c) => c.value as string);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Filling

/** Input values by exact variable name: a string, or an array of strings for a multi-select. */
export type InputValues =
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | ReadonlyMap<string, string | readonly string[] | undefined>;

export const MULTI_SELECT_SEPARATOR = ', ';

export interface FillOptions {
  /**
   * The declared variable names. When given, placeholders naming anything else are left as-is and
   * reported in `unknown`; when omitted, every placeholder with a value is filled.
   */
  readonly variables?: Iterable<string>;
}

export interface Replacement {
  readonly name: string;
  /** Offsets in the filled text (end exclusive), e.g. to highlight inserted values in a preview. */
  readonly start: number;
  readonly end: number;
}

export interface FillResult {
  readonly text: string;
  /** Where each inserted value sits in `text`, in order. */
  readonly replacements: readonly Replacement[];
  /**
   * Names of declared (or, without declarations, any) placeholders with no value: left as-is. Unique,
   * first-occurrence order.
   */
  readonly missing: readonly string[];
  /** Names of placeholders that are not declared variables: left as-is. Unique, first-occurrence order. */
  readonly unknown: readonly string[];
  /**
   * Of those, the ones with spaces around a declared variable's name (`{{ product }}`): the service
   * matches names exactly, so they are left as-is too (the editor's `placeholder-whitespace`).
   */
  readonly spaced: readonly string[];
  /** Offsets (in the template) of `{{` that are never closed: left as-is. */
  readonly unclosed: readonly number[];
}

function lookup(values: InputValues, name: string): string | readonly string[] | undefined {
  if (values instanceof Map) return values.get(name);
  const rec = values as Readonly<Record<string, string | readonly string[] | undefined>>;
  return Object.prototype.hasOwnProperty.call(rec, name) ? rec[name] : undefined;
}

/** The text a value is inserted as. */
export function valueText(value: string | readonly string[]): string {
  return typeof value === 'string' ? value : value.join(MULTI_SELECT_SEPARATOR);
}

/**
 * Fills `{{name}}` placeholders of a decoded prompt. `prompt` is the template text, or an object with
 * the text and its already-scanned placeholders (`LlmTool` fits).
 */
export function fillPrompt(
  prompt:
    | string
    | {
        readonly prompt: string;
        readonly placeholders?: readonly Placeholder[];
        readonly inputs?: readonly { readonly name: string }[];
      },
  values: InputValues,
  options: FillOptions = {},
): FillResult {
  const template = typeof prompt === 'string' ? prompt : prompt.prompt;
  const placeholders =
    typeof prompt === 'string' || !prompt.placeholders ? scanPlaceholders(template) : prompt.placeholders;
  const declaredNames =
    options.variables ?? (typeof prompt === 'string' ? undefined : prompt.inputs?.map((i) => i.name));
  const declared = declaredNames ? new Set(declaredNames) : undefined;

  let text = '';
  let last = 0;
  const replacements: Replacement[] = [];
  const missing = new Set<string>();
  const unknown = new Set<string>();
  const spaced = new Set<string>();
  const unclosed: number[] = [];
  for (const p of placeholders) {
    if (!p.closed) {
      unclosed.push(p.start);
      continue;
    }
    if (declared && !declared.has(p.name)) {
      unknown.add(p.name);
      if (declared.has(p.name.trim())) spaced.add(p.name);
      continue;
    }
    const value = lookup(values, p.name);
    if (value === undefined || value === null) {
      missing.add(p.name);
      continue;
    }
    text += template.slice(last, p.start);
    const inserted = valueText(value);
    replacements.push({ name: p.name, start: text.length, end: text.length + inserted.length });
    text += inserted;
    last = p.end;
  }
  text += template.slice(last);
  return { text, replacements, missing: [...missing], unknown: [...unknown], spaced: [...spaced], unclosed };
}

/** The defaults of every input, ready to pre-fill a form or to preview with. */
export function defaultValues(tool: Pick<LlmTool, 'inputs'>): Map<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const input of tool.inputs) {
    if (Array.isArray(input.default)) out.set(input.name, [...input.default]);
    else if (input.default !== undefined) out.set(input.name, input.default);
    else if (input.type !== 'multi-select') out.set(input.name, '');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validation of input values

export type InputProblemCode =
  'missing-value' | 'unknown-input' | 'wrong-shape' | 'not-allowed' | 'case-mismatch' | 'duplicate-selection';

export interface InputProblem {
  readonly name: string;
  readonly code: InputProblemCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
}

export interface ValidateOptions {
  /** Report declared inputs that have no value (default true). An empty string is a value. */
  readonly requireAll?: boolean;
}

function entries(values: InputValues): [string, string | readonly string[] | undefined][] {
  return values instanceof Map ? [...values.entries()] : Object.entries(values);
}

/**
 * Checks values against the inputs: select values must be among `allowed_values` (exact match; a
 * value that differs only in case is named in the message), a multi-select takes an array, the others
 * a string. Inputs with no `allowed_values` accept anything.
 */
export function validateInputs(
  tool: Pick<LlmTool, 'inputs'>,
  values: InputValues,
  options: ValidateOptions = {},
): InputProblem[] {
  const problems: InputProblem[] = [];
  const byName = new Map(tool.inputs.map((i) => [i.name, i]));
  for (const input of tool.inputs) {
    const value = lookup(values, input.name);
    if (value === undefined || value === null) {
      if (options.requireAll ?? true)
        problems.push({
          name: input.name,
          code: 'missing-value',
          severity: 'error',
          message: `No value for "${input.name}".`,
        });
      continue;
    }
    if (input.type === 'multi-select') {
      if (!Array.isArray(value)) {
        problems.push({
          name: input.name,
          code: 'wrong-shape',
          severity: 'error',
          message: `"${input.name}" is multi-select: its value must be a list of strings.`,
        });
        continue;
      }
      const seen = new Set<string>();
      for (const item of value as readonly string[]) {
        if (seen.has(item))
          problems.push({
            name: input.name,
            code: 'duplicate-selection',
            severity: 'warning',
            message: `"${input.name}": "${item}" is selected more than once.`,
          });
        seen.add(item);
        checkAllowed(input, item, problems);
      }
    } else {
      if (typeof value !== 'string') {
        problems.push({
          name: input.name,
          code: 'wrong-shape',
          severity: 'error',
          message: `"${input.name}" is ${input.type}: its value must be a single string.`,
        });
        continue;
      }
      if (input.type === 'single-select') checkAllowed(input, value, problems);
    }
  }
  for (const [name] of entries(values)) {
    if (!byName.has(name))
      problems.push({
        name,
        code: 'unknown-input',
        severity: 'warning',
        message: `"${name}" is not a variable of this tool; its value is not used.`,
      });
  }
  return problems;
}

function checkAllowed(input: LlmInput, value: string, problems: InputProblem[]): void {
  const allowed = input.allowedValues;
  if (!allowed || allowed.length === 0 || allowed.includes(value)) return;
  const folded = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (folded !== undefined) {
    problems.push({
      name: input.name,
      code: 'case-mismatch',
      severity: 'error',
      message: `"${input.name}": "${value}" is not allowed; did you mean "${folded}"? Values are case-sensitive.`,
    });
    return;
  }
  problems.push({
    name: input.name,
    code: 'not-allowed',
    severity: 'error',
    message: `"${input.name}": "${value}" is not one of the allowed values (${listOf(allowed)}).`,
  });
}

/** `"a", "b", "c"` — long lists are cut after 10 entries. */
export function listOf(items: readonly string[], max = 10): string {
  const shown = items.slice(0, max).map((s) => JSON.stringify(s));
  return items.length > max ? `${shown.join(', ')} and ${items.length - max} more` : shown.join(', ');
}
