import type { ToolModel, VariableDecl } from './model';

export interface Span {
  readonly offset: number;
  readonly length: number;
}

export interface VariableReference extends Span {
  readonly role: 'declaration' | 'placeholder' | 'key';
  /** For a `variables["…"]` key in tool_code: the Python quote around it. */
  readonly pythonQuote?: string;
}

export interface VariableTarget {
  readonly name: string;
  readonly decl: VariableDecl | undefined;
  /** Document span of the name under the cursor (content of the string or of the placeholder). */
  readonly span: Span;
}

/** The variable named at `offset`: a variable's `name` value or a `{{placeholder}}` in the prompt. */
export function variableAt(model: ToolModel, offset: number): VariableTarget | undefined {
  for (const v of model.variables) {
    const n = v.nameNode;
    if (n && v.name !== undefined && offset > n.offset && offset < n.offset + n.length) {
      return { name: v.name, decl: v, span: { offset: n.offset + 1, length: n.length - 2 } };
    }
  }
  if (model.inPython(offset)) {
    // Only a position inside tool_code needs its analysis.
    const py = model.python!;
    for (const k of py.facts.keys) {
      const span = py.embedded.rangeToDocument(k.start, k.end);
      // Compared in document offsets: an offset inside the escaped quote after a key is not on the key.
      if (offset >= span.offset && offset <= span.offset + span.length)
        return { name: k.name, decl: model.variableByName(k.name), span };
    }
    return undefined;
  }
  const prompt = model.prompt;
  if (!prompt || offset <= prompt.node.offset || offset >= prompt.node.offset + prompt.node.length) return undefined;
  const d = prompt.embedded.toDecoded(offset);
  for (const p of prompt.placeholders) {
    if (p.closed && d >= p.start + 2 && d <= p.end - 2) {
      return {
        name: p.name,
        decl: model.variableByName(p.name),
        span: prompt.embedded.rangeToDocument(p.start + 2, p.end - 2),
      };
    }
  }
  return undefined;
}

/** Every place that names variable `name`: its declarations and each exact placeholder. */
export function referencesOf(model: ToolModel, name: string): VariableReference[] {
  const key = `references:${name}`;
  const cached = model.memo.get(key) as VariableReference[] | undefined;
  if (cached) return cached;
  const out: VariableReference[] = [];
  model.memo.set(key, out);
  for (const v of model.variables) {
    if (v.name === name && v.nameNode)
      out.push({ role: 'declaration', offset: v.nameNode.offset + 1, length: v.nameNode.length - 2 });
  }
  const prompt = model.prompt;
  if (prompt) {
    for (const p of prompt.placeholders) {
      if (p.closed && p.name === name)
        out.push({ role: 'placeholder', ...prompt.embedded.rangeToDocument(p.start + 2, p.end - 2) });
    }
  }
  const py = model.python;
  if (py) {
    for (const k of py.facts.keys) {
      if (k.name === name)
        out.push({ role: 'key', pythonQuote: k.quote, ...py.embedded.rangeToDocument(k.start, k.end) });
    }
  }
  return out;
}
