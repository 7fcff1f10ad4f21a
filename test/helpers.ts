import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService, type LanguageService } from '../server/src/service/languageService';
import type { Kind } from '../server/src/service/kind';
import type { ToolModel } from '../server/src/service/model';
import type { Settings } from '../server/src/service/settings';
import type { WorkspaceIndex } from '../server/src/service/validation/context';

export { llmTool, smartTool } from './fixtures';

/** Splits a fixture at its `|` cursor marker. */
export function cursor(fixture: string): { text: string; offset: number } {
  const offset = fixture.indexOf('|');
  if (offset < 0) throw new Error('fixture has no | cursor marker');
  return { text: fixture.slice(0, offset) + fixture.slice(offset + 1), offset };
}

/** Waits until `condition` holds or `timeoutMs` has passed; the caller asserts what it then finds. */
export async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

export interface Fixture {
  readonly service: LanguageService;
  readonly model: ToolModel;
  readonly doc: TextDocument;
}

export function load(
  text: string,
  opts: { uri?: string; kind?: Kind; settings?: Settings; workspace?: WorkspaceIndex } = {},
): Fixture {
  const service = getLanguageService({ settings: opts.settings, workspace: opts.workspace });
  const doc = TextDocument.create(opts.uri ?? 'file:///work/tool.json', 'tooldef', 1, text);
  return { service, model: service.parse(doc, opts.kind), doc };
}

/** Diagnostics as `code` plus the exact source text their range covers. */
export function problems(
  text: string,
  opts: Parameters<typeof load>[1] = {},
): { code: string; text: string; message: string; diagnostic: Diagnostic }[] {
  const { service, model, doc } = load(text, opts);
  return service
    .doValidation(model)
    .map((d) => ({ code: String(d.code), text: doc.getText(d.range), message: messageOf(d), diagnostic: d }));
}

/** LSP 3.18 allows markup in diagnostic messages; ours are always plain strings. */
export function messageOf(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

export function codes(text: string, opts: Parameters<typeof load>[1] = {}): string[] {
  return problems(text, opts).map((p) => p.code);
}

/** Applies LSP text edits to a text (edits must not overlap). */
export function applyEdits(
  doc: TextDocument,
  edits: readonly {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
  }[],
): string {
  return TextDocument.applyEdits(
    doc,
    edits.map((e) => ({ range: e.range, newText: e.newText })),
  );
}

/**
 * `stamp` (an ISO timestamp of whole seconds) was taken between `before` and now: bracketed by the
 * clock on both sides, so a slow machine cannot make it fail.
 */
export function assertNowBetween(stamp: string, before: number): void {
  const t = Date.parse(stamp);
  const after = Date.now();
  if (!(t >= Math.floor(before / 1000) * 1000 && t <= after))
    throw new Error(`${stamp} is not between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`);
}
