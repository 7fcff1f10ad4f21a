import { Diagnostic, DiagnosticRelatedInformation, DiagnosticTag, Range } from 'vscode-languageserver-types';
import { toRange } from '../positions';
import type { ToolModel } from '../model';
import { LSP_SEVERITY, RULES, type RuleCode, type SeveritySetting } from '../rules';
import type { Settings } from '../settings';
import { MAX_PROBLEMS, type Problem, type ValidationContext, type Validator, type WorkspaceIndex } from './context';
import { avatar } from './avatar';
import { email, fileName, duplicateToolName, parameters, timestamp, version } from './metadata';
import { modelVersion } from './models';
import { expectedOutput } from './output';
import { shape } from './shape';
import { duplicateKeys, mixedKind, rootShape, syntax } from './structure';
import { placeholders } from './templates';
import { pythonCode, requirements, variableKeys } from './python';
import { variableNames, variableValues } from './variables';

/** Rules that hold for any JSON handed to the service. */
const ALWAYS: readonly Validator[] = [syntax, rootShape, duplicateKeys];

/** Rules for a recognised definition. */
const DEFINITION: readonly Validator[] = [
  mixedKind,
  shape,
  variableNames,
  variableValues,
  placeholders,
  expectedOutput,
  modelVersion,
  avatar,
  timestamp,
  email,
  version,
  parameters,
  fileName,
  duplicateToolName,
];

/** The embedded-Python rules of a smart tool's tool_code. */
const PYTHON: readonly Validator[] = [pythonCode, variableKeys, requirements];

/** Problems of code that does nothing: editors fade it. */
const UNNECESSARY: ReadonlySet<RuleCode> = new Set(['unused-variable', 'unused-import', 'unused-local']);

/** The file's problems, at most MAX_PROBLEMS of them; `dropped` counts those found past that. */
export interface Problems {
  readonly problems: readonly Problem[];
  readonly dropped: number;
}

export function collectProblems(
  model: ToolModel,
  settings: Settings,
  workspace?: WorkspaceIndex,
  embeddedPython = true,
): Problems {
  const problems: Problem[] = [];
  let dropped = 0;
  const ctx: ValidationContext = {
    model,
    settings,
    workspace,
    full: () => problems.length >= MAX_PROBLEMS,
    more: (n = 1) => void (dropped += n),
    report(code, at, message, data, related) {
      if (effectiveSeverity(code, settings) === 'off') return;
      if (problems.length >= MAX_PROBLEMS) dropped++;
      else problems.push({ code, offset: at.offset, length: at.length, message, data, related });
    },
  };
  for (const v of ALWAYS) v(ctx);
  if (model.kind && model.root?.type === 'object') {
    for (const v of DEFINITION) v(ctx);
    if (embeddedPython) for (const v of PYTHON) v(ctx);
  }
  return { problems, dropped };
}

export function toDiagnostics(model: ToolModel, { problems, dropped }: Problems, settings: Settings): Diagnostic[] {
  const out: Diagnostic[] = [];
  const sorted = [...problems].sort((a, b) => a.offset - b.offset);
  for (const [i, p] of sorted.entries()) {
    const severity = effectiveSeverity(p.code, settings);
    if (severity === 'off') continue;
    // Past the cap, the last problem shown says how many more there are.
    const message =
      dropped && i === sorted.length - 1
        ? `${p.message} (${dropped.toLocaleString('en-US')} more problem${dropped === 1 ? '' : 's'} in this file ${dropped === 1 ? 'is' : 'are'} not shown: fix these first.)`
        : p.message;
    const d = Diagnostic.create(toRange(model, p), message, LSP_SEVERITY[severity], p.code, 'tooldef');
    if (p.data) d.data = p.data;
    if (p.related?.length) {
      d.relatedInformation = p.related.map((r) =>
        DiagnosticRelatedInformation.create(
          { uri: r.uri, range: Range.create(r.line, r.character, r.line, r.character) },
          r.message,
        ),
      );
    }
    if (UNNECESSARY.has(p.code)) d.tags = [DiagnosticTag.Unnecessary];
    out.push(d);
  }
  return out;
}

export function effectiveSeverity(code: RuleCode, settings: Settings): SeveritySetting {
  return settings.rules[code] ?? RULES[code].severity;
}
