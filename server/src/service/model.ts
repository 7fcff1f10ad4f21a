import type { TextDocument } from 'vscode-languageserver-textdocument';
import { parseJson, type JsonNode, type ParsedJson } from './json/tree';
import { child, stringValue } from './json/nodes';
import { EmbeddedText } from './json/embeddedText';
import { kindOfRoot, type Kind } from './kind';
import { scanPlaceholders, type Placeholder } from './template';
import { LineIndex } from './positions';
import type { PythonDocument, PythonFacts } from './python';
import { pythonAnalysis } from './python/load';
import { finish, type Steps } from './steps';
import type { Position } from 'vscode-languageserver-types';

export interface VariableDecl {
  readonly index: number;
  readonly node: JsonNode;
  readonly name: string | undefined;
  readonly nameNode: JsonNode | undefined;
  readonly type: string | undefined;
  readonly typeNode: JsonNode | undefined;
  readonly defaultNode: JsonNode | undefined;
  readonly allowedNode: JsonNode | undefined;
  /** String entries of `allowed_values`, when it is an array. */
  readonly allowedValues: string[] | undefined;
  readonly description: string | undefined;
}

export interface PythonModel {
  readonly node: JsonNode;
  readonly embedded: EmbeddedText;
  readonly facts: PythonFacts;
}

export interface PromptModel {
  readonly node: JsonNode;
  readonly embedded: EmbeddedText;
  readonly placeholders: readonly Placeholder[];
}

/**
 * Everything derived from one version of a document, parsed once and shared by every feature.
 * Derived parts are computed on first use.
 */
export class ToolModel {
  readonly json: ParsedJson;
  readonly kind: Kind | undefined;
  /** The kind the user forced (setting or CLI flag), if any. */
  readonly forcedKind: Kind | undefined;
  readonly text: string;
  /** The document version parsed (LSP documents are updated in place, so the model keeps its own). */
  readonly version: number;
  private readonly lines: LineIndex;
  private metadataMemo?: JsonNode | null;
  private variablesMemo?: VariableDecl[];
  private byNameMemo?: Map<string, VariableDecl>;
  private promptMemo?: PromptModel | null;
  /** Per-version memo for features that derive data from the model (references by name …). */
  readonly memo = new Map<string, unknown>();

  /** Incremental Python state, handed from one version's model to the next. */
  private pythonDocument: PythonDocument | undefined;
  private pythonMemo?: PythonModel | null;
  private pythonWork?: Steps<void>;

  constructor(
    readonly document: TextDocument,
    forcedKind?: Kind,
    previous?: ToolModel,
  ) {
    this.pythonDocument = previous?.pythonDocument;
    this.text = document.getText();
    this.version = document.version;
    this.lines = new LineIndex(this.text);
    this.json = parseJson(this.text);
    this.forcedKind = forcedKind;
    this.kind = forcedKind ?? kindOfRoot(this.json.root);
  }

  positionAt(offset: number): Position {
    return this.lines.positionAt(offset);
  }

  offsetAt(position: Position): number {
    return this.lines.offsetAt(position);
  }

  get root(): JsonNode | undefined {
    return this.json.root;
  }

  /** The `metadata` object (looked up once: nearly every rule starts from it). */
  get metadata(): JsonNode | undefined {
    if (this.metadataMemo === undefined) {
      const m = child(this.root, 'metadata');
      this.metadataMemo = m?.type === 'object' ? m : null;
    }
    return this.metadataMemo ?? undefined;
  }

  /** The name the workspace shows: `tool_name` of a smart tool, `prompt_name` of an LLM tool. */
  get toolNameNode(): JsonNode | undefined {
    const n = child(this.metadata, this.kind === 'llm' ? 'prompt_name' : 'tool_name');
    return n?.type === 'string' ? n : undefined;
  }

  get variables(): readonly VariableDecl[] {
    if (!this.variablesMemo) {
      const arr = child(this.metadata, 'variables');
      this.variablesMemo = arr?.type === 'array' ? arr.children!.map(toVariable) : [];
    }
    return this.variablesMemo;
  }

  get prompt(): PromptModel | undefined {
    if (this.promptMemo === undefined) {
      const node = child(this.root, 'model_prompt');
      if (node?.type === 'string') {
        const embedded = this.embedded(node);
        this.promptMemo = { node, embedded, placeholders: scanPlaceholders(embedded.text) };
      } else {
        this.promptMemo = null;
      }
    }
    return this.promptMemo ?? undefined;
  }

  /** The string node of a smart tool's `metadata.tool_code` (no analysis needed). */
  get pythonNode(): JsonNode | undefined {
    const node = this.kind === 'smart' ? child(this.metadata, 'tool_code') : undefined;
    return node?.type === 'string' ? node : undefined;
  }

  /** Whether `offset` is inside the content of tool_code (between its quotes). */
  inPython(offset: number): boolean {
    const code = this.pythonNode;
    return !!code && offset > code.offset && offset < code.offset + code.length;
  }

  /** `metadata.tool_code` of a smart tool, decoded, with the analysis of its Python. */
  get python(): PythonModel | undefined {
    const steps = this.pythonSteps();
    if (steps) finish(steps);
    return this.pythonMemo ?? undefined;
  }

  /** `python` when its analysis is finished (or adopted); undefined otherwise, never computing it. */
  get finishedPython(): PythonModel | undefined {
    return this.pythonSteps() ? undefined : (this.pythonMemo ?? undefined);
  }

  /**
   * What is left of computing `python`, as resumable steps (see ../steps.ts); undefined once done.
   * The language server runs them in slices between requests; `python` finishes them at once, so
   * whatever was already done is not done twice.
   */
  pythonSteps(): Steps<void> | undefined {
    if (this.pythonMemo === undefined && !this.pythonNode) this.pythonMemo = null;
    if (this.pythonMemo !== undefined) return undefined;
    return (this.pythonWork ??= this.computePython());
  }

  private *computePython(): Steps<void> {
    const node = this.pythonNode!;
    const embedded = this.embedded(node);
    this.pythonDocument ??= new (pythonAnalysis().PythonDocument)();
    const facts = yield* this.pythonDocument.updateSteps(embedded.text);
    this.pythonMemo = { node, embedded, facts };
  }

  /**
   * Takes a kept analysis of this very tool_code (`lookup` by its decoded text: the persisted cache)
   * instead of computing it; answers whether there was one. The syntax tree that makes the next edit
   * incremental is then built by `treeSteps`.
   */
  adoptPython(lookup: (source: string) => PythonFacts | undefined): boolean {
    const node = this.pythonNode;
    if (this.pythonMemo !== undefined || this.pythonWork || !node) return false;
    const embedded = this.embedded(node);
    const facts = lookup(embedded.text);
    if (facts) this.pythonMemo = { node, embedded, facts };
    return !!facts;
  }

  /** What is left of building the syntax tree of an adopted analysis (see adoptPython), if anything. */
  treeSteps(): Steps<void> | undefined {
    const python = this.pythonMemo;
    if (this.pythonDocument || !python) return undefined;
    const document = (this.pythonDocument = new (pythonAnalysis().PythonDocument)());
    return (function* () {
      yield* document.updateSteps(python.embedded.text);
    })();
  }

  /**
   * What the last Python analysis of this document (or of the one it was made from) did; see
   * PythonDocument.lastWork.
   */
  get pythonAnalysisWork(): { readonly chunks: number; readonly analysed: number } | undefined {
    return this.pythonDocument?.lastWork;
  }

  /** The decoded content of a string node with its position map (decoded once by a valid parse). */
  embedded(node: JsonNode): EmbeddedText {
    const valid = this.json.syntaxErrors.length === 0;
    return EmbeddedText.fromLiteral(this.text, node, valid ? (node.value as string) : undefined);
  }

  /** Declared variables by exact name (the first declaration wins). */
  variableByName(name: string): VariableDecl | undefined {
    return this.variablesByName.get(name);
  }

  /** The declared names, each with its first declaration: one lookup per placeholder or key. */
  get variablesByName(): ReadonlyMap<string, VariableDecl> {
    if (!this.byNameMemo) {
      this.byNameMemo = new Map();
      for (const v of this.variables)
        if (v.name !== undefined && !this.byNameMemo.has(v.name)) this.byNameMemo.set(v.name, v);
    }
    return this.byNameMemo;
  }
}

/** One pass over the variable's properties (the last of duplicate keys wins, as with `child`). */
function toVariable(node: JsonNode, index: number): VariableDecl {
  let nameNode: JsonNode | undefined;
  let typeNode: JsonNode | undefined;
  let defaultNode: JsonNode | undefined;
  let allowedNode: JsonNode | undefined;
  let descriptionNode: JsonNode | undefined;
  if (node.type === 'object') {
    for (const prop of node.children!) {
      const value = prop.children![1];
      switch (prop.children![0].value) {
        case 'name':
          nameNode = value;
          break;
        case 'type':
          typeNode = value;
          break;
        case 'default':
          defaultNode = value;
          break;
        case 'allowed_values':
          allowedNode = value;
          break;
        case 'description':
          descriptionNode = value;
          break;
      }
    }
  }
  return {
    index,
    node,
    name: stringValue(nameNode),
    nameNode: nameNode?.type === 'string' ? nameNode : undefined,
    type: stringValue(typeNode),
    typeNode,
    defaultNode,
    allowedNode,
    allowedValues:
      allowedNode?.type === 'array'
        ? allowedNode.children!.filter((c) => c.type === 'string').map((c) => c.value as string)
        : undefined,
    description: stringValue(descriptionNode),
  };
}
