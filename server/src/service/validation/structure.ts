import { child, property } from '../json/nodes';
import type { Validator } from './context';

export const syntax: Validator = (ctx) => {
  for (const e of ctx.model.json.syntaxErrors) ctx.report('json-syntax', e, e.message);
};

export const rootShape: Validator = (ctx) => {
  const root = ctx.model.root;
  if (root && root.type !== 'object') {
    ctx.report(
      'root-not-object',
      root.type === 'array' || root.type === 'string' ? { offset: root.offset, length: 1 } : root,
      root.type === 'array'
        ? 'A tool definition must be one JSON object, not an array: remove the surrounding [ ] and keep one definition per file.'
        : `A tool definition must be a JSON object, not a ${root.type}: write the definition as { … }.`,
    );
  }
};

export const duplicateKeys: Validator = (ctx) => {
  for (const key of ctx.model.json.duplicateKeys) {
    ctx.report(
      'duplicate-key',
      key,
      `Duplicate key "${String(key.value)}": JSON keeps only the last value, so one of them is lost; remove or rename one.`,
    );
  }
};

export const mixedKind: Validator = (ctx) => {
  const root = ctx.model.root;
  if (!property(root, 'model_prompt')) return;
  const code = property(child(root, 'metadata'), 'tool_code') ?? property(root, 'tool_code');
  if (code) {
    ctx.report(
      'mixed-kind',
      code.children![0],
      'A file is either an LLM tool ("model_prompt") or a smart tool ("tool_code"), not both: move one into a file of its own.',
    );
  }
};
