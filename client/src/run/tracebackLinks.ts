import * as vscode from 'vscode';
import type { DocumentQueries } from '../documentQueries';
import type { EmbeddedViews } from '../embedded/views';
import { RESULT_SCHEME, type ResultDocuments } from './results';
import { RunTerminal } from './runTerminal';

/** How the runner names the tool's code in a traceback: `File "tool_code", line 13`. */
const FRAME = /File "tool_code", line (\d+)/g;

interface FrameLink extends vscode.TerminalLink {
  readonly definition: vscode.Uri;
  readonly line: number;
}

/**
 * A traceback's `File "tool_code", line 13` as a link, in the run's terminal and in a result tab: it
 * opens the definition at that line of `tool_code` (inside the JSON string), and shows the line in the
 * Python view too when one is open.
 */
export function registerTracebackLinks(
  queries: DocumentQueries,
  results: ResultDocuments,
  embedded: EmbeddedViews,
): vscode.Disposable[] {
  const open = (definition: vscode.Uri, line: number): Promise<void> =>
    openToolCodeLine(queries, embedded, definition, line);
  const terminalLinks: vscode.TerminalLinkProvider<FrameLink> = {
    provideTerminalLinks: (context) => {
      const tool = RunTerminal.toolOf(context.terminal);
      if (!tool) return [];
      return [...context.line.matchAll(FRAME)].map((m) => ({
        startIndex: m.index,
        length: m[0].length,
        tooltip: `Open line ${m[1]} of tool_code`,
        definition: vscode.Uri.parse(tool),
        line: Number(m[1]),
      }));
    },
    handleTerminalLink: (link) => open(link.definition, link.line),
  };
  return [
    vscode.window.registerTerminalLinkProvider(terminalLinks as vscode.TerminalLinkProvider),
    vscode.commands.registerCommand(OPEN_LINE_COMMAND, (definition: string, line: number) =>
      open(vscode.Uri.parse(definition), line),
    ),
    vscode.languages.registerDocumentLinkProvider(
      { scheme: RESULT_SCHEME },
      {
        provideDocumentLinks: (doc) => {
          const owner = results.ownerOf(doc.uri);
          if (!owner) return [];
          const links: vscode.DocumentLink[] = [];
          doc
            .getText()
            .split('\n')
            .forEach((text, row) => {
              for (const m of text.matchAll(FRAME)) {
                const args = encodeURIComponent(JSON.stringify([owner, Number(m[1])]));
                const link = new vscode.DocumentLink(
                  new vscode.Range(row, m.index, row, m.index + m[0].length),
                  vscode.Uri.parse(`command:${OPEN_LINE_COMMAND}?${args}`),
                );
                link.tooltip = `Open line ${m[1]} of tool_code`;
                links.push(link);
              }
            });
          return links;
        },
      },
    ),
  ];
}

const OPEN_LINE_COMMAND = 'tooldef.openToolCodeLine';

async function openToolCodeLine(
  queries: DocumentQueries,
  embedded: EmbeddedViews,
  definition: vscode.Uri,
  line: number,
): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(definition);
  const [at] = await queries.embeddedPositions(doc, 'tool_code', [new vscode.Position(line - 1, 0)]);
  if (!at) {
    void vscode.window.showWarningMessage(`tool_code has no line ${line} any more.`);
    return;
  }
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(at, at), preview: false });
  for (const view of embedded.links.viewsOf(definition)) {
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === view.toString());
    if (!editor) continue;
    const row = new vscode.Range(line - 1, 0, line - 1, 0);
    editor.revealRange(row, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
