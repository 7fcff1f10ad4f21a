import * as vscode from 'vscode';
import {
  CodeActionKind,
  CodeActionRequest,
  type BaseLanguageClient as LanguageClient,
  type Diagnostic as LspDiagnostic,
  type RequestType,
} from 'vscode-languageclient';
import {
  DiagnoseRequest,
  EmbeddedPositionsRequest,
  TestSuiteRequest,
  ValidateJsonRequest,
  AddTestCaseRequest,
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
  type AddCaseResult,
  type TestSuiteAnswer,
  type AvatarAnswer,
  type DocumentText,
  type EmbeddedAnswer,
  type EmbeddedField,
  type ExpectedOutput,
  type Kind,
  type LlmToolResult,
  type NewCase,
  type NewToolAnswers,
  type OffsetEdit,
  type OutputViolation,
  type SmartToolAnswer,
  type UploadValidation,
  type VariableSummary,
} from '../../server/src/protocol';

/**
 * What the client knows about a definition's content, asked of the language server (which parsed it
 * already): the client never parses a definition itself. Answers wait for the server to start.
 */
export class DocumentQueries {
  /** Kinds by document, for the version asked about: the code lens, status bar and menus ask after each edit. */
  private readonly kinds = new WeakMap<
    vscode.TextDocument,
    { version: number; forced: Kind | undefined; kind: Promise<Kind | undefined> }
  >();

  constructor(private readonly client: Promise<LanguageClient | undefined>) {}

  /** The kind of a document: forced by `tooldef.files.associations`, else what its content makes it. */
  kindOf(doc: vscode.TextDocument): Promise<Kind | undefined> {
    const forced = associatedKind(doc);
    const known = this.kinds.get(doc);
    if (known?.version === doc.version && known.forced === forced) return known.kind;
    const kind = forced
      ? Promise.resolve(forced)
      : this.ask(KindRequest, textOf(doc), null).then((k) => k ?? undefined);
    this.kinds.set(doc, { version: doc.version, forced, kind });
    return kind;
  }

  smartTool(doc: vscode.TextDocument): Promise<SmartToolAnswer> {
    return this.ask(SmartToolRequest, textOf(doc), { problems: [NO_SERVER] });
  }

  llmTool(doc: vscode.TextDocument): Promise<LlmToolResult> {
    return this.ask(LlmToolRequest, textOf(doc), { ok: false, error: NO_SERVER });
  }

  variables(doc: vscode.TextDocument): Promise<VariableSummary[]> {
    return this.ask(VariablesRequest, textOf(doc), []);
  }

  /** The field's decoded content of a definition whose text is `text`, and `ranges` placed in it. */
  embedded(
    uri: vscode.Uri,
    text: string,
    field: EmbeddedField,
    ranges?: [number, number][],
  ): Promise<EmbeddedAnswer | null> {
    return this.ask(EmbeddedRequest, { uri: uri.toString(), text, field, ranges }, null);
  }

  writeEmbedded(uri: vscode.Uri, text: string, field: EmbeddedField, content: string): Promise<OffsetEdit | null> {
    return this.ask(WriteEmbeddedRequest, { uri: uri.toString(), text, field, content }, null);
  }

  avatarEdits(doc: vscode.TextDocument, base64: string): Promise<AvatarAnswer | undefined> {
    return this.ask(AvatarEditsRequest, { ...textOf(doc), base64 }, undefined);
  }

  checkOutput(text: string, expected: ExpectedOutput | undefined): Promise<OutputViolation[]> {
    return this.ask(CheckOutputRequest, { text, expected }, []);
  }

  /**
   * The upload's gate, run by the server with the user's own rule settings (a workspace's `tooldef.rules`
   * cannot switch it off) and the workspace's other tools.
   */
  async validateForUpload(doc: vscode.TextDocument, bytes: Uint8Array): Promise<UploadValidation> {
    const params = {
      uri: doc.uri.toString(),
      bytes: Buffer.from(bytes).toString('base64'),
      kind: associatedKind(doc) ?? null,
      userRules: vscode.workspace.getConfiguration('tooldef').inspect('rules')?.globalValue ?? {},
    };
    const answer = await this.ask(ValidateForUploadRequest, params, undefined);
    if (!answer) throw new Error(NO_SERVER);
    return answer;
  }

  newDefinition(kind: Kind, answers: NewToolAnswers): Promise<string | undefined> {
    return this.ask(NewDefinitionRequest, { kind, answers }, undefined).then((text) => text || undefined);
  }

  /** The edit that appends a golden case to a tests file whose text is `text` (empty: a new file). */
  addTestCase(uri: vscode.Uri, text: string, c: NewCase): Promise<AddCaseResult> {
    return this.ask(AddTestCaseRequest, { uri: uri.toString(), text, case: c }, { error: NO_SERVER });
  }

  /** The diagnostics `text` would get as the content of `doc` (an embedded view's unsaved edits, written back). */
  diagnose(doc: vscode.TextDocument, text: string): Promise<LspDiagnostic[]> {
    return this.ask(DiagnoseRequest, { ...textOf(doc), text }, []);
  }

  /** Where positions of the field's decoded content are in the definition (null: not in it). */
  async embeddedPositions(
    doc: vscode.TextDocument,
    field: EmbeddedField,
    positions: readonly vscode.Position[],
  ): Promise<(vscode.Position | null)[]> {
    const params = {
      ...textOf(doc),
      field,
      positions: positions.map((p) => ({ line: p.line, character: p.character })),
    };
    const answer = await this.ask(EmbeddedPositionsRequest, params, null);
    return positions.map((_, i) => {
      const p = answer?.[i];
      return p ? new vscode.Position(p.line, p.character) : null;
    });
  }

  /** A tests file (open, else on disk) read with its definition; null when it cannot be read. */
  testSuite(uri: vscode.Uri): Promise<TestSuiteAnswer | null> {
    return this.ask(TestSuiteRequest, { uri: uri.toString() }, null);
  }

  /** The errors of a value against a case's `json` schema (empty: it fits). */
  async validateJson(schema: unknown, value: unknown): Promise<string[]> {
    const answer = await this.ask(ValidateJsonRequest, { schema, value }, undefined);
    if (!answer) throw new Error(NO_SERVER);
    return answer;
  }

  /**
   * The server's quick fixes for these diagnostics of a definition at `range` (a view asks with the
   * definition's own diagnostics, which the Problems panel shows in the view instead).
   */
  async fixes(
    uri: vscode.Uri,
    range: vscode.Range,
    diagnostics: readonly vscode.Diagnostic[],
  ): Promise<vscode.CodeAction[]> {
    const client = await this.client;
    if (!client?.isRunning() || !diagnostics.length) return [];
    const c2p = client.code2ProtocolConverter;
    const answer = await client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: c2p.asUri(uri) },
      range: c2p.asRange(range),
      context: { diagnostics: c2p.asDiagnosticsSync([...diagnostics]), only: [CodeActionKind.QuickFix] },
    });
    const actions = answer ? await client.protocol2CodeConverter.asCodeActionResult(answer) : [];
    return actions.filter((a): a is vscode.CodeAction => a instanceof vscode.CodeAction);
  }

  /** A request's answer, or `fallback` when the server is not running (it failed to start, or stopped). */
  private async ask<P, R, F>(type: RequestType<P, R, void>, params: P, fallback: F): Promise<R | F> {
    const client = await this.client;
    if (!client?.isRunning()) return fallback;
    // `params` is checked against `type` by this method's own signature; the client's overloads cannot
    // resolve their conditional parameter type for a generic P.
    return client.sendRequest(type, params as never);
  }
}

const NO_SERVER = 'The Tool Definition language server is not running; see the Tool Definition log.';

function textOf(doc: vscode.TextDocument): DocumentText {
  return { uri: doc.uri.toString(), text: doc.getText(), kind: associatedKind(doc) ?? null };
}

/** The kind `tooldef.files.associations` forces on a document, matched with VS Code's own globs. */
export function associatedKind(doc: vscode.TextDocument): Kind | undefined {
  const associations =
    vscode.workspace.getConfiguration('tooldef', doc.uri).get<Record<string, string>>('files.associations') ?? {};
  const hit = Object.entries(associations).find(
    ([pattern, kind]) => (kind === 'smart' || kind === 'llm') && vscode.languages.match({ pattern }, doc) > 0,
  );
  return hit?.[1] as Kind | undefined;
}
