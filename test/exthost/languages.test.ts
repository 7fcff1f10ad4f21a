// Which documents become tool definitions, and the server's diagnostics for the broken examples.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { afterEach, before, describe, it } from 'mocha';
import { llmTool, OTHER_JSON, smartTool } from './fixtures';
import { activeExtension, closeAll, openAs, until, writeFixture } from './workspace';

/** out/exthost/ → the repository, for examples/. */
const EXAMPLES = resolve(__dirname, '../../examples');

describe('definition documents', () => {
  before(activeExtension);
  afterEach(closeAll);

  it('switches smart and LLM tools to the tooldef language and leaves other JSON alone', async () => {
    const other = await writeFixture('lang_other.json', OTHER_JSON);
    const otherEditor = await openAs(other, 'json');
    await openAs(await writeFixture('lang_smart.json', smartTool('lang_smart')), 'tooldef');
    await openAs(await writeFixture('lang_llm.json', llmTool('lang_llm')), 'tooldef');
    assert.equal(otherEditor.document.languageId, 'json');
  });

  it('switches a JSON document once an edit makes it a definition', async () => {
    const editor = await openAs(await writeFixture('lang_growing.json', '{}\n'), 'json');
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 0, 2), llmTool('lang_growing')));
    await until('the edited document to become tooldef', () => editor.document.languageId === 'tooldef');
  });

  describe('diagnostics of every broken example, as tooldef check reports them', () => {
    const expected = JSON.parse(readFileSync(join(EXAMPLES, 'expected.json'), 'utf8')) as Record<
      string,
      { code: string; line: number | null }[]
    >;
    for (const name of readdirSync(join(EXAMPLES, 'broken'))) {
      const want = expected[`broken/${name}`];
      // A root that is not an object is no definition: the editor leaves such a file to the JSON support.
      const notDefinition = want.some((w) => w.code === 'root-not-object');
      it(`${name}: ${notDefinition ? 'left as JSON' : want.map((w) => w.code).join(', ')}`, async () => {
        const uri = await writeFixture(name, readFileSync(join(EXAMPLES, 'broken', name), 'utf8'));
        if (notDefinition) {
          await openAs(uri, 'json');
          assert.deepEqual(ours(uri), []);
          return;
        }
        await openAs(uri, 'tooldef');
        const shown = (d: { code: string; line: number | null }): string => `${d.code}@${d.line ?? '-'}`;
        const wanted = want.map(shown).sort();
        // Lines are compared where the catalogue gives one (mixed-kind is about the whole file).
        const current = (): string[] =>
          ours(uri)
            .map((d) =>
              shown({
                code: String(d.code),
                line: want.some((w) => w.code === d.code && w.line === null) ? null : d.range.start.line + 1,
              }),
            )
            .sort();
        try {
          await until(`${wanted.join(' ')} on ${name}`, () => current().join(' ') === wanted.join(' '));
        } catch {
          assert.deepEqual(current(), wanted);
        }
      });
    }
  });
});

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'tooldef');
}
