import { property } from '../json/nodes';
import type { JsonNode } from '../json/tree';
import type { ValidationContext, Validator } from './context';

export const modelVersion: Validator = (ctx) => {
  const prop = property(ctx.model.metadata, 'model_version');
  const value = prop?.children?.[1];
  if (!value) return;
  if (value.type === 'string') {
    ctx.report(
      'model-version-string',
      value,
      'model_version should be an array of model ids: wrap the string in [ ].',
      { fix: 'wrap-array' },
    );
    if (value.value === '')
      ctx.report(
        'model-version-empty',
        value,
        'model_version names no model: add at least one model id, e.g. "gpt-4".',
      );
    else knownModel(ctx, value);
    return;
  }
  if (value.type !== 'array') return;
  if (value.children!.length === 0) {
    ctx.report(
      'model-version-empty',
      value,
      `model_version is empty: add at least one model id (${ctx.settings.knownModels.map((m) => `"${m}"`).join(', ')}).`,
    );
  }
  for (const item of value.children!) {
    if (item.type !== 'string') continue;
    if (item.value === '')
      ctx.report('model-version-empty', item, 'Empty model id: write a model id such as "gpt-4", or remove the entry.');
    else knownModel(ctx, item);
  }
};

function knownModel(ctx: ValidationContext, item: JsonNode): void {
  const id = item.value as string;
  const known = ctx.settings.knownModels;
  if (known.includes(id)) return;
  ctx.report(
    'unknown-model',
    item,
    `"${id}" is not one of the known model ids (${known.map((m) => `"${m}"`).join(', ')}); add it to the tooldef.knownModels setting if your workspace offers it.`,
    {
      fix: 'replace',
      offset: item.offset,
      length: item.length,
      candidates: [...known],
      quoted: true,
    },
  );
}
