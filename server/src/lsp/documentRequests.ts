import type { Connection, Diagnostic } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import {
  AddTestCaseRequest,
  DiagnoseRequest,
  EmbeddedPositionsRequest,
  AvatarEditsRequest,
  CheckOutputRequest,
  EmbeddedRequest,
  KindRequest,
  LlmToolRequest,
  NewDefinitionRequest,
  SmartToolRequest,
  ValidateForUploadRequest,
  VariablesRequest,
  WriteEmbeddedRequest,
  type DocumentText,
} from '../protocol';
import { inspectBase64Image } from '../service/avatar';
import { formatBytes } from '../service/format';
import { setAvatarEdits } from '../service/avatarEdit';
import { embeddedOffsets, embeddedRanges, readEmbedded, writeEmbedded } from '../service/embeddedField';
import type { Kind } from '../service/kind';
import { ToolModel } from '../service/model';
import { newDefinitionText } from '../service/templates';
import { runnableTool } from '../engine/run/definition';
import { llmToolOf } from '../engine/llm/prompt';
import { outputCheck } from '../engine/llm/check/load';
import type { validateForUpload } from '../engine/upload/validate';
import { base64Bytes } from '../service/base64';
import type { Settings } from '../service/settings';
import type { WorkspaceIndex } from '../service/validation/context';
import { runSafe } from './runSafe';
import { parseJson } from '../service/json/tree';
import { testsSupport } from '../service/tests/load';
import { readConfig } from '../service/config';

export interface DocumentRequestsContext {
  /** The server's own model of the document when it holds the very text asked about (not parsed again). */
  readonly synced: (uri: string, text: string) => ToolModel | undefined;
  /** The user's settings as the server has them now. */
  readonly settings: () => Settings;
  readonly workspace: WorkspaceIndex;
  /** The diagnostics the editor would publish for this text of the document. */
  readonly diagnose: (uri: string, text: string, kind: Kind | undefined) => Diagnostic[];
  /** The upload gate, where uploads can be made (not in a browser). */
  readonly validateForUpload?: typeof validateForUpload;
}

/** The client's questions about a definition's content (server/src/protocol.ts). */
export function registerDocumentRequests(
  connection: Connection,
  { synced, settings, workspace, diagnose, validateForUpload }: DocumentRequestsContext,
): void {
  const modelOf = (p: DocumentText): ToolModel =>
    synced(p.uri, p.text) ?? new ToolModel(TextDocument.create(p.uri, 'tooldef', 0, p.text), p.kind ?? undefined);

  connection.onRequest(KindRequest, (p, token) =>
    runSafe(connection, 'kind', null, token, () => modelOf(p).kind ?? null),
  );

  connection.onRequest(SmartToolRequest, (p, token) =>
    runSafe(
      connection,
      'smart tool',
      { problems: ['The language server could not read this file; see its log.'] },
      token,
      () => runnableTool(modelOf(p)),
    ),
  );

  connection.onRequest(LlmToolRequest, (p, token) =>
    runSafe(
      connection,
      'LLM tool',
      { ok: false as const, error: 'The language server could not read this file; see its log.' },
      token,
      () => llmToolOf(modelOf(p)),
    ),
  );

  connection.onRequest(VariablesRequest, (p, token) =>
    runSafe(connection, 'variables', [], token, () =>
      modelOf(p).variables.flatMap((v) => (v.name ? [{ name: v.name, description: v.description }] : [])),
    ),
  );

  connection.onRequest(EmbeddedRequest, (p, token) =>
    runSafe(connection, 'embedded field', null, token, () => {
      const embedded = readEmbedded(p.uri, p.text, p.field);
      return embedded ? { content: embedded.text, ranges: embeddedRanges(embedded, p.ranges ?? []) } : null;
    }),
  );

  connection.onRequest(AddTestCaseRequest, (p, token) =>
    runSafe(connection, 'add test case', { error: 'The case could not be added.' }, token, () =>
      testsSupport().addTestCase(p.text, parseJson(p.text), p.case),
    ),
  );

  connection.onRequest(DiagnoseRequest, (p, token) =>
    runSafe(connection, 'diagnose', [], token, () => diagnose(p.uri, p.text, p.kind ?? undefined)),
  );

  connection.onRequest(EmbeddedPositionsRequest, (p, token) =>
    runSafe(connection, 'embedded positions', null, token, () => {
      const embedded = readEmbedded(p.uri, p.text, p.field);
      if (!embedded) return null;
      const doc = TextDocument.create(p.uri, 'json', 0, p.text);
      return embeddedOffsets(embedded, p.positions).map((o) => (o === undefined ? null : doc.positionAt(o)));
    }),
  );

  connection.onRequest(WriteEmbeddedRequest, (p, token) =>
    runSafe(
      connection,
      'write embedded field',
      null,
      token,
      () => writeEmbedded(p.uri, p.text, p.field, p.content) ?? null,
    ),
  );

  connection.onRequest(AvatarEditsRequest, (p, token) =>
    runSafe(
      connection,
      'avatar edits',
      { image: { ok: false as const, problem: 'not-image' as const, bytes: 0 }, edits: null },
      token,
      () => {
        const image = inspectBase64Image(p.base64);
        if (!image.ok) return { image, edits: null };
        const advice =
          image.type !== 'svg' && (image.width !== 256 || image.height !== 256)
            ? `The avatar is ${image.width}×${image.height} pixels (${formatBytes(image.bytes)}); 256×256 is recommended.`
            : undefined;
        return { image, edits: setAvatarEdits(modelOf(p), p.base64) ?? null, advice };
      },
    ),
  );

  connection.onRequest(CheckOutputRequest, (p, token) =>
    runSafe(connection, 'check output', [], token, () => outputCheck().checkOutput(p.text, p.expected)),
  );

  if (validateForUpload)
    connection.onRequest(ValidateForUploadRequest, (p, token) =>
      runSafe(connection, 'validate for upload', unreadable(), token, () =>
        validateForUpload(base64Bytes(p.bytes), {
          filePath: p.uri,
          kind: p.kind ?? undefined,
          // The user's rules only: a workspace's settings cannot switch off what guards an upload.
          settings: { ...settings(), rules: readConfig({ rules: p.userRules }).settings.rules },
          workspace,
        }),
      ),
    );

  connection.onRequest(NewDefinitionRequest, (p, token) =>
    runSafe(connection, 'new definition', '', token, () => newDefinitionText(p.kind, p.answers)),
  );
}

/** What blocks an upload when the file could not be validated at all. */
function unreadable() {
  const problem = 'The language server could not validate this file; see its log.';
  return {
    kind: null,
    toolName: undefined,
    fileName: 'tool.json',
    diagnostics: [],
    problems: [problem],
    errors: 1,
    warnings: 0,
  };
}
