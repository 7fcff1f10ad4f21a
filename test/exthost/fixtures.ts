// Definition files for the extension-host tests.

export const SMART_CODE = 'def execute(variables):\n\tpath = "C:\\\\temp\\\\" + variables["name"]\n\treturn "« " + path + " »"\n';

export function smartTool(name: string, code = SMART_CODE): object {
  return {
    version: '1.0',
    metadata: {
      tool_name: name,
      tool_code: code,
      description: 'Builds a path.',
      usage_notes: '',
      model_version: ['gpt-4'],
      creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
      variables: [{ name: 'name', description: 'A name', default: 'World' }],
      expected_output: { type: 'text' },
      timestamp: '2026-01-01T00:00:00Z',
    },
  };
}

export function llmTool(name: string): object {
  return {
    version: '1.0',
    model_prompt: 'Summarise {{text}}.',
    metadata: {
      prompt_name: name,
      description: 'Summarises text.',
      model_version: ['gpt-4'],
      creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
      parameters: { temperature: 0.2 },
      variables: [{ name: 'text', type: 'text', description: 'Text', default: '' }],
      expected_output: { type: 'text' },
      timestamp: '2026-01-01T00:00:00Z',
    },
  };
}

export const OTHER_JSON = { name: 'other', version: '1.0.0', scripts: { build: 'tsc' } };
