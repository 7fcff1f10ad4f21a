import { nowTimestamp } from './timestamp';
import type { Kind } from './kind';

/** What the New Smart Tool / New LLM Tool wizard asks for. */
export interface NewToolAnswers {
  readonly name: string;
  readonly description: string;
  readonly variables: readonly string[];
  readonly creator?: string;
}

/** The text of a new definition of `kind` built from the wizard's answers. */
export function newDefinitionText(kind: Kind, answers: NewToolAnswers, now = new Date()): string {
  return kind === 'smart' ? smartToolTemplate(answers, now) : llmToolTemplate(answers, now);
}

/** A complete, valid smart tool whose `execute` reads every variable. */
export function smartToolTemplate(a: NewToolAnswers, now = new Date()): string {
  const reads = a.variables.map((v) => `    ${pyIdentifier(v)} = variables.get(${JSON.stringify(v)}, "")`);
  const body = a.variables.length
    ? `${reads.join('\n')}\n    return f"${a.variables.map((v) => `${fStringText(v)}: {${pyIdentifier(v)}}`).join(', ')}"`
    : '    return "Hello from ' + a.name.replace(/["\\]/g, '') + '"';
  // The description becomes the docstring: backslashes doubled, no closing triple quote inside.
  const doc =
    a.description.replace(/\\/g, '\\\\').replace(/"""/g, "'''").replace(/"$/, '\\"') ||
    "Returns the tool's answer as a string.";
  const code = `def execute(variables):\n    """${doc}"""\n${body}\n`;
  return stringify({
    version: '1.0',
    metadata: {
      tool_name: a.name,
      tool_code: code,
      description: a.description,
      usage_notes: '',
      model_version: ['gpt-4', 'gpt-3.5', 'claude', 'chat-bison'],
      creator: { name: a.creator ?? '', email: '<EMAIL>', organization: '' },
      variables: a.variables.map((v) => ({ name: v, description: '', default: '' })),
      expected_output: { type: 'text' },
      avatar_type: 'base64',
      avatar: '',
      timestamp: nowTimestamp(now),
      requirements: '',
    },
  });
}

/** A complete, valid LLM tool whose prompt uses every variable. */
export function llmToolTemplate(a: NewToolAnswers, now = new Date()): string {
  const uses = a.variables.map((v) => `${v}: {{${v}}}`).join('\n');
  return stringify({
    version: '1.0',
    model_prompt: `${a.description || 'Answer the request.'}${uses ? `\n\n${uses}` : ''}`,
    metadata: {
      prompt_name: a.name,
      description: a.description,
      usage_notes: '',
      model_version: ['gpt-4', 'gpt-3.5', 'claude', 'chat-bison'],
      creator: { name: a.creator ?? '', email: '<EMAIL>', organization: '' },
      parameters: { temperature: 0.7, max_tokens: 1024, top_p: 1, frequency_penalty: 0, presence_penalty: 0 },
      variables: a.variables.map((v) => ({ name: v, type: 'text', description: '', default: '' })),
      expected_output: { type: 'text' },
      avatar_type: 'base64',
      avatar: '',
      timestamp: nowTimestamp(now),
    },
  });
}

function stringify(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A Python identifier for a variable name ("target language" → target_language). */
function pyIdentifier(name: string): string {
  const id = name.replace(/\W+/g, '_').replace(/^(\d)/, '_$1') || 'value';
  return /^(False|None|True|and|as|assert|async|await|break|class|continue|def|del|elif|else|except|finally|for|from|global|if|import|in|is|lambda|nonlocal|not|or|pass|raise|return|try|while|with|yield|variables)$/.test(
    id,
  )
    ? `${id}_`
    : id;
}

/** Literal text inside a double-quoted f-string. */
function fStringText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\{/g, '{{').replace(/\}/g, '}}');
}
