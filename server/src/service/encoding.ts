/**
 * How a definition file's bytes become its text: the one policy of `tooldef check` and the upload gate
 * (the editor decodes files itself). Definition files are UTF-8 JSON, a BOM allowed. A UTF-16 file is
 * decoded all the same, so that its other problems can be shown, and its encoding is said once; bytes
 * that are not UTF-8 are said once, at the first of them, instead of as a cascade of syntax errors.
 */
export interface DecodedFile {
  readonly text: string;
  /** Why the bytes are not a UTF-8 file, and where (an offset into `text`). */
  readonly problem?: { readonly message: string; readonly offset: number };
}

const SAVE_AS_UTF8 = 'definition files are UTF-8 JSON: save it as UTF-8.';

export function decodeDefinition(bytes: Uint8Array): DecodedFile {
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    const endian = utf16 === 'utf-16le' ? 'little-endian' : 'big-endian';
    return {
      text: new TextDecoder(utf16).decode(bytes),
      problem: { message: `This file is UTF-16 (${endian}); ${SAVE_AS_UTF8}`, offset: 0 },
    };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    // Not UTF-8: found again byte by byte, to say where (the decoder does not tell).
  }
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  const bad = firstInvalidUtf8(bytes);
  const hex = bytes[bad].toString(16).toUpperCase().padStart(2, '0');
  const offset = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, bad)).length;
  return {
    text,
    problem: { message: `This file is not valid UTF-8 (byte 0x${hex} at byte ${bad}); ${SAVE_AS_UTF8}`, offset },
  };
}

/** UTF-16 by its byte order mark, or by a NUL beside the ASCII character a JSON file starts with. */
function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes.length < 2) return undefined;
  const [a, b] = bytes;
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  const ascii = (c: number): boolean => c >= 0x09 && c < 0x80;
  if (b === 0 && ascii(a)) return 'utf-16le';
  if (a === 0 && ascii(b)) return 'utf-16be';
  return undefined;
}

/** The index of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const c = bytes[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    // The sequence's length, and the range its second byte must lie in (no overlongs, no surrogates).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 3;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 4;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    if (i + n > bytes.length) return i;
    if (bytes[i + 1] < lo || bytes[i + 1] > hi) return i;
    for (let k = 2; k < n; k++) if (bytes[i + k] < 0x80 || bytes[i + k] > 0xbf) return i;
    i += n;
  }
  return -1;
}
