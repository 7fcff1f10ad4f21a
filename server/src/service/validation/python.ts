import { child, stringValue } from '../json/nodes';
import { checkRequirements } from '../python/requirements';
import { checkVariableKeys } from '../python/variableKeyCheck';
import type { Validator } from './context';

/**
 * Syntax, the `execute` contract, hard-coded secrets and names (undefined, unused), at their exact
 * characters in the JSON string.
 */
export const pythonCode: Validator = (ctx) => {
  const py = ctx.model.python;
  if (!py) return;
  for (const p of py.facts.problems) {
    if (p.code === 'missing-execute') {
      ctx.report(p.code, py.node.parent!.children![0], p.message);
      continue;
    }
    const at = py.embedded.rangeToDocument(p.start, p.end);
    if (p.code === 'hardcoded-secret') {
      // The literal's own quotes (`'`, `"` or a triple), after any prefix (`r`, `b`, …).
      const quote = /^[a-zA-Z]*('''|"""|'|")/.exec(py.embedded.text.slice(p.start, p.end))?.[1] ?? '"';
      ctx.report(p.code, at, p.message, { fix: 'secret-placeholder', ...at, quote });
      continue;
    }
    if (p.code === 'unused-import') {
      const remove = py.embedded.rangeToDocument(p.data.remove.start, p.data.remove.end);
      ctx.report(p.code, at, p.message, { fix: 'remove-import', ...remove });
      continue;
    }
    if (p.code === 'undefined-name' && p.data.candidates.length) {
      ctx.report(p.code, at, p.message, { fix: 'replace', ...at, candidates: p.data.candidates, quoted: false });
      continue;
    }
    ctx.report(p.code, at, p.message);
  }
};

/** `variables["x"]` keys against the declared variables, and variables the code never reads. */
export const variableKeys: Validator = (ctx) => {
  const { model } = ctx;
  const py = model.python;
  if (!py) return;
  const names = model.variables.map((v) => v.name).filter((n): n is string => n !== undefined);
  for (const p of checkVariableKeys(py.facts, names)) {
    const at = py.embedded.rangeToDocument(p.start, p.end);
    const { name, candidates } = p.data;
    const quote = py.facts.keys.find((k) => k.start === p.start)?.quote ?? '"';
    ctx.report('unknown-variable-key', at, p.message, {
      fix: 'unknown-name',
      ...at,
      candidates,
      name,
      pythonQuote: quote,
    });
  }
  // Keys hidden behind dynamic use, or behind a syntax error, cannot prove a variable unused.
  if (py.facts.dynamicVariables || py.facts.problems.some((p) => p.code === 'python-syntax')) return;
  const read = new Set(py.facts.keys.map((k) => k.name));
  for (const v of model.variables) {
    if (v.name && v.nameNode && v.name.trim() && !read.has(v.name)) {
      ctx.report(
        'unused-variable',
        v.nameNode,
        `Variable "${v.name}" is never read by tool_code: use variables[${JSON.stringify(v.name)}] in execute, or remove the variable.`,
      );
    }
  }
};

/** Imports against `requirements`, and the requirement lines themselves (PEP 508). */
export const requirements: Validator = (ctx) => {
  const { model } = ctx;
  const py = model.python;
  if (!py) return;
  const reqNode = child(model.metadata, 'requirements');
  const reqText = stringValue(reqNode);
  const reqEmbedded = reqNode?.type === 'string' ? model.embedded(reqNode) : undefined;
  for (const p of checkRequirements(reqText, py.facts.imports)) {
    const inCode = p.in === 'tool_code';
    const at = inCode ? py.embedded.rangeToDocument(p.start, p.end) : reqEmbedded!.rangeToDocument(p.start, p.end);
    const data =
      p.code === 'missing-requirement'
        ? { fix: 'add-requirement' as const, distribution: p.data.distribution }
        : undefined;
    ctx.report(p.code, at, p.message, data);
  }
};
