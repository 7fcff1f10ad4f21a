import { child } from '../json/nodes';
import { isIsoDateTime } from '../timestamp';
import type { Validator } from './context';

export const timestamp: Validator = (ctx) => {
  const node = child(ctx.model.metadata, 'timestamp');
  if (node?.type !== 'string' || isIsoDateTime(node.value as string)) return;
  ctx.report(
    'invalid-timestamp',
    node,
    'timestamp must be an ISO 8601 date-time such as "2026-03-14T09:30:00Z": fix it, or use the quick fix "Update timestamp to now".',
  );
};

const EMAIL = /^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[^\s@<>()[\]",;:]+$/;

export const email: Validator = (ctx) => {
  const node = child(child(ctx.model.metadata, 'creator'), 'email');
  if (node?.type !== 'string') return;
  const s = node.value as string;
  if (s === '' || s === '<EMAIL>' || EMAIL.test(s)) return;
  ctx.report(
    'invalid-email',
    node,
    `"${s}" is not an email address: write one such as "name@example.com", or the placeholder "<EMAIL>".`,
  );
};

const VERSION = /^\d+(?:\.\d+)*(?:[-+][0-9A-Za-z.-]+)?$/;

export const version: Validator = (ctx) => {
  const node = child(ctx.model.root, 'version');
  if (node?.type === 'string' && !VERSION.test(node.value as string)) {
    ctx.report(
      'invalid-version',
      node,
      `"${String(node.value)}" is not a dotted version: use a short version string such as "1.0".`,
    );
  } else if (node?.type === 'number' && ctx.model.kind === 'llm' && (node.value as number) < 0) {
    ctx.report(
      'invalid-version',
      node,
      'version must not be negative: use a positive integer or a string such as "1.0".',
    );
  }
};

const RANGES: Record<string, [number, number]> = {
  temperature: [0, 2],
  top_p: [0, 1],
  frequency_penalty: [-2, 2],
  presence_penalty: [-2, 2],
};

export const parameters: Validator = (ctx) => {
  const params = child(ctx.model.metadata, 'parameters');
  if (ctx.model.kind !== 'llm' || params?.type !== 'object') return;
  for (const prop of params.children!) {
    const value = prop.children?.[1];
    if (value?.type !== 'number') continue;
    const name = String(prop.children![0].value);
    const n = value.value as number;
    if (name === 'max_tokens') {
      if (n < 1)
        ctx.report('parameter-out-of-range', value, 'max_tokens must be a positive integer: set it to 1 or more.');
      continue;
    }
    const range = RANGES[name];
    if (range && (n < range[0] || n > range[1])) {
      ctx.report(
        'parameter-out-of-range',
        value,
        `${name} must be between ${range[0]} and ${range[1]}: ${n} is out of range.`,
      );
    }
  }
};

export const fileName: Validator = (ctx) => {
  const { model } = ctx;
  if (model.kind !== 'smart') return;
  const node = model.toolNameNode;
  const file = fileBaseName(model.document.uri);
  if (!node || !file || !file.toLowerCase().endsWith('.json')) return;
  const expected = `${node.value as string}.json`;
  if (file !== expected && node.value !== '') {
    ctx.report(
      'file-name-mismatch',
      node,
      `Smart tool files are named "<tool_name>.json": rename this file to "${expected}" (or turn the rule off with tooldef.rules).`,
    );
  }
};

function fileBaseName(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  const last = uri.slice(uri.lastIndexOf('/') + 1);
  if (!last.includes('%')) return last; // most names: no decoding (this runs on every check)
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The namesakes a duplicate-tool-name lists as related locations (the message gives the total). */
const MAX_NAMESAKES = 20;

export const duplicateToolName: Validator = (ctx) => {
  const node = ctx.model.toolNameNode;
  if (!ctx.workspace || !node || node.value === '') return;
  const { shown, total } = ctx.workspace.toolsNamed(node.value as string, ctx.model.document.uri, MAX_NAMESAKES);
  if (!total) return;
  const others =
    total === 1 ? 'Another definition in the workspace is' : `${total} other definitions in the workspace are`;
  ctx.report(
    'duplicate-tool-name',
    node,
    `${others} also named "${String(node.value)}": tool names must be unique within a workspace, rename one.`,
    undefined,
    shown,
  );
};
