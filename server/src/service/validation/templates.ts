import { closest } from '../similar';
import type { Validator } from './context';

/** Placeholders of `model_prompt` against the declared variables, ranges mapped through JSON escapes. */
export const placeholders: Validator = (ctx) => {
  const { model } = ctx;
  const prompt = model.prompt;
  if (model.kind !== 'llm' || !prompt) return;
  const declared = model.variablesByName;
  // Whether each declaration is used, by its index: one name lookup per placeholder.
  const used = new Uint8Array(model.variables.length);
  for (const p of prompt.placeholders) {
    const exact = p.closed && p.name !== '' ? declared.get(p.name) : undefined;
    if (exact) {
      used[exact.index] = 1;
      continue;
    }
    // Past the file's cap, counted only: a generated prompt may hold hundreds of thousands.
    if (ctx.full()) {
      ctx.more();
      continue;
    }
    // Positions are mapped only for placeholders that are reported.
    const at = prompt.embedded.rangeToDocument(p.start, p.end);
    if (!p.closed) {
      ctx.report(
        'malformed-placeholder',
        at,
        '"{{" is never closed: add "}}" after the variable name, or remove the braces.',
        { fix: 'close-placeholder', at: p.end },
      );
      continue;
    }
    const trimmed = p.name.trim();
    if (!trimmed) {
      ctx.report(
        'malformed-placeholder',
        at,
        'Empty placeholder "{{}}": put a variable name between the braces, or remove them.',
      );
      continue;
    }
    const inner = prompt.embedded.rangeToDocument(p.start + 2, p.end - 2);
    const spaced = declared.get(trimmed);
    if (spaced) {
      used[spaced.index] = 1;
      ctx.report(
        'placeholder-whitespace',
        at,
        `The spaces are part of the name, so "{{${p.name}}}" does not match variable "${trimmed}": write "{{${trimmed}}}".`,
        {
          fix: 'trim-placeholder',
          ...inner,
          name: trimmed,
        },
      );
      continue;
    }
    const candidates = closest(
      p.name,
      [...declared.keys()].filter((n) => n !== ''),
    );
    const hint = candidates.length ? ` Did you mean "${candidates[0]}"?` : '';
    ctx.report(
      'unknown-placeholder',
      at,
      `No variable is named "${p.name}".${hint} Fix the name, or add the variable to metadata.variables.`,
      {
        fix: 'unknown-name',
        ...inner,
        candidates,
        name: p.name,
      },
    );
  }
  for (const v of model.variables) {
    if (v.name && v.nameNode && !used[declared.get(v.name)!.index] && v.name.trim()) {
      ctx.report(
        'unused-variable',
        v.nameNode,
        `Variable "${v.name}" is never used: add "{{${v.name}}}" to model_prompt, or remove the variable.`,
      );
    }
  }
};
