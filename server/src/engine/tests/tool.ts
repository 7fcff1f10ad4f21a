// What runs a definition's cases — its smart or LLM tool — for the CLI's suites and the editor's alike.
import { llmToolOf, type LlmTool } from '../llm/prompt';
import { runnableTool, type RunnableTool } from '../run/definition';
import type { ToolModel } from '../../service/model';

export type SuiteTool =
  { readonly kind: 'smart'; readonly tool: RunnableTool } | { readonly kind: 'llm'; readonly tool: LlmTool };

/** The definition's tool, or why its cases cannot run (each said as a `tests-no-definition` problem). */
export function suiteToolOf(model: ToolModel): { tool: SuiteTool } | { problems: string[] } {
  if (model.kind === 'llm') {
    const llm = llmToolOf(model);
    return llm.ok ? { tool: { kind: 'llm', tool: llm.tool } } : { problems: [llm.error] };
  }
  const smart = runnableTool(model);
  return 'tool' in smart ? { tool: { kind: 'smart', tool: smart.tool } } : { problems: smart.problems };
}
