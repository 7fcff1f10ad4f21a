import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { Position } from 'vscode-languageserver-types';
import type { Kind } from './service/kind';
import type { AvatarInfo } from './service/avatar';
import type { EmbeddedField } from './service/embeddedField';
import type { OffsetEdit } from './service/json/edits';
import type { NewToolAnswers } from './service/templates';
import type { RunnableTool } from './engine/run/definition';
import type { ExpectedOutput, LlmToolResult } from './engine/llm/prompt';
import type { OutputViolation } from './engine/llm/expectedOutput';
import type { UploadValidation } from './engine/upload/types';
import type { AddCaseResult, NewCase } from './service/tests/addCase';
import type { Expectations, ExpectKey, InputValue } from './service/tests/testsFile';
import type { SuiteTool } from './engine/tests/tool';
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol';

/**
 * Custom messages between the client and the server; both sides import this one module. The client
 * never parses a definition: whatever it needs to know about one's content it asks here, and the
 * server answers from the same model its diagnostics come from.
 */

export type {
  Kind,
  AvatarInfo,
  EmbeddedField,
  OffsetEdit,
  NewToolAnswers,
  RunnableTool,
  LlmToolResult,
  ExpectedOutput,
  OutputViolation,
  UploadValidation,
  AddCaseResult,
  NewCase,
  SuiteTool,
};
export { STORE_SECRET_COMMAND } from './service/clientCommands';
/** The editors' cheap textual pre-check, before asking whether a JSON document is a definition. */
export { mayBeDefinition } from './service/kind';

/** The kind the user forced for a document (`tooldef.files.associations`), or null for detection. */
/**
 * Whether the user trusts the workspace (sent on start in `initializationOptions.trusted`, and when trust
 * is granted): in Restricted Mode hovers show no image from an author-chosen URL (it would be fetched).
 */
export const WorkspaceTrustNotification = new NotificationType<{ trusted: boolean }>('tooldef/workspaceTrust');

/**
 * `textDocument/publishDiagnostics` as this server sends it. When a smart tool opens, its problems but
 * the embedded Python's are published at once with `partial: true`; the complete set follows for the
 * same version (editors ignore the extra field; tests and benchmarks tell the two apart with it).
 */
export interface ToolDiagnosticsParams extends PublishDiagnosticsParams {
  readonly partial?: true;
}

export const DocumentKindNotification = new NotificationType<{ uri: string; kind: Kind | null }>(
  'tooldef/documentKind',
);

/**
 * A definition's text as the client holds it: an open document (any language), or a file no editor
 * shows. The text travels with the question because the server syncs only documents it owns.
 */
export interface DocumentText {
  readonly uri: string;
  readonly text: string;
  /** The kind `tooldef.files.associations` forces, if any. */
  readonly kind?: Kind | null;
}

/**
 * The diagnostics a definition's text would get (an embedded view's unsaved content, written back
 * in memory), as the editor's own: the same settings and workspace.
 */
export const DiagnoseRequest = new RequestType<DocumentText, Diagnostic[], void>('tooldef/diagnose');

/** The document's kind: the forced one, else what its content makes it; null when not a definition. */
export const KindRequest = new RequestType<DocumentText, Kind | null, void>('tooldef/kind');

export type SmartToolAnswer = { tool: RunnableTool } | { problems: string[] };

/** What running needs from a smart tool, or why it cannot run. */
export const SmartToolRequest = new RequestType<DocumentText, SmartToolAnswer, void>('tooldef/smartTool');

/** What previewing and running need from an LLM tool, or why it is not one. */
export const LlmToolRequest = new RequestType<DocumentText, LlmToolResult, void>('tooldef/llmTool');

export interface VariableSummary {
  readonly name: string;
  readonly description?: string;
}

/** The named variables, in array order (the outline's order). */
export const VariablesRequest = new RequestType<DocumentText, VariableSummary[], void>('tooldef/variables');

export interface EmbeddedParams extends DocumentText {
  readonly field: EmbeddedField;
  /** Ranges of the definition (`[start, end)` offsets) to place in the field's own text. */
  readonly ranges?: readonly (readonly [number, number])[];
}

export interface EmbeddedAnswer {
  /** The field's decoded content. */
  readonly content: string;
  /** Each of `ranges` as positions in `content`, or null when not wholly inside the field. */
  readonly ranges: ({ start: Position; end: Position } | null)[];
}

/** The decoded content of tool_code or model_prompt; null when the field is absent or not a string. */
export const EmbeddedRequest = new RequestType<EmbeddedParams, EmbeddedAnswer | null, void>('tooldef/embedded');

/**
 * Where positions of the field's decoded content are in the definition (a traceback's `File
 * "tool_code", line 13`, a range of the Python view); null for one that is not in it.
 */
export const EmbeddedPositionsRequest = new RequestType<
  DocumentText & { field: EmbeddedField; positions: Position[] },
  (Position | null)[] | null,
  void
>('tooldef/embeddedPositions');

/** The edit that makes the field hold `content`, escaped as JSON; null when it is no longer a string. */
export const WriteEmbeddedRequest = new RequestType<
  DocumentText & { field: EmbeddedField; content: string },
  OffsetEdit | null,
  void
>('tooldef/writeEmbedded');

export interface AvatarAnswer {
  readonly image: AvatarInfo;
  /** Null when the image is not one the service shows, or the file has no metadata object to hold it. */
  readonly edits: OffsetEdit[] | null;
  /** What to tell the user about the image (its size is not the recommended one). */
  readonly advice?: string;
}

/** The edits that embed a base64 image as the avatar, and what the image is. */
export const AvatarEditsRequest = new RequestType<DocumentText & { base64: string }, AvatarAnswer, void>(
  'tooldef/avatarEdits',
);

/** How an LLM tool's answer departs from its `expected_output` (empty when it fits). */
export const CheckOutputRequest = new RequestType<
  { text: string; expected: ExpectedOutput | undefined },
  OutputViolation[],
  void
>('tooldef/checkOutput');

/**
 * The upload's gate: the file's bytes (base64) validated as the editor validates them, with the
 * user's settings and the workspace's other tools.
 */
export const ValidateForUploadRequest = new RequestType<
  {
    uri: string;
    bytes: string;
    kind?: Kind | null;
    /** The user's own `tooldef.rules` (not the workspace's: a workspace cannot switch off the upload gate). */
    userRules?: unknown;
  },
  UploadValidation,
  void
>('tooldef/validateForUpload');

/** The text of a new, valid definition built from the New Smart Tool / New LLM Tool answers. */
export const NewDefinitionRequest = new RequestType<{ kind: Kind; answers: NewToolAnswers }, string, void>(
  'tooldef/newDefinition',
);

/**
 * The edit that appends a golden case with these inputs to a tests file (`text`: its current content,
 * empty for a new file), and the case's name made unique in it; or why the file cannot take it.
 */
export const AddTestCaseRequest = new RequestType<{ uri: string; text: string; case: NewCase }, AddCaseResult, void>(
  'tooldef/addTestCase',
);

/** A case of a tests file as the editor shows and runs it. */
export interface SuiteCase {
  readonly name: string;
  readonly index: number;
  /** The inputs it gives, in file order. */
  readonly inputs: [string, InputValue][];
  readonly expect: Expectations;
  /** Where it is in the tests file: the case's object, its name, and each expectation's key. */
  readonly range: Range;
  readonly nameRange: Range;
  readonly expectRanges: Partial<Record<ExpectKey, Range>>;
}

/** A tests file read with its definition beside it (URIs): what the Test Explorer lists and runs. */
export interface TestSuiteAnswer {
  readonly definitionUri: string;
  readonly goldenDirUri: string;
  /** Absent when the definition cannot run (`errors` say why). */
  readonly tool?: SuiteTool;
  readonly cases: SuiteCase[];
  /** What keeps the cases from running, in either file. */
  readonly errors: SuiteError[];
}

export interface SuiteError {
  readonly uri: string;
  readonly range: Range;
  readonly code: string;
  readonly message: string;
}

/** A tests file (open, else on disk) and its definition, read for the Test Explorer; null when it cannot be read. */
export const TestSuiteRequest = new RequestType<{ uri: string }, TestSuiteAnswer | null, void>('tooldef/testSuite');

/** The errors of a value against a case's `json` schema (empty: it fits; a schema that is not one says so). */
export const ValidateJsonRequest = new RequestType<{ schema: unknown; value: unknown }, string[], void>(
  'tooldef/validateJson',
);
