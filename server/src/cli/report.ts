import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-types';
import { RULES, severityName, type RuleCode } from '../service/rules';

export interface FileReport {
  readonly file: string;
  readonly kind: 'smart' | 'llm' | null;
  readonly diagnostics: readonly Diagnostic[];
}

/** `file:line:col severity code message`, like a compiler (1-based lines and columns). */
export function formatText(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    for (const d of r.diagnostics) {
      lines.push(
        `${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severityName(d.severity)} ${String(d.code)} ${d.message}`,
      );
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}

export function formatJson(reports: readonly FileReport[]): string {
  const out = reports.map((r) => ({
    file: r.file,
    kind: r.kind,
    diagnostics: r.diagnostics.map((d) => ({
      code: String(d.code),
      severity: severityName(d.severity),
      message: d.message,
      range: d.range,
    })),
  }));
  return JSON.stringify(out, null, 2) + '\n';
}

/** Relative paths resolve against the checkout (%SRCROOT%); others are absolute file URIs. */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  return isAbsolute(file)
    ? { uri: pathToFileURL(file).toString() }
    : { uri: file.split('\\').join('/'), uriBaseId: '%SRCROOT%' };
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', information: 'note', hint: 'note' } as const;

/** SARIF 2.1.0 for code-scanning: one run, every catalogue rule in the driver. */
export function formatSarif(reports: readonly FileReport[], version: string): string {
  const ruleIds = Object.keys(RULES) as RuleCode[];
  const results = reports.flatMap((r) =>
    r.diagnostics.map((d) => ({
      ruleId: String(d.code),
      ruleIndex: ruleIds.indexOf(d.code as RuleCode),
      level: SARIF_LEVEL[severityName(d.severity)],
      message: { text: d.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: artifactLocation(r.file),
            region: {
              startLine: d.range.start.line + 1,
              startColumn: d.range.start.character + 1,
              endLine: d.range.end.line + 1,
              endColumn: d.range.end.character + 1,
            },
          },
        },
      ],
    })),
  );
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tooldef',
            version,
            rules: ruleIds.map((id) => ({
              id,
              shortDescription: { text: RULES[id].summary },
              defaultConfiguration: { level: SARIF_LEVEL[RULES[id].severity] },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
