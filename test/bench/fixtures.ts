// Generated benchmark inputs: small (~3 KB), large (5,000-line tool_code / 200 KB prompt, 200
// variables) and huge (large plus a 5 MB base64 avatar) definition files of both kinds. A file is
// either a smart tool or an LLM tool (`mixed-kind`), so every size comes as a pair.
import { xorshift32 } from '../random';
import { deflateSync } from 'node:zlib';

export type Size = 'small' | 'large' | 'huge';
export type FixtureKind = 'smart' | 'llm';

export interface BenchFile {
  /** e.g. `large-llm`. */
  readonly id: string;
  readonly size: Size;
  readonly kind: FixtureKind;
  readonly uri: string;
  readonly text: string;
  /** Offset inside the embedded text (prompt or tool_code) where edits are typed. */
  readonly editOffset: number;
  /** Offset right after a `{{` inside the prompt (LLM files only). */
  readonly placeholderCompletionOffset?: number;
  /** Offset inside the name of a `{{placeholder}}` in the prompt (LLM files only). */
  readonly placeholderHoverOffset?: number;
  /** Offset inside a metadata property key (hover). */
  readonly metadataKeyOffset: number;
  /** Offset inside a property key of the metadata object (completion of property names). */
  readonly propertyKeyCompletionOffset: number;
}

const WORDS = (
  'the tool reads value input user model prompt answer short list table summary explain each item ' +
  'format output result section heading review detail check ensure return string number date text ' +
  'language tone audience example context request policy customer report note step first then finally'
).split(' ');

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}

// ---------------------------------------------------------------- PNG

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real, decodable 256x256 RGBA PNG. With `totalBytes` the file is padded to exactly that size by
 * incompressible pixel data (stored, not deflated) and a private ancillary chunk (`prVt`, which
 * decoders skip), so its base64 has a chosen length.
 */
export function makePng(totalBytes?: number, seed = 7): Buffer {
  const w = 256;
  const h = 256;
  const rand = xorshift32(seed);
  const raw = Buffer.alloc(h * (1 + w * 4));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + w * 4);
    if (totalBytes) {
      raw[row] = 0; // filter None: opaque noise
      for (let x = 0; x < w; x++) raw.writeUInt32BE(((rand() * 0xffffffff) | 0xff) >>> 0, row + 1 + x * 4);
    } else if (y === 0) {
      raw[row] = 1; // filter Sub: a gradient, each pixel one step redder than its left neighbour
      raw.set([0, 64, 128, 255], row + 1);
      for (let x = 1; x < w; x++) raw[row + 1 + x * 4] = 1;
    } else {
      raw[row] = 2; // filter Up: every row repeats the first
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const parts = [signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: totalBytes ? 0 : 9 }))];
  const iend = chunk('IEND', Buffer.alloc(0));
  if (totalBytes) {
    const used = parts.reduce((n, b) => n + b.length, 0) + iend.length + 12;
    const padLength = totalBytes - used;
    if (padLength < 0) throw new Error(`PNG cannot be as small as ${totalBytes} bytes`);
    const pad = Buffer.alloc(padLength);
    for (let i = 0; i + 4 <= padLength; i += 4) pad.writeUInt32BE((rand() * 0xffffffff) >>> 0, i);
    parts.push(chunk('prVt', pad));
  }
  parts.push(iend);
  const png = Buffer.concat(parts);
  if (totalBytes && png.length !== totalBytes) throw new Error(`PNG is ${png.length} bytes, wanted ${totalBytes}`);
  return png;
}

/** 5 MiB of base64 (no padding: 3,932,160 bytes is a multiple of 3). */
export const HUGE_AVATAR_CHARS = 5 * 1024 * 1024;

let hugeAvatar: string | undefined;
function hugeAvatarBase64(): string {
  hugeAvatar ??= makePng((HUGE_AVATAR_CHARS / 4) * 3).toString('base64');
  return hugeAvatar;
}

// ---------------------------------------------------------------- definitions

const CREATOR = { name: 'Bench Mark', email: 'bench.mark@example.com', organization: 'Performance' };
const TIMESTAMP = '2026-03-01T12:00:00Z';

interface Variable {
  name: string;
  type?: string;
  description: string;
  default: string | string[];
  allowed_values?: string[];
}

function variables(count: number, kind: FixtureKind, rand: () => number): Variable[] {
  const out: Variable[] = [];
  for (let i = 0; i < count; i++) {
    // LLM variable names may contain spaces; smart ones are Python dictionary keys.
    const name = kind === 'llm' && i % 3 === 1 ? `input value ${i}` : `var_${i}`;
    const description = sentence(rand, 12 + Math.floor(rand() * 10));
    if (kind === 'smart') {
      out.push({ name, description, default: `default ${i}` });
      continue;
    }
    switch (i % 4) {
      case 1:
        out.push({ name, type: 'single-select', description, default: 'b', allowed_values: ['a', 'b', 'c', 'd'] });
        break;
      case 2:
        out.push({
          name,
          type: 'multi-select',
          description,
          default: ['a', 'c'],
          allowed_values: ['a', 'b', 'c', 'd'],
        });
        break;
      default:
        out.push({ name, type: 'text', description, default: sentence(rand, 6) });
    }
  }
  return out;
}

/** Python source of `lines` lines that reads every variable and returns a string. */
function pythonSource(lines: number, vars: readonly Variable[], rand: () => number): string {
  const out: string[] = ['import json', 'import re', 'from datetime import datetime', '', ''];
  let helper = 0;
  while (out.length < lines - vars.length - 12) {
    out.push(`def helper_${helper}(value, limit=${(helper % 50) + 10}):`);
    out.push(`    """${sentence(rand, 8)}"""`);
    out.push('    items = [part.strip() for part in str(value).split(",") if part.strip()]');
    out.push(`    if len(items) > limit:`);
    out.push(`        items = items[:limit]`);
    out.push(`    text = " ".join(items).replace("\\t", " ")`);
    out.push(`    return f"{text!r} ({len(items)} items, helper ${helper})"`);
    out.push('', '');
    helper++;
  }
  out.push('def execute(variables):');
  out.push('    parts = []');
  vars.forEach((v, i) => out.push(`    parts.append(helper_${i % helper}(variables.get("${v.name}", "")))`));
  out.push('    stamp = datetime.now().isoformat()');
  out.push('    return json.dumps({"parts": parts, "at": stamp})');
  while (out.length < lines) out.push(`# ${sentence(rand, 6)}`);
  return out.slice(0, lines).join('\n') + '\n';
}

/** A prompt of about `chars` characters with every variable as a placeholder. */
function promptText(chars: number, vars: readonly Variable[], rand: () => number): string {
  const out: string[] = ['You are a careful assistant. Use the inputs below.\n'];
  let length = out[0].length;
  let i = 0;
  while (length < chars || i < vars.length) {
    const v = vars[i % vars.length];
    const para = `## Section ${i}\n${sentence(rand, 20 + Math.floor(rand() * 20))} Consider "{{${v.name}}}" when you write the answer. ${sentence(rand, 15)}\n\n`;
    out.push(para);
    length += para.length;
    i++;
  }
  return out.join('');
}

function smartDefinition(size: Size): { name: string; value: object } {
  const rand = xorshift32(size === 'small' ? 1 : 2);
  const name = `${size}_smart_tool`;
  const vars = variables(size === 'small' ? 3 : 200, 'smart', rand);
  const code = pythonSource(size === 'small' ? 30 : 5000, vars, rand);
  const metadata: Record<string, unknown> = {
    tool_name: name,
    tool_code: code,
    description: sentence(rand, 14),
    usage_notes: sentence(rand, 20),
    model_version: ['gpt-4', 'claude'],
    creator: CREATOR,
    variables: vars,
    expected_output: { type: 'text' },
    avatar_type: 'base64',
    avatar: size === 'huge' ? hugeAvatarBase64() : makePng().toString('base64'),
    timestamp: TIMESTAMP,
    requirements: 'requests>=2.31\npyyaml',
  };
  return { name, value: { version: '1.0', metadata } };
}

function llmDefinition(size: Size): { name: string; value: object } {
  const rand = xorshift32(size === 'small' ? 3 : 4);
  const name = `${size}-llm-tool`;
  const vars = variables(size === 'small' ? 3 : 200, 'llm', rand);
  const prompt = promptText(size === 'small' ? 400 : 200 * 1024, vars, rand);
  const metadata: Record<string, unknown> = {
    prompt_name: name,
    description: sentence(rand, 14),
    usage_notes: sentence(rand, 20),
    model_version: ['gpt-4', 'claude'],
    creator: CREATOR,
    parameters: { temperature: 0.2, max_tokens: 2048, top_p: 1.0, frequency_penalty: 0.0, presence_penalty: 0.0 },
    variables: vars,
    expected_output: { type: 'text', format: 'Markdown' },
    avatar_type: 'base64',
    avatar: size === 'huge' ? hugeAvatarBase64() : makePng().toString('base64'),
    timestamp: TIMESTAMP,
  };
  return { name, value: { version: '1.0', model_prompt: prompt, metadata } };
}

function offsetAfter(text: string, needle: string, from = 0): number {
  const i = text.indexOf(needle, from);
  if (i < 0) throw new Error(`fixture lacks ${JSON.stringify(needle)}`);
  return i + needle.length;
}

/** Offset of the closing quote of the JSON string whose content starts at `from`. */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) return i;
  }
  throw new Error('unterminated string');
}

function build(size: Size, kind: FixtureKind): BenchFile {
  const { name, value } = kind === 'smart' ? smartDefinition(size) : llmDefinition(size);
  const text = JSON.stringify(value, null, 2) + '\n';
  const uri = `file:///bench/${name}.json`;
  const embeddedKey = kind === 'smart' ? '"tool_code": "' : '"model_prompt": "';
  const embeddedStart = offsetAfter(text, embeddedKey);
  const embeddedLength = stringEnd(text, embeddedStart) - embeddedStart;
  // A placeholder in the first half of the prompt, so it stays put while edits are typed after it.
  const open = kind === 'llm' ? offsetAfter(text, '{{', embeddedStart + Math.floor(embeddedLength / 4)) : undefined;
  // Edits are typed in the middle of the prompt / code, at the start of a word.
  const word = / [a-z]/g;
  word.lastIndex = Math.max(embeddedStart + Math.floor(embeddedLength / 2), (open ?? 0) + 40);
  const editOffset = word.exec(text)!.index + 1;
  if (editOffset >= embeddedStart + embeddedLength) throw new Error('edit position must be inside the embedded text');
  const metadataStart = offsetAfter(text, '"metadata"');
  return {
    id: `${size}-${kind}`,
    size,
    kind,
    uri,
    text,
    editOffset,
    placeholderCompletionOffset: open,
    placeholderHoverOffset: open === undefined ? undefined : open + 3,
    metadataKeyOffset: offsetAfter(text, '"description"', metadataStart) - 4,
    propertyKeyCompletionOffset: offsetAfter(text, '"usage_notes"', metadataStart) - 6,
  };
}

export function generateFixtures(): BenchFile[] {
  const out: BenchFile[] = [];
  for (const size of ['small', 'large', 'huge'] as const)
    for (const kind of ['smart', 'llm'] as const) out.push(build(size, kind));
  return out;
}

export function schemaKind(file: BenchFile): 'smart-tool' | 'llm-tool' {
  return file.kind === 'smart' ? 'smart-tool' : 'llm-tool';
}
