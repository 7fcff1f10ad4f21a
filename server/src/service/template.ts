/** A `{{…}}` occurrence in a decoded prompt; offsets are decoded offsets, `end` exclusive. */
export interface Placeholder {
  readonly start: number;
  readonly end: number;
  /** The raw text between the braces (exact: spaces are part of a name). */
  readonly name: string;
  /** False for a `{{` with no `}}` before the next `{{` or the end. */
  readonly closed: boolean;
}

/** Finds the placeholders of a prompt in one linear pass. */
export function scanPlaceholders(text: string): Placeholder[] {
  const out: Placeholder[] = [];
  let i = text.indexOf('{{');
  while (i >= 0) {
    while (text.charCodeAt(i + 2) === 0x7b) i++; // `{{{x}}}`: the innermost pair opens the placeholder
    const close = text.indexOf('}}', i + 2);
    const reopen = text.indexOf('{{', i + 2);
    if (close < 0 || (reopen >= 0 && reopen < close)) {
      out.push({ start: i, end: i + 2, name: '', closed: false });
      i = reopen;
      continue;
    }
    out.push({ start: i, end: close + 2, name: text.slice(i + 2, close), closed: true });
    i = text.indexOf('{{', close + 2);
  }
  return out;
}
