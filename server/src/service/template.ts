/** A `{{…}}` occurrence in a decoded prompt; offsets are decoded offsets, `end` exclusive. */
export interface Placeholder {
  readonly start: number;
  readonly end: number;
  /** The raw text between the braces (exact: spaces are part of a name). */
  readonly name: string;
  /** False for a `{{` with no `}}` before the next `{{` or the end. */
  readonly closed: boolean;
}

/**
 * Finds the placeholders of a prompt in one linear pass: each search resumes where the last one of
 * its kind stopped, so even thousands of unclosed `{{` cost one scan.
 */
export function scanPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  let close = -1; // the next `}}` (Infinity: none left)
  let i = text.indexOf('{{');
  while (i >= 0) {
    while (text.charCodeAt(i + 2) === 0x7b) i++; // `{{{x}}}`: the innermost pair opens the placeholder
    if (close < i + 2) {
      const c = text.indexOf('}}', i + 2);
      close = c < 0 ? Infinity : c;
    }
    const reopen = text.indexOf('{{', i + 2);
    if (close === Infinity || (reopen >= 0 && reopen < close)) {
      out.push({ start: i, end: i + 2, name: '', closed: false });
    } else {
      out.push({ start: i, end: close + 2, name: text.slice(i + 2, close), closed: true });
    }
    i = reopen; // after a closed placeholder the next `{{` is past its `}}` anyway
  }
  return out;
}
