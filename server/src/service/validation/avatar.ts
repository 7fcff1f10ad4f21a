import { inspectBase64Image } from '../avatar';
import { child, stringValue } from '../json/nodes';
import type { JsonNode } from '../json/tree';
import type { ValidationContext, Validator } from './context';

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export const avatar: Validator = (ctx) => {
  const metadata = ctx.model.metadata;
  let holder = metadata;
  const nested = child(metadata, 'avatar');
  if (nested?.type === 'object') {
    const key = nested.parent!.children![0];
    ctx.report(
      'nested-avatar',
      key,
      'Put "avatar_type" and "avatar" directly in metadata instead of a nested avatar object.',
      { fix: 'flatten-avatar' },
    );
    holder = nested;
  }
  const value = child(holder, 'avatar');
  if (value?.type !== 'string' || value.value === '') return;
  const typeNode = child(holder, 'avatar_type') ?? (holder !== metadata ? child(metadata, 'avatar_type') : undefined);
  const declared = stringValue(typeNode);
  const text = value.value as string;
  const head = text.slice(0, 64); // regexes see only a prefix: the value may be megabytes long
  const isUrl = URL_LIKE.test(head);
  if (declared === 'url') {
    if (!isUrl && text.length > 64 && /^[A-Za-z0-9+/=\s]+$/.test(text.slice(0, 4096))) {
      mismatch(
        ctx,
        value,
        typeNode!,
        'base64',
        'avatar_type is "url" but avatar holds base64 image data: set avatar_type to "base64".',
      );
    } else if (!validHttpUrl(text)) {
      ctx.report(
        'avatar-invalid-url',
        value,
        'avatar is not a valid http(s) URL: write an address such as "https://example.com/logo.png".',
      );
    }
    return;
  }
  if (declared !== undefined && declared !== 'base64') return; // invalid-enum already reported
  if (isUrl || text.startsWith('www.')) {
    if (typeNode)
      mismatch(
        ctx,
        value,
        typeNode,
        'url',
        'avatar_type is "base64" but avatar is a URL: set avatar_type to "url", or embed the image as base64.',
      );
    else
      ctx.report(
        'avatar-type-mismatch',
        value,
        'avatar is a URL but avatar_type is missing: add "avatar_type": "url".',
      );
    return;
  }
  const info = inspectBase64Image(text);
  if (info.ok) {
    if (info.type !== 'svg' && (info.width !== 256 || info.height !== 256)) {
      ctx.report(
        'avatar-size',
        value,
        `The avatar is ${info.width}×${info.height} pixels; 256×256 is recommended: resize the image.`,
      );
    }
  } else if (info.problem === 'invalid-base64') {
    const embedded = ctx.model.embedded(value);
    ctx.report(
      'avatar-invalid-base64',
      embedded.rangeToDocument(info.at, info.at + info.length),
      `avatar is not valid base64: ${info.reason}.`,
    );
  } else {
    ctx.report(
      'avatar-not-image',
      value,
      'avatar decodes to bytes that are not a PNG, JPEG, GIF, WebP or SVG image: encode the image file itself as base64.',
    );
  }
};

function mismatch(ctx: ValidationContext, value: JsonNode, typeNode: JsonNode, should: string, message: string): void {
  ctx.report('avatar-type-mismatch', value, message, {
    fix: 'replace',
    offset: typeNode.offset,
    length: typeNode.length,
    candidates: [should],
    quoted: true,
  });
}

function validHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname.length > 0 && !/\s/.test(text);
  } catch {
    return false;
  }
}
