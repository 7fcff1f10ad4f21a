import { GIF } from 'image-size/types/gif';
import { JPG } from 'image-size/types/jpg';
import { PNG } from 'image-size/types/png';
import { SVG } from 'image-size/types/svg';
import { WEBP } from 'image-size/types/webp';
import { base64Bytes } from './base64';

/** Only the formats an avatar may have: importing image-size's handlers one by one keeps the rest out of the bundle. */
const HANDLERS = [
  ['png', PNG],
  ['jpg', JPG],
  ['gif', GIF],
  ['webp', WEBP],
  ['svg', SVG],
] as const;

function imageSize(input: Uint8Array): { type?: string; width?: number; height?: number } {
  const hit = HANDLERS.find(([, handler]) => handler.validate(input));
  if (!hit) return {};
  const size = hit[1].calculate(input);
  return { type: hit[0], width: size.width, height: size.height };
}

export type AvatarInfo =
  | {
      readonly ok: true;
      readonly type: string;
      readonly width?: number;
      readonly height?: number;
      readonly bytes: number;
      readonly mime: string;
    }
  | {
      readonly ok: false;
      readonly problem: 'invalid-base64';
      readonly at: number;
      readonly length: number;
      readonly reason: string;
    }
  | { readonly ok: false; readonly problem: 'not-image'; readonly bytes: number };

const ACCEPTED: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};
/** Enough base64 for any header image-size reads (JPEG's SOF can sit behind large EXIF blocks). */
const HEADER_CHARS = 256 * 1024;

let last: { text: string; info: AvatarInfo } | undefined;

/**
 * Checks a base64 avatar: valid alphabet and padding (whitespace, e.g. line-wrapped blocks, is
 * allowed), then the image header of the decoded bytes. Only a prefix is decoded, and the last answer
 * is cached, so a multi-megabyte avatar costs one regex scan per distinct value.
 */
export function inspectBase64Image(text: string): AvatarInfo {
  if (last?.text === text) return last.info;
  const info = inspect(text);
  last = { text, info };
  return info;
}

function inspect(text: string): AvatarInfo {
  const dataUri = /^data:[\w/+.-]*;base64,/.exec(text.slice(0, 128));
  if (dataUri)
    return {
      ok: false,
      problem: 'invalid-base64',
      at: 0,
      length: dataUri[0].length,
      reason: `remove the "${dataUri[0]}" prefix: avatar holds the base64 text only`,
    };
  const bad = /[^A-Za-z0-9+/=\s]/u.exec(text); // `u`: an astral character is one match, not half of one
  if (bad)
    return {
      ok: false,
      problem: 'invalid-base64',
      at: bad.index,
      length: bad[0].length,
      reason: `"${printable(bad[0])}" is not a base64 character`,
    };
  const hasSpace = /\s/.test(text);
  const compact = hasSpace ? text.replace(/\s+/g, '') : text;
  const pad = compact.indexOf('=');
  if (pad >= 0 && !/^={1,2}$/.test(compact.slice(pad))) {
    const at = hasSpace ? text.indexOf('=') : pad;
    return { ok: false, problem: 'invalid-base64', at, length: 1, reason: '"=" padding may only end the data' };
  }
  if (compact.length % 4 === 1 || (pad >= 0 && compact.length % 4 !== 0)) {
    return {
      ok: false,
      problem: 'invalid-base64',
      at: 0,
      length: text.length,
      reason: 'its length is not a whole number of base64 groups (the data looks truncated)',
    };
  }
  const bytes = Math.floor((compact.length * 3) / 4) - (pad >= 0 ? compact.length - pad : 0);
  try {
    // HEADER_CHARS is a whole number of base64 groups, so the slice decodes on its own.
    const size = imageSize(base64Bytes(compact.slice(0, HEADER_CHARS)));
    const mime = size.type ? ACCEPTED[size.type] : undefined;
    if (!mime) return { ok: false, problem: 'not-image', bytes };
    return { ok: true, type: size.type!, width: size.width, height: size.height, bytes, mime };
  } catch {
    return { ok: false, problem: 'not-image', bytes };
  }
}

function printable(c: string): string {
  return c === '`' ? "'`'" : JSON.stringify(c).slice(1, -1);
}
