// variables keys, dynamic use, unknown-variable-key, imports facts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzePython, variableKeyAt } from '../../server/src/service/python/index';
import { checkVariableKeys } from '../../server/src/service/python/variableKeyCheck';

function keys(src: string) {
  const f = analyzePython(src);
  return { keys: f.keys.map((k) => [k.name, src.slice(k.start, k.end), k.quote]), dynamic: f.dynamicVariables };
}

describe('variables keys', () => {
  it('finds subscripts, get with and without default, pop, setdefault and membership tests', () => {
    const src = [
      'def execute(variables):',
      '    a = variables["alpha"]',
      "    b = variables.get('beta')",
      "    c = variables.get('gamma', 'x')",
      '    d = variables.get("""delta""", None)',
      '    if "eps" in variables and "zeta" not in variables:',
      '        pass',
      '    variables.pop("eta")',
      '    variables.setdefault("theta", 1)',
      '    variables["iota"] = 1',
      '    return f"{variables[\'kappa\']}"',
      '',
    ].join('\n');
    assert.deepEqual(keys(src), {
      keys: [
        ['alpha', 'alpha', '"'],
        ['beta', 'beta', "'"],
        ['gamma', 'gamma', "'"],
        ['delta', 'delta', '"""'],
        ['eps', 'eps', '"'],
        ['zeta', 'zeta', '"'],
        ['eta', 'eta', '"'],
        ['theta', 'theta', '"'],
        ['iota', 'iota', '"'],
        ['kappa', 'kappa', "'"],
      ],
      dynamic: false,
    });
  });

  it('keeps offsets of keys with non-ASCII names (UTF-16)', () => {
    const src = 'def execute(variables):\n    return variables["😀 name"] + variables["é"]\n';
    const f = analyzePython(src);
    assert.deepEqual(
      f.keys.map((k) => src.slice(k.start, k.end)),
      ['😀 name', 'é'],
    );
  });

  for (const use of [
    'variables[k]',
    'variables.get(k)',
    'helper(variables)',
    'helper(**variables)',
    'list(variables)',
    '[v for v in variables]',
    'variables.items()',
    'variables.keys()',
    'len(variables)',
    'variables[f"x{i}"]',
    'variables["a\\n"]',
    'variables["a" "b"]',
    'x = variables',
  ]) {
    it(`treats ${use} as dynamic use`, () => {
      assert.equal(keys(`def execute(variables):\n    ${use}\n    return ""\n`).dynamic, true);
    });
  }

  it('does not count the parameter itself as dynamic use', () => {
    assert.equal(keys('def execute(variables):\n    return variables["a"]\n').dynamic, false);
    assert.equal(keys('def execute(variables: dict) -> str:\n    return ""\n').dynamic, false);
  });

  it('checks keys against declared variables with did-you-mean candidates', () => {
    const facts = analyzePython(
      'def execute(variables):\n    return variables["nmae"] + variables.get("topic") + variables["zzz"]\n',
    );
    const p = checkVariableKeys(facts, ['name', 'topic', 'language']);
    assert.deepEqual(
      p.map((x) => [x.code, x.data]),
      [
        ['unknown-variable-key', { name: 'nmae', candidates: ['name'] }],
        ['unknown-variable-key', { name: 'zzz', candidates: [] }],
      ],
    );
    assert.match(p[0].message, /did you mean "name"/);
    assert.equal(checkVariableKeys(facts, ['nmae', 'topic', 'zzz']).length, 0);
  });

  it('matches names exactly (case and spaces are part of the name)', () => {
    const facts = analyzePython('def execute(variables):\n    return variables["Name"] + variables["my var"]\n');
    assert.deepEqual(
      checkVariableKeys(facts, ['name', 'my var']).map((p) => (p.data as { name: string }).name),
      ['Name'],
    );
  });
});

describe('variableKeyAt (completion context)', () => {
  const at = (text: string) => {
    const offset = text.indexOf('|');
    const src = text.replace('|', '');
    const k = variableKeyAt(src, offset);
    return k && { key: src.slice(k.start, k.end), prefix: k.prefix, quote: k.quote };
  };
  it('finds the key being typed, terminated or not', () => {
    assert.deepEqual(at('    x = variables["|'), { key: '', prefix: '', quote: '"' });
    assert.deepEqual(at('    x = variables["na|'), { key: 'na', prefix: 'na', quote: '"' });
    assert.deepEqual(at('    x = variables["na|me"]'), { key: 'name', prefix: 'na', quote: '"' });
    assert.deepEqual(at("    x = variables.get('to|pic', '')"), { key: 'topic', prefix: 'to', quote: "'" });
    assert.deepEqual(at('    x = variables [ "a|"]'), { key: 'a', prefix: 'a', quote: '"' });
    assert.deepEqual(at('    x = variables["a"] + variables["b|'), { key: 'b', prefix: 'b', quote: '"' });
    assert.deepEqual(at('    if "na|me" in variables:'), { key: 'name', prefix: 'na', quote: '"' });
  });
  it('ignores other strings', () => {
    assert.equal(at('    x = other["na|'), undefined);
    assert.equal(at('    x = variables.items("a|'), undefined);
    assert.equal(at('    x = "na|me"'), undefined);
    assert.equal(at('    x = variables["a"] + "b|'), undefined);
    assert.equal(at('    x = variables[|"a"]'), undefined);
  });
});

describe('imports', () => {
  it('collects modules with ranges, relative and guarded flags', () => {
    const src = [
      'import os, yaml as y',
      'import google.protobuf.message',
      'from PIL import Image',
      'from . import sibling',
      'from .pkg.mod import x',
      'try:',
      '    import ujson as json',
      'except ImportError:',
      '    import json',
      'try:',
      '    import orjson',
      'except (ValueError, ModuleNotFoundError):',
      '    orjson = None',
      'try:',
      '    import regex',
      'except ValueError:',
      '    pass',
      'def execute(variables):',
      '    import requests',
      '    return ""',
      '',
    ].join('\n');
    const f = analyzePython(src);
    assert.deepEqual(
      f.imports.map((i) => [i.module, src.slice(i.start, i.end), i.relative, i.guarded]),
      [
        ['os', 'os', false, false],
        ['yaml', 'yaml', false, false],
        ['google.protobuf.message', 'google.protobuf.message', false, false],
        ['PIL', 'PIL', false, false],
        ['.', '.', true, false],
        ['.pkg.mod', '.pkg.mod', true, false],
        ['ujson', 'ujson', false, true],
        ['json', 'json', false, false],
        ['orjson', 'orjson', false, true],
        ['regex', 'regex', false, false],
        ['requests', 'requests', false, false],
      ],
    );
  });
});
