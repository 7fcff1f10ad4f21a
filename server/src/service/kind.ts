import type { JsonNode } from './json/tree';
import { property } from './json/nodes';

export type Kind = 'smart' | 'llm';

/**
 * Which kind of definition a parsed root is (../shared/spec/decisions.md): `model_prompt` at the root
 * makes an LLM tool; a `metadata` object with `tool_code` or `tool_name` a smart tool.
 */
export function kindOfRoot(root: JsonNode | undefined): Kind | undefined {
  if (root?.type !== 'object') return undefined;
  if (property(root, 'model_prompt')) return 'llm';
  const metadata = property(root, 'metadata')?.children?.[1];
  if (metadata?.type === 'object' && (property(metadata, 'tool_code') || property(metadata, 'tool_name')))
    return 'smart';
  return undefined;
}

/** Cheap textual pre-check for editors deciding whether a JSON document may be a definition. */
export function mayBeDefinition(text: string): boolean {
  return /"(?:model_prompt|tool_code|tool_name)"\s*:/.test(text);
}
