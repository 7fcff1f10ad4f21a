import type { JsonNode } from '../json/tree';
import type { VariableDecl } from '../model';
import { closest } from '../similar';
import type { ValidationContext, Validator } from './context';

const SELECT = new Set(['single-select', 'multi-select']);

export const variableNames: Validator = (ctx) => {
  const byName = ctx.model.variablesByName;
  for (const v of ctx.model.variables) {
    if (v.name === undefined || !v.nameNode) continue;
    if (v.name.trim() === '') {
      ctx.report(
        'empty-variable-name',
        v.nameNode,
        'Variable name is empty: give the variable a name (it is the key the tool receives its value by).',
      );
    } else if (byName.get(v.name) !== v) {
      ctx.report(
        'duplicate-variable',
        v.nameNode,
        `Another variable is already named "${v.name}": rename or remove this one.`,
      );
    }
  }
};

export const variableValues: Validator = (ctx) => {
  for (const v of ctx.model.variables) {
    if (ctx.model.kind === 'llm') selectRules(ctx, v);
    defaultRules(ctx, v);
  }
};

function expectsArray(ctx: ValidationContext, v: VariableDecl): boolean {
  return ctx.model.kind === 'llm' && v.type === 'multi-select';
}

function defaultRules(ctx: ValidationContext, v: VariableDecl): void {
  const d = v.defaultNode;
  if (!d) return;
  // Messages are built only for problems: this runs for every variable on every keystroke.
  const label = (): string => `"${v.name ?? `variables[${v.index}]`}"`;
  if (expectsArray(ctx, v)) {
    if (d.type === 'string') {
      ctx.report(
        'default-type-mismatch',
        d,
        `The default of multi-select variable ${label()} must be an array of strings: wrap it in [ ].`,
        { fix: 'wrap-array' },
      );
    } else if (d.type !== 'array' || d.children!.some((c) => c.type !== 'string')) {
      ctx.report(
        'default-type-mismatch',
        d,
        `The default of multi-select variable ${label()} must be an array of strings, e.g. ["a", "b"].`,
      );
    } else {
      for (const item of d.children!) notAllowed(ctx, v, item);
    }
    return;
  }
  const kindWord = (): string =>
    ctx.model.kind === 'smart' ? 'a smart tool variable' : `${v.type ?? 'text'} variable`;
  if (d.type === 'string') {
    notAllowed(ctx, v, d);
  } else if (d.type === 'array' && d.children!.length <= 1 && d.children!.every((c) => c.type === 'string')) {
    ctx.report(
      'default-type-mismatch',
      d,
      `The default of ${kindWord()} ${label()} must be a string, not an array: unwrap it.`,
      { fix: 'unwrap-array' },
    );
  } else if (d.type === 'number' || d.type === 'boolean') {
    ctx.report('default-type-mismatch', d, `The default of ${kindWord()} ${label()} must be a string: quote it.`, {
      fix: 'replace',
      offset: d.offset,
      length: d.length,
      candidates: [String(d.value)],
      quoted: true,
    });
  } else {
    ctx.report('default-type-mismatch', d, `The default of ${kindWord()} ${label()} must be a string.`);
  }
}

function notAllowed(ctx: ValidationContext, v: VariableDecl, value: JsonNode): void {
  if (!SELECT.has(v.type ?? '') || !v.allowedValues?.length) return;
  const s = value.value as string;
  if (v.allowedValues.includes(s)) return;
  const candidates = closest(s, v.allowedValues, v.allowedValues.length);
  const rest = v.allowedValues.filter((a) => !candidates.includes(a));
  ctx.report(
    'default-not-allowed',
    value,
    `"${s}" is not one of the allowed values of "${v.name}" (${v.allowedValues.map((a) => `"${a}"`).join(', ')}): pick one of them or add it to allowed_values.`,
    {
      fix: 'replace',
      offset: value.offset,
      length: value.length,
      candidates: [...candidates, ...rest],
      quoted: true,
    },
  );
}

function selectRules(ctx: ValidationContext, v: VariableDecl): void {
  const isSelect = SELECT.has(v.type ?? '');
  if (isSelect && !v.allowedValues?.length && v.typeNode) {
    ctx.report(
      'missing-allowed-values',
      v.typeNode,
      `A ${v.type} variable needs a non-empty "allowed_values" array: add the values the user can pick.`,
    );
  }
  const allowed = v.allowedNode;
  if (!allowed) return;
  if (!isSelect && (v.type === undefined || v.type === 'text')) {
    const key = allowed.parent!.children![0];
    ctx.report(
      'unexpected-allowed-values',
      key,
      '"allowed_values" has no effect on a text variable: set "type" to single-select or multi-select, or remove it.',
    );
  }
  if (allowed.type !== 'array') return;
  const seen = new Set<string>();
  for (const item of allowed.children!) {
    if (item.type !== 'string') continue;
    const s = item.value as string;
    if (seen.has(s))
      ctx.report('duplicate-allowed-value', item, `"${s}" is listed twice in allowed_values: remove this one.`);
    seen.add(s);
  }
}
