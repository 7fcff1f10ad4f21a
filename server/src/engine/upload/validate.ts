/** Validation before an upload, with the same pure language service the editor and `tooldef check` use. */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Kind } from '../../service/kind';
import { getLanguageService } from '../../service/languageService';
import type { Settings } from '../../service/settings';
import type { WorkspaceIndex } from '../../service/validation/context';
import { uploadFileName } from './fileName';
import type { UploadValidation } from './types';
import { decodeDefinition } from '../../service/encoding';

export interface ValidateOptions {
  /** The file's path or URI: its name is the fallback upload name, and rules like file-name-mismatch use it. */
  readonly filePath?: string;
  readonly kind?: Kind;
  readonly settings?: Settings;
  readonly workspace?: WorkspaceIndex;
}

function documentUri(filePath: string | undefined): string {
  if (!filePath) return 'untitled:tool.json';
  if (/^[a-z][a-z0-9+.-]+:/i.test(filePath) && !/^[a-z]:[\\/]/i.test(filePath)) return filePath; // already a URI
  return isAbsolute(filePath) ? pathToFileURL(filePath).toString() : `untitled:${filePath}`;
}

/**
 * Validates the bytes that will be uploaded, decoded exactly as `tooldef check` reads them
 * (service/encoding.ts: not UTF-8 is a problem that blocks the upload).
 */
export function validateForUpload(bytes: Uint8Array, opts: ValidateOptions = {}): UploadValidation {
  const { text, problem } = decodeDefinition(bytes);
  const problems = problem ? [problem.message] : [];
  const service = getLanguageService({ settings: opts.settings, workspace: opts.workspace });
  const model = service.parse(TextDocument.create(documentUri(opts.filePath), 'json', 1, text), opts.kind);
  const diagnostics = service.doValidation(model);
  const errorDiagnostics = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  if (!model.kind && errorDiagnostics === 0) {
    problems.push(
      'Not a tool definition: an LLM tool has "model_prompt", a smart tool a "metadata" object with "tool_name" or "tool_code".',
    );
  }
  const nameNode = model.kind ? model.toolNameNode : undefined;
  const toolName = typeof nameNode?.value === 'string' ? nameNode.value : undefined;
  return {
    kind: model.kind ?? null,
    toolName,
    fileName: uploadFileName(toolName, opts.filePath),
    diagnostics,
    problems,
    errors: errorDiagnostics + problems.length,
    warnings: diagnostics.filter((d) => d.severity === DiagnosticSeverity.Warning).length,
  };
}
