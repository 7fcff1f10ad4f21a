import { child, property, stringValue } from '../json/nodes';
import type { Validator } from './context';

export const expectedOutput: Validator = (ctx) => {
  const out = child(ctx.model.metadata, 'expected_output');
  if (out?.type !== 'object') return;
  const typeNode = child(out, 'type');
  const type = stringValue(typeNode);
  if (ctx.model.kind === 'smart') {
    if (typeNode && type !== 'text') {
      ctx.report(
        'smart-output-not-text',
        typeNode,
        'A smart tool returns a string that is shown as text: set expected_output.type to "text".',
        {
          fix: 'replace',
          offset: typeNode.offset,
          length: typeNode.length,
          candidates: ['text'],
          quoted: true,
        },
      );
    }
    return;
  }
  const allowed = child(out, 'allowed_values');
  if (type === 'limited' && typeNode && (allowed?.type !== 'array' || allowed.children!.length === 0)) {
    ctx.report(
      'limited-without-values',
      typeNode,
      'A "limited" output needs a non-empty "allowed_values" array listing the answers the model may give: add it.',
    );
  }
  const language = property(out, 'language');
  if (language && type !== 'code') {
    ctx.report(
      'language-without-code',
      language.children![0],
      '"language" only applies when expected_output.type is "code": set the type to "code" or remove "language".',
    );
  }
};
