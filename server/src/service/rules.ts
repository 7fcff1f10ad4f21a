/** The rule catalogue of ../shared/spec/decisions.md: every diagnostic code with its default severity. */
import { DiagnosticSeverity } from 'vscode-languageserver-types';

/** The severities a rule can have, most severe first; a setting may also turn a rule `off`. */
export const SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SEVERITY_SETTINGS = [...SEVERITIES, 'off'] as const;
export type SeveritySetting = (typeof SEVERITY_SETTINGS)[number];

export function isSeveritySetting(value: unknown): value is SeveritySetting {
  return (SEVERITY_SETTINGS as readonly unknown[]).includes(value);
}

/** A severity as LSP numbers it. */
export const LSP_SEVERITY: Readonly<Record<Severity, DiagnosticSeverity>> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** The name of an LSP severity (none given counts as an error, as LSP clients read it). */
export function severityName(severity: DiagnosticSeverity | undefined): Severity {
  return SEVERITIES[(severity ?? DiagnosticSeverity.Error) - 1] ?? 'error';
}

export interface RuleInfo {
  readonly severity: Severity;
  readonly summary: string;
}

export const RULES = {
  // JSON and shape
  'json-syntax': { severity: 'error', summary: 'The file is not strict JSON.' },
  'duplicate-key': { severity: 'error', summary: 'A key appears twice in one object.' },
  'root-not-object': { severity: 'error', summary: 'The root of a definition file must be an object.' },
  'mixed-kind': { severity: 'error', summary: 'A file holds both `model_prompt` and `tool_code`.' },
  'missing-field': { severity: 'error', summary: 'A required field is missing.' },
  'missing-recommended-field': { severity: 'warning', summary: 'A recommended field is missing.' },
  'wrong-type': { severity: 'error', summary: 'A value has the wrong JSON type.' },
  'invalid-enum': { severity: 'error', summary: 'A value is not one of the allowed values.' },
  'unknown-field': { severity: 'warning', summary: 'A field the format does not define.' },
  'misplaced-field': { severity: 'error', summary: 'A known field at the wrong level.' },
  'not-a-definition': { severity: 'error', summary: 'A file given to the CLI is not a tool definition.' },
  // Variables and templates
  'unknown-placeholder': { severity: 'error', summary: 'A placeholder names no declared variable.' },
  'unused-variable': { severity: 'warning', summary: 'A declared variable is never used.' },
  'placeholder-whitespace': { severity: 'warning', summary: 'Spaces around a placeholder name.' },
  'malformed-placeholder': { severity: 'warning', summary: 'A `{{` that is never closed, or an empty `{{}}`.' },
  'duplicate-variable': { severity: 'error', summary: 'Two variables share a name.' },
  'empty-variable-name': { severity: 'error', summary: 'A variable has an empty name.' },
  'default-type-mismatch': { severity: 'error', summary: "A default does not match its variable's type." },
  'default-not-allowed': { severity: 'error', summary: 'A default is not among `allowed_values`.' },
  'missing-allowed-values': { severity: 'error', summary: 'A select variable without `allowed_values`.' },
  'unexpected-allowed-values': { severity: 'warning', summary: '`allowed_values` on a text variable.' },
  'duplicate-allowed-value': { severity: 'warning', summary: 'A value listed twice in `allowed_values`.' },
  // Output, models, metadata
  'limited-without-values': { severity: 'error', summary: 'A `limited` output without `allowed_values`.' },
  'language-without-code': { severity: 'warning', summary: '`language` on an output that is not `code`.' },
  'smart-output-not-text': { severity: 'warning', summary: "A smart tool's output type other than `text`." },
  'model-version-string': { severity: 'warning', summary: '`model_version` given as a single string.' },
  'model-version-empty': { severity: 'error', summary: '`model_version` names no model.' },
  'unknown-model': { severity: 'information', summary: 'A model id outside the known ones.' },
  'nested-avatar': { severity: 'warning', summary: 'The avatar given as a nested object.' },
  'avatar-invalid-base64': { severity: 'error', summary: 'The avatar is not valid base64.' },
  'avatar-not-image': {
    severity: 'error',
    summary: 'The avatar does not decode to a PNG, JPEG, GIF, WebP or SVG image.',
  },
  'avatar-size': { severity: 'information', summary: 'The avatar is not 256×256 pixels.' },
  'avatar-invalid-url': { severity: 'error', summary: 'The avatar is not a valid http(s) URL.' },
  'avatar-type-mismatch': { severity: 'error', summary: '`avatar` does not match `avatar_type`.' },
  'invalid-timestamp': { severity: 'error', summary: 'The timestamp is not an ISO 8601 date-time.' },
  'invalid-email': { severity: 'warning', summary: 'The creator email is not an email address.' },
  'invalid-version': { severity: 'warning', summary: 'The version is not a dotted version string.' },
  'parameter-out-of-range': { severity: 'warning', summary: 'A sampling parameter outside its range.' },
  'file-name-mismatch': { severity: 'information', summary: 'The file name is not `<tool_name>.json`.' },
  'duplicate-tool-name': { severity: 'warning', summary: 'Another definition in the workspace has the same name.' },
  // tool_code (embedded Python)
  'python-syntax': { severity: 'error', summary: 'tool_code is not valid Python 3.11.' },
  'missing-execute': { severity: 'error', summary: 'tool_code defines no top-level `execute` function.' },
  'execute-signature': {
    severity: 'error',
    summary: '`execute` does not take exactly one positional parameter named `variables`.',
  },
  'execute-async': { severity: 'error', summary: '`execute` is async.' },
  'execute-redefined': { severity: 'warning', summary: '`execute` is defined more than once.' },
  'execute-returns-non-string': { severity: 'warning', summary: '`execute` can return something other than a `str`.' },
  'unknown-variable-key': { severity: 'error', summary: '`variables["x"]` names no declared variable.' },
  'missing-requirement': { severity: 'warning', summary: 'A third-party import not listed in `requirements`.' },
  'unused-requirement': { severity: 'information', summary: 'A requirement that tool_code never imports.' },
  'invalid-requirement': { severity: 'error', summary: 'A `requirements` line that is not PEP 508.' },
  'duplicate-requirement': { severity: 'warning', summary: 'A requirement listed twice.' },
  'hardcoded-secret': { severity: 'warning', summary: 'A literal that looks like a real key or token.' },
  'undefined-name': { severity: 'error', summary: 'A name read that nothing binds: NameError when that line runs.' },
  'unused-import': { severity: 'information', summary: 'An import that tool_code never uses.' },
  'unused-local': { severity: 'information', summary: 'A local variable assigned to and never read.' },
  // Tests files (`<name>.tests.json`)
  'tests-shape': { severity: 'error', summary: 'A tests file, case or expectation of the wrong shape.' },
  'tests-duplicate-name': { severity: 'error', summary: 'Two cases share a name (or an approved-output file).' },
  'tests-invalid-regex': { severity: 'error', summary: '`matches` is not a valid regular expression.' },
  'tests-invalid-schema': { severity: 'error', summary: '`json` is not a valid JSON schema.' },
  'tests-unknown-input': { severity: 'error', summary: 'An input names no variable of the definition.' },
  'tests-value-not-allowed': { severity: 'error', summary: 'An input value outside `allowed_values`.' },
  'tests-missing-input': { severity: 'warning', summary: 'A variable without a default left out of a case.' },
  'tests-orphan-golden': { severity: 'warning', summary: 'An approved output that belongs to no case.' },
  'tests-no-definition': { severity: 'error', summary: 'A tests file without its definition beside it.' },
} as const satisfies Record<string, RuleInfo>;

export type RuleCode = keyof typeof RULES;

export function isRuleCode(code: unknown): code is RuleCode {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(RULES, code);
}
