// In-process, side by side on the same text: JSON.parse (the floor), vscode-json-languageservice
// validating against our schema (what a user would otherwise have), and our parse + doValidation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as jsonls from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../../server/src/service/languageService';
import { generateFixtures, schemaKind, type BenchFile } from './fixtures';
import { compare, gc, type CompareOptions, type Compared } from './stats';

export { generateFixtures };
export type { BenchFile };

export interface ServiceResult {
  readonly id: string;
  readonly bytes: number;
  readonly jsonParse: Compared;
  readonly vscodeJson: Compared;
  readonly ours: Compared;
  /** Our `parse` alone (JSON.parse and the node tree; positions are found on first read), for the analysis. */
  readonly oursParseOnly: Compared;
  /**
   * Parse + doValidation, then the position of every node (read once, as the outline or a hover
   * would): what an editor pays per version in all, since a check without problems reads none.
   */
  readonly oursWithPositions: Compared;
  /** The very first parse + doValidation of this text (nothing warmed for it yet). */
  readonly oursFirstMs: number;
  readonly oursDiagnostics: string[];
  readonly vscodeJsonDiagnostics: number;
}

function options(file: BenchFile): CompareOptions {
  return file.size === 'small'
    ? { warmup: 100, perRound: 100, minRounds: 6, maxRounds: 40, budgetMs: 1500 }
    : file.size === 'large'
      ? { warmup: 5, perRound: 5, minRounds: 6, maxRounds: 40, budgetMs: 3000 }
      : { warmup: 2, perRound: 2, minRounds: 6, maxRounds: 20, budgetMs: 6000 };
}

export async function runServiceBench(
  files: readonly BenchFile[],
  root: string,
  log: (s: string) => void = () => {},
): Promise<ServiceResult[]> {
  // The ≤ 2× JSON.parse target covers everything but the embedded Python, measured through LSP instead.
  const ours = getLanguageService({ embeddedPython: false });
  const vscodeJson = new Map<string, jsonls.LanguageService>();
  for (const kind of ['smart-tool', 'llm-tool'] as const) {
    const schema = JSON.parse(readFileSync(join(root, 'schemas', `${kind}.schema.json`), 'utf8'));
    const ls = jsonls.getLanguageService({});
    ls.configure({
      validate: true,
      allowComments: false,
      schemas: [{ uri: `tooldef://schemas/${kind}`, fileMatch: ['*'], schema }],
    });
    vscodeJson.set(kind, ls);
  }

  const results: ServiceResult[] = [];
  let version = 1;
  for (const file of files) {
    const doc = (languageId: string) => TextDocument.create(file.uri, languageId, version++, file.text);

    gc();
    const t0 = performance.now();
    const firstDiagnostics = ours.doValidation(ours.parse(doc('tooldef')));
    const oursFirstMs = performance.now() - t0;

    const vs = vscodeJson.get(schemaKind(file))!;
    let vscodeJsonDiagnostics = 0;
    const m = await compare(
      {
        jsonParse: () => JSON.parse(file.text),
        // Each returns what an editor keeps for the open document (the parsed model).
        vscodeJson: async () => {
          const d = doc('json');
          const parsed = vs.parseJSONDocument(d);
          vscodeJsonDiagnostics = (await vs.doValidation(d, parsed)).length;
          return parsed;
        },
        ours: () => {
          const model = ours.parse(doc('tooldef'));
          ours.doValidation(model);
          return model;
        },
        oursParseOnly: () => ours.parse(doc('tooldef')),
        oursWithPositions: () => {
          const model = ours.parse(doc('tooldef'));
          ours.doValidation(model);
          void model.root?.offset; // the first position read places every node
          return model;
        },
      },
      options(file),
    );
    gc();

    const r: ServiceResult = {
      id: file.id,
      bytes: Buffer.byteLength(file.text),
      jsonParse: m.jsonParse,
      vscodeJson: m.vscodeJson,
      ours: m.ours,
      oursParseOnly: m.oursParseOnly,
      oursWithPositions: m.oursWithPositions,
      oursFirstMs,
      oursDiagnostics: firstDiagnostics.map((d) => String(d.code)),
      vscodeJsonDiagnostics,
    };
    results.push(r);
    log(
      `  ${file.id}: JSON.parse ${r.jsonParse.wall.median.toFixed(3)} ms, vscode-json ${r.vscodeJson.wall.median.toFixed(3)} ms, ours ${r.ours.wall.median.toFixed(3)} ms (wall medians)`,
    );
  }
  return results;
}
