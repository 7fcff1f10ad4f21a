import { closest } from '../similar';
import type { Validator } from './context';

/** Placeholders of `model_prompt` against the declared variables, ranges mapped through JSON escapes. */
export const placeholders: Validator = (ctx) => {
  const { model } = ctx;
  const prompt = model.prompt;
  if (model.kind !== 'llm' || !prompt) return;
  const names = model.variables.map((v) => v.name).filter((n): n is string => !!n);
  const declared = new Set(names);
  const used = new Set<string>();
  for (const p of prompt.placeholders) {
    if (p.closed && declared.has(p.name)) {
      used.add(p.name);
      continue;
    }
    // Positions are mapped only for placeholders that are reported.
    const at = prompt.embedded.rangeToDocument(p.start, p.end);
    if (!p.closed) {
      ctx.report('malformed-placeholder', at, '`{{` is never closed: add `}}` after the variable name, or remove the braces.');
      continue;
    }
    const trimmed = p.name.trim();
    if (!trimmed) {
      ctx.report('malformed-placeholder', at, 'Empty placeholder `{{}}`: put a variable name between the braces, or remove them.');
      continue;
    }
    const inner = prompt.embedded.rangeToDocument(p.start + 2, p.end - 2);
    if (declared.has(trimmed)) {
      used.add(trimmed);
      ctx.report('placeholder-whitespace', at, `The spaces are part of the name, so \`{{${p.name}}}\` does not match variable \`${trimmed}\`: write \`{{${trimmed}}}\`.`, {
        fix: 'trim-placeholder',
        ...inner,
        name: trimmed,
      });
      continue;
    }
    const candidates = closest(p.name, names);
    const hint = candidates.length ? ` Did you mean \`${candidates[0]}\`?` : '';
    ctx.report('unknown-placeholder', at, `No variable is named \`${p.name}\`.${hint} Fix the name, or add the variable to metadata.variables.`, {
      fix: 'unknown-name',
      ...inner,
      candidates,
      name: p.name,
    });
  }
  for (const v of model.variables) {
    if (v.name && v.nameNode && !used.has(v.name) && v.name.trim()) {
      ctx.report('unused-variable', v.nameNode, `Variable \`${v.name}\` is never used: add \`{{${v.name}}}\` to model_prompt, or remove the variable.`);
    }
  }
};
