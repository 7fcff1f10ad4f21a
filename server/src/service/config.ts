import { isRuleCode, type RuleCode, type Severity } from './rules';
import { DEFAULT_KNOWN_MODELS, type Settings } from './settings';

/** The `tooldef.*` settings as the client sends them, checked field by field: settings are user input. */
export interface ServerConfig {
  readonly settings: Settings;
}

const SEVERITIES = new Set<Severity | 'off'>(['error', 'warning', 'information', 'hint', 'off']);

export function readConfig(raw: unknown): ServerConfig {
  const cfg = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const known = Array.isArray(cfg.knownModels)
    ? cfg.knownModels.filter((m): m is string => typeof m === 'string')
    : [...DEFAULT_KNOWN_MODELS];
  const rules: Partial<Record<RuleCode, Severity | 'off'>> = {};
  if (cfg.rules && typeof cfg.rules === 'object') {
    for (const [code, sev] of Object.entries(cfg.rules)) {
      if (isRuleCode(code) && SEVERITIES.has(sev as Severity)) rules[code] = sev as Severity | 'off';
    }
  }
  return { settings: { knownModels: known, rules } };
}
