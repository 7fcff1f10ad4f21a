import { isRuleCode, isSeveritySetting, type RuleCode, type SeveritySetting } from './rules';
import { DEFAULT_KNOWN_MODELS, type Settings } from './settings';

/** The `tooldef.*` settings as the client sends them, checked field by field: settings are user input. */
export interface ServerConfig {
  readonly settings: Settings;
}

export function readConfig(raw: unknown): ServerConfig {
  const cfg = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const known = Array.isArray(cfg.knownModels)
    ? cfg.knownModels.filter((m): m is string => typeof m === 'string')
    : [...DEFAULT_KNOWN_MODELS];
  const rules: Partial<Record<RuleCode, SeveritySetting>> = {};
  if (cfg.rules && typeof cfg.rules === 'object') {
    for (const [code, sev] of Object.entries(cfg.rules)) {
      if (isRuleCode(code) && isSeveritySetting(sev)) rules[code] = sev;
    }
  }
  return { settings: { knownModels: known, rules } };
}
