// The execute contract: missing-execute, execute-signature, execute-async, execute-redefined,
// execute-returns-non-string; and the outline facts (top-level functions).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzePython } from '../../server/src/service/python/index';

/** The execute contract's problems (syntax and the name rules have their own tests). */
const OTHER_RULES = new Set(['python-syntax', 'undefined-name', 'unused-import', 'unused-local']);

function codes(src: string): string[] {
  return analyzePython(src)
    .problems.filter((p) => !OTHER_RULES.has(p.code))
    .map((p) => `${p.code} ${JSON.stringify(src.slice(p.start, p.end))}`);
}

describe('execute contract', () => {
  it('accepts the canonical form', () => {
    assert.deepEqual(codes('def execute(variables):\n    return "hi " + variables["name"]\n'), []);
  });

  it('reports a missing execute at offset 0 (the whole value)', () => {
    const p = analyzePython('def run(variables):\n    return ""\n').problems;
    assert.deepEqual(
      p.map((x) => [x.code, x.start, x.end]),
      [['missing-execute', 0, 0]],
    );
    assert.match(analyzePython('').problems[0].message, /def execute\(variables\)/);
  });

  it('says when execute exists but not at the top level', () => {
    const p = analyzePython('class Tool:\n    def execute(self, variables):\n        return ""\n').problems;
    assert.equal(p[0].code, 'missing-execute');
    assert.match(p[0].message, /top level/);
  });

  it('accepts execute bound by assignment or import (not checkable)', () => {
    assert.deepEqual(codes('def run(variables):\n    return ""\nexecute = run\n'), []);
    assert.deepEqual(codes('from tools import run as execute\n'), []);
  });

  it('does not report missing-execute over a syntax error', () => {
    assert.deepEqual(
      analyzePython('def execute(variables)\n    return ""\n').problems.map((p) => p.code),
      ['python-syntax'],
    );
  });

  for (const [sig, why] of [
    ['()', 'no parameters'],
    ['(v)', "named 'v'"],
    ['(variables=None)', 'default value'],
    ['(variables, extra)', '2 parameters'],
    ['(*variables)', '*args'],
    ['(**variables)', '*args, **kwargs'],
    ['(*, variables)', 'keyword-only'],
    ['(variables, /)', 'positional-only'],
    ['(self, variables)', '2 parameters'],
  ]) {
    it(`flags execute${sig}`, () => {
      const src = `def execute${sig}:\n    return ""\n`;
      const p = analyzePython(src).problems.filter((x) => x.code === 'execute-signature');
      assert.equal(p.length, 1, JSON.stringify(analyzePython(src).problems));
      assert.equal(src.slice(p[0].start, p[0].end), sig);
      assert.ok(p[0].message.includes(why), p[0].message);
    });
  }

  it('accepts an annotated signature', () => {
    assert.deepEqual(codes('def execute(variables: dict) -> str:\n    return ""\n'), []);
  });

  it('flags async execute at the async keyword', () => {
    assert.deepEqual(codes('async def execute(variables):\n    return ""\n'), ['execute-async "async"']);
  });

  it('flags a redefinition at the second name', () => {
    assert.deepEqual(codes('def execute(variables):\n    return ""\n\ndef execute(variables):\n    return "x"\n'), [
      'execute-redefined "execute"',
    ]);
    const src = 'def execute(variables):\n    return ""\ndef execute(variables):\n    return ""\n';
    const p = analyzePython(src).problems[0];
    assert.equal(p.start, src.lastIndexOf('execute'));
  });

  it('flags returns of non-string literals, bare returns and tuples', () => {
    const src = [
      'def execute(variables):',
      '    if variables["a"]:',
      '        return 1',
      '    if variables["b"]:',
      '        return None',
      '    if variables["c"]:',
      '        return [1]',
      '    if variables["d"]:',
      '        return {"a": 1}',
      '    if variables["e"]:',
      '        return',
      '    if variables["f"]:',
      '        return True',
      '    if variables["g"]:',
      '        return 1, 2',
      '    if variables["h"]:',
      "        return b'x'",
      '    if variables["i"]:',
      '        return (3)',
      '    return str(variables)',
      '',
    ].join('\n');
    assert.deepEqual(codes(src), [
      'execute-returns-non-string "return 1"',
      'execute-returns-non-string "return None"',
      'execute-returns-non-string "return [1]"',
      'execute-returns-non-string "return {\\"a\\": 1}"',
      'execute-returns-non-string "return"',
      'execute-returns-non-string "return True"',
      'execute-returns-non-string "return 1, 2"',
      'execute-returns-non-string "return b\'x\'"',
      'execute-returns-non-string "return (3)"',
    ]);
  });

  it('ignores returns of nested functions and lambdas', () => {
    const src =
      'def execute(variables):\n    def helper():\n        return 1\n    f = lambda: None\n    return str(helper())\n';
    assert.deepEqual(codes(src), []);
  });

  it('flags falling off the end, at the name', () => {
    assert.deepEqual(codes('def execute(variables):\n    print(variables)\n'), [
      'execute-returns-non-string "execute"',
    ]);
    assert.deepEqual(codes('def execute(variables):\n    if variables:\n        return "a"\n'), [
      'execute-returns-non-string "execute"',
    ]);
    assert.deepEqual(codes('def execute(variables):\n    for x in variables:\n        return "a"\n'), [
      'execute-returns-non-string "execute"',
    ]);
  });

  it('knows the statements that end every path', () => {
    for (const body of [
      '    if a:\n        return "a"\n    elif b:\n        return "b"\n    else:\n        raise ValueError()\n',
      '    try:\n        return "a"\n    except Exception as e:\n        return str(e)\n',
      '    try:\n        x = 1\n    except Exception:\n        raise\n    else:\n        return "x"\n',
      '    try:\n        pass\n    finally:\n        return "f"\n',
      '    with open("f") as f:\n        return f.read()\n',
      '    while True:\n        return "a"\n',
      '    match variables["a"]:\n        case "x":\n            return "x"\n        case _:\n            return "y"\n',
      '    raise NotImplementedError\n',
      '    sys.exit(1)\n',
      '    x = 1; return "a"\n',
      '    return "a"\n    # trailing comment\n',
    ]) {
      assert.deepEqual(codes(`def execute(variables):\n${body}`), [], body);
    }
    assert.deepEqual(codes('def execute(variables):\n    while True:\n        break\n'), [
      'execute-returns-non-string "execute"',
    ]);
  });

  it('flags a generator execute', () => {
    assert.deepEqual(codes('def execute(variables):\n    yield "a"\n'), ['execute-returns-non-string "execute"']);
  });

  it('lists top-level functions and classes for the outline', () => {
    const src =
      '@dec\ndef a():\n    def inner():\n        pass\n\nclass B:\n    def m(self):\n        pass\n\nasync def c():\n    pass\n\ndef execute(variables):\n    return ""\n';
    const f = analyzePython(src).functions;
    assert.deepEqual(
      f.map((x) => [x.name, x.kind, x.async, src.slice(x.nameStart, x.nameEnd), src.slice(x.start, x.start + 4)]),
      [
        ['a', 'function', false, 'a', '@dec'],
        ['B', 'class', false, 'B', 'clas'],
        ['c', 'function', true, 'c', 'asyn'],
        ['execute', 'function', false, 'execute', 'def '],
      ],
    );
  });
});
