import { DocumentSymbol, SymbolKind } from 'vscode-languageserver-types';
import { child } from './json/nodes';
import type { JsonNode } from './json/tree';
import type { ToolModel } from './model';
import { lineCount, toRange } from './positions';

/** The outline stops here: deeper values are data, not structure, and a bound keeps it cheap. */
const MAX_DEPTH = 8;
const MAX_SYMBOLS = 5000;

export function findDocumentSymbols(model: ToolModel): DocumentSymbol[] {
  const root = model.root;
  if (root?.type !== 'object') return [];
  const budget = { left: MAX_SYMBOLS };
  return members(model, root, 0, budget, []);
}

function members(
  model: ToolModel,
  node: JsonNode,
  depth: number,
  budget: { left: number },
  path: string[],
): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const inVariables = path.length === 2 && path[0] === 'metadata' && path[1] === 'variables';
  for (const [i, c] of (node.children ?? []).entries()) {
    if (budget.left-- <= 0) break;
    const isProp = c.type === 'property';
    const value = isProp ? c.children![1] : c;
    const key = isProp ? String(c.children![0].value) : String(i);
    let name = key || '""';
    let kind = kindOf(value);
    let detail =
      value && (value.type === 'string' || value.type === 'number' || value.type === 'boolean' || value.type === 'null')
        ? preview(value)
        : undefined;
    if (inVariables && value?.type === 'object') {
      const vname = child(value, 'name');
      name = vname?.type === 'string' && vname.value ? String(vname.value) : `variable ${i}`;
      kind = SymbolKind.Variable;
      detail = model.kind === 'llm' ? String(child(value, 'type')?.value ?? 'text') : 'variable';
    }
    if (key === 'tool_code' || key === 'model_prompt') {
      const lines = value?.type === 'string' ? lineCount(value.value as string) : 0;
      detail = lines === 1 ? '1 line' : `${lines} lines`;
    }
    const selection = isProp ? c.children![0] : c;
    const pythonChildren =
      key === 'tool_code' && path.length === 1 && value && value === model.pythonNode
        ? pythonSymbols(model)
        : undefined;
    const children =
      pythonChildren ??
      (value && (value.type === 'object' || value.type === 'array') && depth < MAX_DEPTH
        ? members(model, value, depth + 1, budget, [...path, key])
        : undefined);
    out.push(DocumentSymbol.create(name, detail, kind, toRange(model, c), toRange(model, selection), children));
  }
  return out;
}

function kindOf(n: JsonNode | undefined): SymbolKind {
  switch (n?.type) {
    case 'object':
      return SymbolKind.Module;
    case 'array':
      return SymbolKind.Array;
    case 'number':
      return SymbolKind.Number;
    case 'boolean':
      return SymbolKind.Boolean;
    case 'null':
      return SymbolKind.Null;
    default:
      return SymbolKind.String;
  }
}

function preview(n: JsonNode): string {
  const s = String(n.value);
  const line = s.slice(0, 80).split('\n')[0];
  return line.length < s.length ? `${line}…` : line;
}

/** Top-level functions and classes of tool_code, `execute` first among equals, at their JSON ranges. */
function pythonSymbols(model: ToolModel): DocumentSymbol[] {
  const py = model.python!;
  return py.facts.functions.map((f) =>
    DocumentSymbol.create(
      f.name,
      f.async ? 'async' : undefined,
      f.kind === 'class' ? SymbolKind.Class : SymbolKind.Function,
      toRange(model, py.embedded.rangeToDocument(f.start, f.end)),
      toRange(model, py.embedded.rangeToDocument(f.nameStart, f.nameEnd)),
    ),
  );
}
