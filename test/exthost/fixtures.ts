// Definition files for the extension-host tests, each named for its file (`<name>.json`).
import { llmTool as llm, smartTool as smart } from '../fixtures';

/** Tabs, quotes, backslashes and non-ASCII: all escaped differently in the JSON string. */
export const SMART_CODE =
  'def execute(variables):\n\tpath = "C:\\\\temp\\\\" + variables["name"]\n\treturn "« " + path + " »"\n';

export const smartTool = (name: string, code = SMART_CODE): string => smart({ code, metadata: { tool_name: name } });

export const llmTool = (name: string): string => llm({ metadata: { prompt_name: name } });

export const OTHER_JSON = { name: 'other', version: '1.0.0', scripts: { build: 'tsc' } };
