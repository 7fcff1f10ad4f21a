import type { Kind } from './kind';

/** Field facts the schemas cannot express: severity of absence and each field's home level. */
export const RECOMMENDED: Record<Kind, { readonly root: readonly string[]; readonly metadata: readonly string[] }> = {
  smart: {
    root: [],
    metadata: ['description', 'usage_notes', 'model_version', 'creator', 'variables', 'expected_output', 'timestamp'],
  },
  llm: { root: [], metadata: ['prompt_name', 'description', 'parameters', 'variables', 'expected_output'] },
};

/** Containers a misplaced field can be moved between, as JSON paths. */
export type Home = 'root' | 'metadata' | 'parameters';

export const HOME_PATH: Record<Home, readonly string[]> = {
  root: [],
  metadata: ['metadata'],
  parameters: ['metadata', 'parameters'],
};

const SMART_HOMES: Record<string, Home> = {
  version: 'root',
  metadata: 'root',
  ...Object.fromEntries(
    [
      'tool_name',
      'tool_code',
      'description',
      'usage_notes',
      'model_version',
      'creator',
      'variables',
      'expected_output',
      'avatar_type',
      'avatar',
      'timestamp',
      'requirements',
    ].map((k) => [k, 'metadata' as const]),
  ),
};

const LLM_HOMES: Record<string, Home> = {
  version: 'root',
  model_prompt: 'root',
  metadata: 'root',
  ...Object.fromEntries(
    [
      'prompt_name',
      'description',
      'usage_notes',
      'model_version',
      'creator',
      'parameters',
      'variables',
      'expected_output',
      'avatar_type',
      'avatar',
      'timestamp',
    ].map((k) => [k, 'metadata' as const]),
  ),
  ...Object.fromEntries(
    ['temperature', 'max_tokens', 'top_p', 'frequency_penalty', 'presence_penalty'].map((k) => [
      k,
      'parameters' as const,
    ]),
  ),
};

/** Where `key` belongs in a file of `kind`, if it is a field of one of the movable levels. */
export function homeOf(kind: Kind, key: string): Home | undefined {
  const homes = kind === 'smart' ? SMART_HOMES : LLM_HOMES;
  return Object.prototype.hasOwnProperty.call(homes, key) ? homes[key] : undefined;
}

export function homeAt(path: readonly (string | number)[]): Home | undefined {
  const key = path.join('/');
  return key === ''
    ? 'root'
    : key === 'metadata'
      ? 'metadata'
      : key === 'metadata/parameters'
        ? 'parameters'
        : undefined;
}
