import type { RuleCode, SeveritySetting } from './rules';

export interface Settings {
  /** Model ids that are not reported as `unknown-model`. */
  readonly knownModels: readonly string[];
  /** Per-rule severity overrides; `off` silences a rule. */
  readonly rules: Readonly<Partial<Record<RuleCode, SeveritySetting>>>;
}

export const DEFAULT_KNOWN_MODELS = ['gpt-4', 'gpt-3.5', 'claude', 'chat-bison'] as const;

export const DEFAULT_SETTINGS: Settings = { knownModels: DEFAULT_KNOWN_MODELS, rules: {} };
