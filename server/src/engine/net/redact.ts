/** Keeping a secret (an upload token, an API key) out of every message, log line and result. */

/**
 * A function that replaces the secret — as given, trimmed, or URL-encoded — and the value of any
 * `Bearer …` credential with `[label]`. Applied to everything shown, so even a service that echoes the
 * secret back cannot leak it. Secrets shorter than 4 characters are not searched for (they would
 * blank out ordinary words).
 */
export function secretRedactor(secret: string | undefined, label: string): (text: string) => string {
  const forms = formsOf(secret ?? '');
  const mask = `[${label}]`;
  return (text) => {
    let out = text.replace(/(Bearer\s+)[^\s"',;]+/gi, `$1${mask}`);
    for (const s of forms) out = out.split(s).join(mask);
    return out;
  };
}

/** The forms of a value worth searching for, longest first (short ones would blank out ordinary words). */
function formsOf(value: string): string[] {
  const trimmed = value.trim();
  return [...new Set([value, trimmed, encodeURIComponent(trimmed)])]
    .filter((s) => s.length >= 4)
    .sort((a, b) => b.length - a.length);
}

/** Replaces each secret's value (as given, trimmed or URL-encoded) with its reference, `<NAME>`. */
export class ReferenceRedactor {
  private readonly forms: { form: string; mask: string }[];
  /** The longest form: a stream holds back one character fewer, which may be the start of one. */
  readonly longest: number;

  constructor(values: Readonly<Record<string, string>>) {
    this.forms = Object.entries(values)
      .flatMap(([name, value]) => formsOf(value).map((form) => ({ form, mask: `<${name}>` })))
      .sort((a, b) => b.form.length - a.form.length);
    this.longest = this.forms[0]?.form.length ?? 0;
  }

  redact(text: string): string {
    let out = text;
    for (const { form, mask } of this.forms) out = out.split(form).join(mask);
    return out;
  }

  /**
   * A writer for text that comes in pieces (a tool's output): a value split across two pieces is still
   * found. `flush` writes what was held back.
   */
  stream(write: (text: string) => void): { write(text: string): void; flush(): void } {
    let held = '';
    return {
      write: (text) => {
        held += text;
        let cut = Math.max(0, held.length - (this.longest - 1));
        // A complete value across the cut is written with what comes before it.
        for (let moved = true; moved;) {
          moved = false;
          for (const { form } of this.forms) {
            const at = held.indexOf(form, Math.max(0, cut - form.length + 1));
            if (at >= 0 && at < cut && at + form.length > cut) {
              cut = at + form.length;
              moved = true;
            }
          }
        }
        if (cut === 0) return;
        const ready = held.slice(0, cut);
        held = held.slice(cut);
        write(this.redact(ready));
      },
      flush: () => {
        if (held) write(this.redact(held));
        held = '';
      },
    };
  }
}
