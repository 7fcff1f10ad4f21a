/** Character-level helpers shared by the JSON parsers and the string-literal map. */

/** The first offset at or after `pos` that is not JSON whitespace. */
export function skipWs(text: string, pos: number): number {
  for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++pos));
  return pos;
}

/** Whether the character at `at` is escaped: an odd run of backslashes before it, from `floor` on. */
export function isEscaped(text: string, at: number, floor = 0): boolean {
  let backslashes = 0;
  for (let k = at - 1; k >= floor && text.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
}
