// Complete, valid definition files for every kind of test (unit, LSP, extension host, code-server),
// with no imports so that each can load it.

/** A complete, valid LLM tool; tests change one thing at a time. */
export function llmTool(
  overrides: {
    prompt?: string;
    variables?: unknown[];
    metadata?: Record<string, unknown>;
    root?: Record<string, unknown>;
  } = {},
): string {
  const metadata = {
    prompt_name: 'Summariser',
    description: 'Summarises text.',
    usage_notes: 'Paste the text.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.2, max_tokens: 500 },
    variables: overrides.variables ?? [
      { name: 'text', type: 'text', description: 'The text', default: '' },
      {
        name: 'target language',
        type: 'single-select',
        description: 'Language',
        default: 'English',
        allowed_values: ['English', 'French'],
      },
    ],
    expected_output: { type: 'text' },
    avatar_type: 'base64',
    avatar: '',
    timestamp: '2026-03-14T09:30:00Z',
    ...overrides.metadata,
  };
  return JSON.stringify(
    {
      version: '1.0',
      model_prompt: overrides.prompt ?? 'Summarise {{text}} in {{target language}}.',
      metadata,
      ...overrides.root,
    },
    null,
    2,
  );
}

/** A complete, valid smart tool named `tool` (matching the default fixture file name tool.json). */
export function smartTool(
  overrides: {
    code?: string;
    variables?: unknown[];
    metadata?: Record<string, unknown>;
    root?: Record<string, unknown>;
  } = {},
): string {
  const metadata = {
    tool_name: 'tool',
    tool_code: overrides.code ?? 'def execute(variables):\n    return "hi " + variables["name"]\n',
    description: 'Greets.',
    usage_notes: 'Enter a name.',
    model_version: ['gpt-4', 'claude'],
    creator: { name: 'Ann', email: 'ann@example.com', organization: 'Acme' },
    variables: overrides.variables ?? [{ name: 'name', description: 'Who to greet', default: 'World' }],
    expected_output: { type: 'text' },
    avatar_type: 'base64',
    avatar: '',
    timestamp: '2026-03-14T09:30:00Z',
    requirements: '',
    ...overrides.metadata,
  };
  return JSON.stringify({ version: '1.0', metadata, ...overrides.root }, null, 2);
}
