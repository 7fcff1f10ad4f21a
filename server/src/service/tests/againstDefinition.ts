// A tests file's cases checked against the variables of their definition: the inputs they name, the
// values they give, the variables they leave to a default that does not exist.
import { closest } from '../similar';
import type { JsonNode } from '../json/tree';
import type { ToolModel } from '../model';
import type { TestCase, TestsProblem } from './testsFile';

/** What is wrong with the cases' inputs for the definition's variables; nothing when it is not a definition. */
export function checkCasesAgainst(cases: readonly TestCase[], definition: ToolModel): TestsProblem[] {
  const problems: TestsProblem[] = [];
  const kind = definition.kind;
  if (!kind) return problems;
  const byName = definition.variablesByName;
  const names = [...byName.keys()];
  for (const c of cases) {
    for (const [name, { value, property }] of c.inputs) {
      const key = property.children![0];
      const v = byName.get(name);
      if (!v) {
        const near = closest(name, names, 1)[0];
        problems.push({
          code: 'tests-unknown-input',
          offset: key.offset,
          length: key.length,
          message: `The definition has no variable "${name}"${near ? `: did you mean "${near}"?` : names.length ? `; its variables are ${names.map((n) => `"${n}"`).join(', ')}.` : ' (it declares none).'}`,
        });
        continue;
      }
      const valueNode = property.children![1];
      const multi = v.type === 'multi-select';
      if (kind === 'llm' && multi !== Array.isArray(value)) {
        problems.push({
          code: 'tests-shape',
          offset: valueNode.offset,
          length: valueNode.length,
          message: multi
            ? `"${name}" is a multi-select variable: give an array of strings, e.g. ["${v.allowedValues?.[0] ?? 'value'}"].`
            : `"${name}" takes one string, not an array.`,
        });
        continue;
      }
      if (kind === 'smart' && Array.isArray(value)) {
        problems.push({
          code: 'tests-shape',
          offset: valueNode.offset,
          length: valueNode.length,
          message: `A smart tool's inputs are strings: give "${name}" one string.`,
        });
        continue;
      }
      const allowed = kind === 'llm' && v.type !== 'text' ? v.allowedValues : undefined;
      if (!allowed) continue;
      const values = typeof value === 'string' ? [{ text: value, node: valueNode }] : elements(valueNode);
      for (const { text, node } of values)
        if (!allowed.includes(text))
          problems.push({
            code: 'tests-value-not-allowed',
            offset: node.offset,
            length: node.length,
            message: `"${text}" is not among the allowed values of "${name}": use ${allowed.map((a) => `"${a}"`).join(', ')}.`,
          });
    }
    for (const v of byName.values()) {
      if (c.inputs.has(v.name!) || v.defaultNode) continue;
      problems.push({
        code: 'tests-missing-input',
        offset: c.nameNode.offset,
        length: c.nameNode.length,
        message: `"${c.name}" gives no value for "${v.name}", which has no default: add it to "inputs".`,
      });
    }
  }
  return problems;
}

function elements(node: JsonNode): { text: string; node: JsonNode }[] {
  return (node.children ?? []).map((n) => ({ text: n.value as string, node: n }));
}
