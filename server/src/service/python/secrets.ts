// Hard-coded credential detection for string literals: provider key formats, private key blocks
// and JWTs anywhere, and key-like names (api_key, token, password…) assigned high-entropy literals.
// Values are never echoed: messages carry a redacted form such as `sk-p…9f`.

export interface SecretHit {
  /** Stable kind id (e.g. `openai`, `aws-access-key`, `key-like-name`). */
  kind: string;
  /** Human name: "An OpenAI API key". */
  what: string;
  redacted: string;
}

interface Pattern {
  kind: string;
  what: string;
  re: RegExp;
}

// Order matters: the more specific prefix first (sk-ant- before sk-).
const PATTERNS: Pattern[] = [
  { kind: 'private-key', what: 'A private key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'anthropic', what: 'An Anthropic API key', re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}/ },
  { kind: 'openai', what: 'An OpenAI API key', re: /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/ },
  { kind: 'openai', what: 'An OpenAI API key', re: /\bsk-[A-Za-z0-9]{20,}(?:T3BlbkFJ[A-Za-z0-9]{20,})?\b/ },
  { kind: 'aws-access-key', what: 'An AWS access key id', re: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/ },
  { kind: 'github', what: 'A GitHub token', re: /\bgh[pousr]_[A-Za-z0-9]{36,}\b/ },
  { kind: 'github', what: 'A GitHub token', re: /\bgithub_pat_[A-Za-z0-9_]{22,}/ },
  { kind: 'gitlab', what: 'A GitLab token', re: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { kind: 'slack', what: 'A Slack token', re: /\bxox[baprs]-[A-Za-z0-9-]{10,}/ },
  {
    kind: 'slack',
    what: 'A Slack webhook URL',
    re: /hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,}/,
  },
  { kind: 'google', what: 'A Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'stripe', what: 'A Stripe secret key', re: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,}\b/ },
  { kind: 'huggingface', what: 'A Hugging Face token', re: /\bhf_[A-Za-z0-9]{30,}\b/ },
  { kind: 'npm', what: 'An npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { kind: 'sendgrid', what: 'A SendGrid API key', re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/ },
  { kind: 'jwt', what: 'A JSON Web Token', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/ },
];

/** Words that mark a value as a placeholder, not a real credential. */
const PLACEHOLDER =
  /your|<[^>]*>|\{\{|\$\{|x{4,}|\*{3,}|\.{3}|changeme|change_me|replace|example|sample|dummy|placeholder|redacted|insert|enter[_-]?|todo|fixme|fake|mock|secret_here|key_here|token_here|none|null|undefined|^(?:test|testing|password|secret|token|apikey|api_key)$/i;

/** Names whose literal value is a credential. */
const KEY_NAME =
  /(?:^|_)(?:api_?key|apikey|secret(?:_?key)?|(?:access|auth|api|bearer|refresh|session|bot|app)_?token|token|password|passwd|pwd|passphrase|private_?key|access_?key(?:_?id)?|secret_?access_?key|client_?secret|credentials?|auth)$/i;

export function redact(value: string): string {
  const v = value.trim();
  if (v.length <= 8) return `${v.slice(0, 1)}…`;
  if (v.startsWith('-----BEGIN')) return '-----BEGIN …';
  return `${v.slice(0, 4)}…${v.slice(-2)}`;
}

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

function looksPlaceholder(match: string): boolean {
  if (PLACEHOLDER.test(match)) return true;
  // One character repeated (sk-aaaaaaaa…) or a run like 1234567890abcdef.
  const body = match.replace(/^[A-Za-z]+[-_]/, '');
  return new Set(body).size <= 3 || /0123456789|abcdefghij/i.test(body);
}

/** A provider key format (or private key block / JWT) inside a string literal's value. */
export function secretInString(value: string): SecretHit | undefined {
  if (value.length < 12) return undefined;
  for (const p of PATTERNS) {
    const m = p.re.exec(value);
    if (!m) continue;
    if (p.kind !== 'private-key' && looksPlaceholder(m[0])) continue;
    return { kind: p.kind, what: p.what, redacted: redact(m[0]) };
  }
  return undefined;
}

/** A key-like name (api_key, token, password…) assigned a literal that looks like a real secret. */
export function secretInAssignment(name: string, value: string): SecretHit | undefined {
  const n = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]/g, '_');
  if (!KEY_NAME.test(n)) return undefined;
  const v = value.trim();
  if (v.length < 8 || v.length > 512 || /\s/.test(v) || PLACEHOLDER.test(v)) return undefined;
  if (/^(?:https?|file|s3|gs):\/\//i.test(v) || /^[A-Z][A-Z0-9_]*$/.test(v)) return undefined; // URLs, env var names
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(v)).length;
  const isPassword = /pass|pwd/i.test(n);
  if (classes < 2 || entropy(v) < (isPassword ? 2.5 : 3.0) || new Set(v).size < 6) return undefined;
  return { kind: 'key-like-name', what: `A credential assigned to '${name}'`, redacted: redact(v) };
}
