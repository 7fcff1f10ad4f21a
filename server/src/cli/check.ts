import { promises as fs } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver-types';
import { kindOfRoot, mayBeDefinition, type Kind } from '../service/kind';
import { getLanguageService } from '../service/languageService';
import type { ToolModel } from '../service/model';
import {
  isRuleCode,
  isSeveritySetting,
  LSP_SEVERITY,
  SEVERITY_SETTINGS,
  type RuleCode,
  type SeveritySetting,
} from '../service/rules';
import { DEFAULT_SETTINGS } from '../service/settings';
import type { RelatedLocation, WorkspaceIndex } from '../service/validation/context';
import { discover } from './discover';
import { formatJson, formatSarif, formatText, type FileReport } from './report';
import { oneOf, orList, parseCommandArgs, UsageError, VERSION, withUsage, type Io, displayPath } from './io';
import { decodeDefinition, type DecodedFile } from '../service/encoding';

export const CHECK_USAGE = `Usage: tooldef check [--format text|json|sarif] [--kind smart|llm] [--rule CODE=SEVERITY]... PATH...

Checks tool definition files. Directories are searched for definition files; files named
explicitly are always checked. SEVERITY is error, warning, information, hint or off.

Exit status: 0 no errors, 1 errors found, 2 bad usage or unreadable files.
`;

interface CheckOptions {
  format: 'text' | 'json' | 'sarif';
  kind?: Kind;
  rules: Partial<Record<RuleCode, SeveritySetting>>;
  paths: string[];
}

function readOptions(args: readonly string[]): CheckOptions {
  const { values, positionals } = parseCommandArgs(args, {
    format: { type: 'string' },
    kind: { type: 'string' },
    rule: { type: 'string', multiple: true },
  });
  const rules: CheckOptions['rules'] = {};
  for (const rule of values.rule ?? []) {
    const eq = rule.indexOf('=');
    const code = eq < 0 ? rule : rule.slice(0, eq);
    if (!isRuleCode(code)) throw new UsageError(`--rule: unknown rule "${code}".`);
    const sev = rule.slice(eq + 1);
    if (eq < 0 || !isSeveritySetting(sev))
      throw new UsageError(`--rule ${code}: severity must be ${orList(SEVERITY_SETTINGS)}.`);
    rules[code] = sev;
  }
  if (!positionals.length) throw new UsageError('Name at least one file or directory to check.');
  return {
    format: values.format === undefined ? 'text' : oneOf('--format', values.format, ['text', 'json', 'sarif']),
    ...(values.kind === undefined ? {} : { kind: oneOf('--kind', values.kind, ['smart', 'llm']) }),
    rules,
    paths: positionals,
  };
}

/** `tooldef check …` */
export function checkCommand(args: readonly string[], io: Io): Promise<number> {
  return withUsage(io, CHECK_USAGE, args, () => check(readOptions(args), io));
}

async function check(opts: CheckOptions, io: Io): Promise<number> {
  const { targets, unreadable } = await discover(opts.paths.map((p) => (isAbsolute(p) ? p : resolve(io.cwd, p))));
  const files: { file: string; model: ToolModel; explicit: boolean; encoding: DecodedFile['problem'] }[] = [];
  const names = new Map<string, { uri: string; line: number; character: number }[]>();
  const workspace: WorkspaceIndex = {
    toolsNamed: (name, exceptUri, max) => {
      const all = names.get(name) ?? [];
      const shown: RelatedLocation[] = [];
      for (const n of all) {
        if (shown.length === max) break;
        if (n.uri !== exceptUri) shown.push({ ...n, message: `also named "${name}" here` });
      }
      return { shown, total: all.length - (all.some((n) => n.uri === exceptUri) ? 1 : 0) };
    },
  };
  const service = getLanguageService({ settings: { ...DEFAULT_SETTINGS, rules: opts.rules }, workspace });
  for (const t of targets) {
    let decoded: DecodedFile;
    try {
      decoded = decodeDefinition(await fs.readFile(t.path));
    } catch {
      unreadable.push(t.path);
      continue;
    }
    const { text } = decoded;
    // --kind forces the kind of definitions, not of every JSON file
    if (!t.explicit && !mayBeDefinition(text)) continue;
    const model = service.parse(TextDocument.create(pathToFileURL(t.path).toString(), 'json', 1, text), opts.kind);
    if (!t.explicit && !model.kind && !looksLikeWrappedDefinition(model)) continue;
    files.push({ file: displayPath(io.cwd, t.path), model, explicit: t.explicit, encoding: decoded.problem });
    const nameNode = model.toolNameNode;
    if (model.kind && nameNode?.value) {
      const pos = model.positionAt(nameNode.offset);
      const list = names.get(nameNode.value as string) ?? [];
      list.push({ uri: model.document.uri, line: pos.line, character: pos.character });
      names.set(nameNode.value as string, list);
    }
  }
  const reports: FileReport[] = files.map(({ file, model, encoding }) => {
    const diagnostics = service.doValidation(model);
    const jsonSyntax = opts.rules['json-syntax'] ?? 'error';
    if (encoding && jsonSyntax !== 'off') {
      const at = model.positionAt(encoding.offset);
      diagnostics.unshift(
        Diagnostic.create(Range.create(at, at), encoding.message, LSP_SEVERITY[jsonSyntax], 'json-syntax', 'tooldef'),
      );
    }
    const notADefinition = opts.rules['not-a-definition'] ?? 'error';
    if (!model.kind && model.root?.type === 'object' && !model.json.syntaxErrors.length && notADefinition !== 'off') {
      diagnostics.push(
        Diagnostic.create(
          Range.create(0, 0, 0, 1),
          'Not a tool definition: an LLM tool has "model_prompt", a smart tool a "metadata" object with "tool_name" or "tool_code". Use --kind to check it anyway.',
          LSP_SEVERITY[notADefinition],
          'not-a-definition',
          'tooldef',
        ),
      );
    }
    return { file, kind: model.kind ?? null, diagnostics };
  });
  if (opts.format === 'json') io.stdout.write(formatJson(reports));
  else if (opts.format === 'sarif') io.stdout.write(formatSarif(reports, VERSION));
  else io.stdout.write(formatText(reports));
  for (const u of unreadable)
    io.stderr.write(`tooldef: cannot read ${displayPath(io.cwd, u)}: no such file or not readable.\n`);
  const all = reports.flatMap((r) => r.diagnostics);
  const errors = all.filter((d) => d.severity === DiagnosticSeverity.Error).length;
  if (opts.format === 'text') {
    const warnings = all.filter((d) => d.severity === DiagnosticSeverity.Warning).length;
    io.stderr.write(
      `${reports.length} file${reports.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${all.length - errors - warnings} other.\n`,
    );
  }
  if (unreadable.length) return 2;
  return errors ? 1 : 0;
}

/** An array whose first object is a definition: a wrapped file, reported as `root-not-object`. */
function looksLikeWrappedDefinition(model: ToolModel): boolean {
  const root = model.root;
  return root?.type === 'array' && root.children!.some((c) => kindOfRoot(c) !== undefined);
}
