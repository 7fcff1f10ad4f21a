/** Keeping a secret (an upload token, an API key) out of every message, log line and result. */

/**
 * A function that replaces the secret — as given, trimmed, or URL-encoded — and the value of any
 * `Bearer …` credential with `[label]`. Applied to everything shown, so even a service that echoes the
 * secret back cannot leak it. Secrets shorter than 4 characters are not searched for (they would
 * blank out ordinary words).
 */
export function secretRedactor(secret: string | undefined, label: string): (text: string) => string {
  const given = secret ?? '';
  const trimmed = given.trim();
  const forms = [...new Set([given, trimmed, encodeURIComponent(trimmed)])]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
  const mask = `[${label}]`;
  return (text) => {
    let out = text.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${mask}`);
    for (const s of forms) out = out.split(s).join(mask);
    return out;
  };
}
