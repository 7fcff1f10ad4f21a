import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService, type LanguageService } from '../server/src/service/languageService';
import type { Kind } from '../server/src/service/kind';
import type { ToolModel } from '../server/src/service/model';
import type { Settings } from '../server/src/service/settings';
import type { WorkspaceIndex } from '../server/src/service/validation/context';

/** Splits a fixture at its `|` cursor marker. */
export function cursor(fixture: string): { text: string; offset: number } {
  const offset = fixture.indexOf('|');
  if (offset < 0) throw new Error('fixture has no | cursor marker');
  return { text: fixture.slice(0, offset) + fixture.slice(offset + 1), offset };
}

export interface Fixture {
  readonly service: LanguageService;
  readonly model: ToolModel;
  readonly doc: TextDocument;
}

export function load(text: string, opts: { uri?: string; kind?: Kind; settings?: Settings; workspace?: WorkspaceIndex } = {}): Fixture {
  const service = getLanguageService({ settings: opts.settings, workspace: opts.workspace });
  const doc = TextDocument.create(opts.uri ?? 'file:///work/tool.json', 'tooldef', 1, text);
  return { service, model: service.parse(doc, opts.kind), doc };
}

/** Diagnostics as `code` plus the exact source text their range covers. */
export function problems(text: string, opts: Parameters<typeof load>[1] = {}): { code: string; text: string; message: string; diagnostic: Diagnostic }[] {
  const { service, model, doc } = load(text, opts);
  return service.doValidation(model).map((d) => ({ code: String(d.code), text: doc.getText(d.range), message: messageOf(d), diagnostic: d }));
}

/** LSP 3.18 allows markup in diagnostic messages; ours are always plain strings. */
export function messageOf(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

export function codes(text: string, opts: Parameters<typeof load>[1] = {}): string[] {
  return problems(text, opts).map((p) => p.code);
}

/** Applies LSP text edits to a text (edits must not overlap). */
export function applyEdits(doc: TextDocument, edits: readonly { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): string {
  return TextDocument.applyEdits(doc, edits.map((e) => ({ range: e.range, newText: e.newText })));
}

/** A complete, valid LLM tool; tests change one thing at a time. */
export function llmTool(overrides: { prompt?: string; variables?: unknown[]; metadata?: Record<string, unknown>; root?: Record<string, unknown> } = {}): string {
  const metadata = {
    prompt_name: 'Summariser',
    description: 'Summarises text.',
    usage_notes: 'Paste the text.',
    model_version: ['gpt-4'],
    creator: { name: 'Ann', email: '<EMAIL>', organization: 'Acme' },
    parameters: { temperature: 0.2, max_tokens: 500 },
    variables: overrides.variables ?? [
      { name: 'text', type: 'text', description: 'The text', default: '' },
      { name: 'target language', type: 'single-select', description: 'Language', default: 'English', allowed_values: ['English', 'French'] },
    ],
    expected_output: { type: 'text' },
    avatar_type: 'base64',
    avatar: '',
    timestamp: '2026-03-14T09:30:00Z',
    ...overrides.metadata,
  };
  return JSON.stringify({ version: '1.0', model_prompt: overrides.prompt ?? 'Summarise {{text}} in {{target language}}.', metadata, ...overrides.root }, null, 2);
}

/** A complete, valid smart tool named `tool` (matching the default fixture file name tool.json). */
export function smartTool(overrides: { code?: string; variables?: unknown[]; metadata?: Record<string, unknown>; root?: Record<string, unknown> } = {}): string {
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
