import { child, stringValue } from '../../service/json/nodes';
import type { ToolModel } from '../../service/model';
import { pythonAnalysis } from '../../service/python/load';

/** One input of a smart tool, in array order. */
export interface ToolInput {
  readonly name: string;
  readonly description?: string;
  /** The declared default when it is a string; `undefined` when absent. */
  readonly default?: string;
  /** Set when a default is declared but is not a string (the file has a `default-type-mismatch` error). */
  readonly badDefault?: string;
}

/** What running needs from a smart tool file. */
export interface RunnableTool {
  readonly name?: string;
  readonly code: string;
  readonly requirements: string;
  readonly inputs: readonly ToolInput[];
  /** The secrets `code` references (`<API_KEY>` in a string literal), by name, in order of first use. */
  readonly secrets: readonly string[];
}

/**
 * The runnable parts of a parsed definition, or the reasons it cannot run: not valid JSON, not a smart
 * tool, no string `tool_code`. Every other problem of the file (unknown variable keys, missing fields …)
 * is left to `tooldef check`: running shows what the service would do with it.
 */
export function runnableTool(model: ToolModel): { tool: RunnableTool } | { problems: string[] } {
  const problems: string[] = [];
  if (model.json.syntaxErrors.length) {
    const e = model.json.syntaxErrors[0];
    const pos = model.positionAt(e.offset);
    problems.push(
      `The file is not valid JSON (line ${pos.line + 1}, column ${pos.character + 1}: ${e.message}); fix it first (tooldef check shows every problem).`,
    );
    return { problems };
  }
  if (model.kind !== 'smart') {
    problems.push(
      model.kind === 'llm'
        ? 'This is an LLM tool (it has model_prompt): only smart tools run code.'
        : 'This is not a smart tool: a smart tool has a metadata object with tool_code.',
    );
    return { problems };
  }
  const codeNode = child(model.metadata, 'tool_code');
  if (codeNode?.type !== 'string')
    problems.push(codeNode ? 'metadata.tool_code is not a string.' : 'The tool has no metadata.tool_code to run.');
  else if (!(codeNode.value as string).trim()) problems.push('metadata.tool_code is empty.');
  const reqNode = child(model.metadata, 'requirements');
  if (reqNode && reqNode.type !== 'string' && reqNode.type !== 'null')
    problems.push('metadata.requirements must be a string of newline-separated requirements.');
  if (problems.length) return { problems };

  const seen = new Set<string>();
  const inputs: ToolInput[] = [];
  for (const v of model.variables) {
    // Nameless variables cannot be keys of `variables`; for duplicates the first declaration wins.
    if (v.name === undefined || !v.name.trim() || seen.has(v.name)) continue;
    seen.add(v.name);
    const d = v.defaultNode;
    inputs.push({
      name: v.name,
      description: v.description,
      default: stringValue(d),
      badDefault: d && d.type !== 'string' ? model.text.slice(d.offset, d.offset + Math.min(d.length, 60)) : undefined,
    });
  }
  const nameNode = child(model.metadata, 'tool_name');
  return {
    tool: {
      name: stringValue(nameNode),
      code: codeNode!.value as string,
      requirements: reqNode?.type === 'string' ? (reqNode.value as string) : '',
      inputs,
      secrets: pythonAnalysis().secretNames(codeNode!.value as string),
    },
  };
}

export interface ResolvedInputs {
  readonly variables: Record<string, string>;
  /** Inputs with no given value (and, with defaults, no usable default either). */
  readonly missing: string[];
  /** Given names that are not variables of the tool. */
  readonly unknown: string[];
  /** Inputs whose default cannot be used because it is not a string. */
  readonly badDefaults: string[];
}

/**
 * The `variables` dict: given values first; with `useDefaults`, each missing input takes its default
 * (an input declared without one gets ""); without it, missing inputs are reported.
 */
export function resolveInputs(
  tool: RunnableTool,
  given: ReadonlyMap<string, string>,
  useDefaults: boolean,
): ResolvedInputs {
  const variables: Record<string, string> = {};
  const missing: string[] = [];
  const badDefaults: string[] = [];
  for (const input of tool.inputs) {
    const value = given.get(input.name);
    if (value !== undefined) variables[input.name] = value;
    else if (!useDefaults) missing.push(input.name);
    else if (input.badDefault !== undefined) badDefaults.push(input.name);
    else variables[input.name] = input.default ?? '';
  }
  const names = new Set(tool.inputs.map((i) => i.name));
  return { variables, missing, unknown: [...given.keys()].filter((k) => !names.has(k)), badDefaults };
}
