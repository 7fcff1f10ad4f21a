import { closest } from '../similar';
import type { Validator } from './context';

/** How far after an unclosed `{{` a variable name is looked for (names are short). */
const MAX_NAME_LOOKAHEAD = 200;

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
    // Positions are mapped only for placeholders that are reported.
    const at = prompt.embedded.rangeToDocument(p.start, p.end);
    if (!p.closed) {
      // The declared names the text after `{{` begins with, longest first: where `}}` would close it.
      const after = prompt.embedded.text.slice(p.end, p.end + MAX_NAME_LOOKAHEAD);
      const closings = [...declared.keys()]
        .filter((n) => n.trim() && after.startsWith(n))
        .sort((a, b) => b.length - a.length)
        .map((name) => ({
          name,
          offset: prompt.embedded.rangeToDocument(p.end + name.length, p.end + name.length).offset,
        }));
      ctx.report(
        'malformed-placeholder',
        at,
        '`{{` is never closed: add `}}` after the variable name, or remove the braces.',
        closings.length ? { fix: 'close-placeholder', closings } : undefined,
      );
      continue;
    }
    const trimmed = p.name.trim();
    if (!trimmed) {
      ctx.report(
        'malformed-placeholder',
        at,
        'Empty placeholder `{{}}`: put a variable name between the braces, or remove them.',
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
        `The spaces are part of the name, so \`{{${p.name}}}\` does not match variable \`${trimmed}\`: write \`{{${trimmed}}}\`.`,
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
    const hint = candidates.length ? ` Did you mean \`${candidates[0]}\`?` : '';
    ctx.report(
      'unknown-placeholder',
      at,
      `No variable is named \`${p.name}\`.${hint} Fix the name, or add the variable to metadata.variables.`,
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
        `Variable \`${v.name}\` is never used: add \`{{${v.name}}}\` to model_prompt, or remove the variable.`,
      );
    }
  }
};
