import type { FormattingOptions } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CompletionList,
  type CodeAction,
  type Diagnostic,
  type DocumentHighlight,
  type DocumentSymbol,
  type FoldingRange,
  type Hover,
  type Location,
  type Position,
  type Range,
  type SelectionRange,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-types';
import { doCodeActions, type CodeActionOptions } from './codeActions';
import { doComplete } from './completion';
import { fileKey } from './fileKey';
import { describeVariable, doHover } from './hover';
import type { Kind } from './kind';
import { ToolModel } from './model';
import {
  doRename,
  findDefinition,
  findDocumentHighlights,
  findReferences,
  prepareRename,
  type RenameResult,
} from './navigation';
import { DEFAULT_SETTINGS, type Settings } from './settings';
import { format, getFoldingRanges, getSelectionRanges } from './structureFeatures';
import { findDocumentSymbols } from './symbols';
import { semanticTokens } from './semanticTokens';
import type { WorkspaceIndex } from './validation/context';
import { collectProblems, toDiagnostics } from './validation/index';
import type { TestsContext } from './tests/features';
import { testsSupport } from './tests/load';
import { parsedTests } from './tests/parsed';
import { testsCodeActions, testsDiagnostics } from './tests/validation';

/** Which problems a validation reports: all of them, or all but the embedded Python's. */
export type ValidationStage = 'complete' | 'before-python';

export interface LanguageServiceOptions {
  settings?: Settings;
  workspace?: WorkspaceIndex;
  /** Analyse smart tools' tool_code as Python (default true; benchmarks of the JSON rules turn it off). */
  embeddedPython?: boolean;
}

/**
 * The pure language service: no LSP transport, no editor. Callers parse a document version once
 * with `parse` (or through a `ModelCache`) and hand the model to each feature.
 */
export interface LanguageService {
  configure(settings: Settings): void;
  readonly settings: Settings;
  /** `previous`: the model of the document's previous version, whose incremental state is reused. */
  parse(document: TextDocument, forcedKind?: Kind, previous?: ToolModel): ToolModel;
  /** `before-python`: every rule but the embedded Python's (whose analysis need not be done). */
  doValidation(model: ToolModel, stage?: ValidationStage): Diagnostic[];
  /**
   * A tests file's diagnostics against its definition (undefined: none beside it) and the files of its
   * golden folder (names).
   */
  doTestsValidation(
    tests: TextDocument,
    definition: ToolModel | undefined,
    goldenFiles?: readonly string[],
  ): Diagnostic[];
  doTestsCodeActions(diagnostics: readonly Diagnostic[]): CodeAction[];
  /** In a tests file: its inputs' names and values, from the definition's variables. */
  doTestsComplete(tests: TextDocument, definition: ToolModel, position: Position): CompletionList;
  doTestsHover(tests: TextDocument, definition: ToolModel, position: Position): Hover | null;
  findTestsDefinition(tests: TextDocument, definition: ToolModel, position: Position): Location[];
  prepareTestsRename(
    tests: TextDocument,
    definition: ToolModel,
    position: Position,
  ): { range: Range; placeholder: string } | null;
  /** Renames the variable an input names, in the definition and the tests file. */
  doTestsRename(tests: TextDocument, definition: ToolModel, position: Position, newName: string): RenameResult;
  /** A definition's rename of `oldName`, with the inputs of its tests file that name it renamed too. */
  withTestsRename(edit: WorkspaceEdit, tests: TextDocument, oldName: string, newName: string): WorkspaceEdit;
  /** `triggerCharacter`: the character whose typing asked (LSP's completion context), if one did. */
  doComplete(model: ToolModel, position: Position, triggerCharacter?: string): CompletionList;
  /** `remoteImages`: an avatar URL may be shown as an image (fetched): the workspace is trusted. */
  doHover(model: ToolModel, position: Position, remoteImages?: boolean): Hover | null;
  doCodeActions(
    model: ToolModel,
    range: Range,
    diagnostics: readonly Diagnostic[],
    options?: CodeActionOptions,
  ): CodeAction[];
  findDocumentSymbols(model: ToolModel): DocumentSymbol[];
  findDefinition(model: ToolModel, position: Position): Location[];
  findReferences(model: ToolModel, position: Position, includeDeclaration: boolean): Location[];
  findDocumentHighlights(model: ToolModel, position: Position): DocumentHighlight[];
  prepareRename(model: ToolModel, position: Position): { range: Range; placeholder: string } | null;
  doRename(model: ToolModel, position: Position, newName: string): RenameResult;
  format(model: ToolModel, range: Range | undefined, options: FormattingOptions): TextEdit[];
  getFoldingRanges(model: ToolModel): FoldingRange[];
  getSelectionRanges(model: ToolModel, positions: readonly Position[]): SelectionRange[];
  /** LSP-encoded semantic tokens (legend: `SEMANTIC_LEGEND`). */
  getSemanticTokens(model: ToolModel): number[];
}

export function getLanguageService(options: LanguageServiceOptions = {}): LanguageService {
  let settings = options.settings ?? DEFAULT_SETTINGS;
  const at = (model: ToolModel, p: Position): number => model.offsetAt(p);
  return {
    configure(next) {
      settings = next;
    },
    get settings() {
      return settings;
    },
    parse: (document, forcedKind, previous) => new ToolModel(document, forcedKind, previous),
    doValidation: (model, stage = 'complete') =>
      toDiagnostics(
        model,
        collectProblems(model, settings, options.workspace, stage === 'complete' && (options.embeddedPython ?? true)),
        settings,
      ),
    doTestsValidation: (tests, definition, goldenFiles = []) =>
      testsDiagnostics(tests, definition, goldenFiles, settings),
    doTestsCodeActions: testsCodeActions,
    doTestsComplete: (tests, definition, p) =>
      CompletionList.create(testsSupport().testsCompletion(testsContext(tests, definition), tests.offsetAt(p)), false),
    doTestsHover: (tests, definition, p) =>
      testsSupport().testsHover(testsContext(tests, definition), tests.offsetAt(p)),
    findTestsDefinition: (tests, definition, p) =>
      testsSupport().testsDefinition(testsContext(tests, definition), tests.offsetAt(p)),
    prepareTestsRename: (tests, definition, p) =>
      testsSupport().prepareTestsRename(testsContext(tests, definition), tests.offsetAt(p)),
    doTestsRename: (tests, definition, p, newName) =>
      testsSupport().doTestsRename(testsContext(tests, definition), tests.offsetAt(p), newName),
    withTestsRename: (edit, tests, oldName, newName) =>
      testsSupport().withTestsEdits(edit, tests, parsedTests(tests), oldName, newName),
    doComplete: (model, p, trigger) => doComplete(model, at(model, p), settings, trigger),
    doHover: (model, p, remoteImages) => doHover(model, at(model, p), remoteImages),
    doCodeActions,
    findDocumentSymbols,
    findDefinition: (model, p) => findDefinition(model, at(model, p)),
    findReferences: (model, p, includeDeclaration) => findReferences(model, at(model, p), includeDeclaration),
    findDocumentHighlights: (model, p) => findDocumentHighlights(model, at(model, p)),
    prepareRename: (model, p) => prepareRename(model, at(model, p)),
    doRename: (model, p, newName) => doRename(model, at(model, p), newName),
    format,
    getFoldingRanges,
    getSelectionRanges,
    getSemanticTokens: semanticTokens,
  };
}

/** What a tests file's features need: its JSON, its definition and the definition's own hover and rename. */
function testsContext(doc: TextDocument, definition: ToolModel): TestsContext {
  return {
    doc,
    json: parsedTests(doc),
    definition,
    describe: (v) => describeVariable(definition, v),
    rename: (offset, newName) => doRename(definition, offset, newName),
  };
}

/** At most this many files not open keep their analysis (`ModelCache.prepare`) … */
const MAX_KEPT = 8;
/**
 * … of at most this many characters in all: a 5,000-line tool_code (a 250,000-character file) keeps
 * 7-15 MB of memory in its analysis (syntax tree, facts per statement).
 */
const MAX_KEPT_CHARS = 800_000;

/**
 * Keeps the parsed model of the latest version of each open document: one parse per version. The
 * models of smart tools not open — analysed ahead of opening (`prepare`) or just closed — are kept
 * too, within a budget (the oldest go first), keyed by `fileKey` (the scan and the editor may spell a
 * file's URI differently): they seed the first model of their document when it is opened, which then
 * reuses their embedded-Python analysis, re-parsing only what differs.
 */
export class ModelCache {
  private readonly models = new Map<string, ToolModel>();
  private readonly kept = new Map<string, ToolModel>();
  private keptChars = 0;

  constructor(private readonly service: LanguageService) {}

  get(document: TextDocument, forcedKind?: Kind): ToolModel {
    const cached = this.models.get(document.uri);
    if (
      cached &&
      cached.version === document.version &&
      cached.document === document &&
      cached.forcedKind === forcedKind
    )
      return cached;
    const previous = cached ?? this.take(fileKey(document.uri));
    const model = this.service.parse(document, forcedKind, previous);
    this.models.set(document.uri, model);
    return model;
  }

  /** The model of an open document's latest version parsed, if any. */
  current(uri: string): ToolModel | undefined {
    return this.models.get(uri);
  }

  /** The model kept for a file that is not open (analysed ahead, or closed), if any. */
  keptModel(uri: string): ToolModel | undefined {
    return this.kept.get(fileKey(uri));
  }

  /** Whether a file of this many characters would be kept without letting go of another. */
  hasRoomFor(chars: number): boolean {
    return this.kept.size < MAX_KEPT && this.keptChars + chars <= MAX_KEPT_CHARS;
  }

  /** Keeps the model of a file that is not open, its analysis done, for when it is opened. */
  prepare(model: ToolModel): void {
    const key = fileKey(model.document.uri);
    for (const uri of this.models.keys()) if (fileKey(uri) === key) return;
    this.take(key);
    if (model.text.length > MAX_KEPT_CHARS) return;
    this.kept.set(key, model);
    this.keptChars += model.text.length;
    for (const [oldest] of this.kept) {
      if (this.kept.size <= MAX_KEPT && this.keptChars <= MAX_KEPT_CHARS) break;
      this.take(oldest);
    }
  }

  /** Drops what is kept for `uri` (the file was deleted). */
  unprepare(uri: string): void {
    this.take(fileKey(uri));
  }

  /** A document was closed: a smart tool's finished analysis is kept, for when it is opened again. */
  delete(uri: string): void {
    const model = this.models.get(uri);
    this.models.delete(uri);
    if (model?.kind === 'smart' && model.finishedPython) this.prepare(model);
  }

  private take(key: string): ToolModel | undefined {
    const model = this.kept.get(key);
    if (model) {
      this.kept.delete(key);
      this.keptChars -= model.text.length;
    }
    return model;
  }
}

export type { ToolModel, Settings, Kind, WorkspaceIndex };
