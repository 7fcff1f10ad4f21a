// undefined-name, unused-import and unused-local: pyflakes' scoping rules on small modules. Each report
// is written `rule:line:text` (the text the range covers). The pyflakes comparison on the standard
// library is in pythonNamesDifferential.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzePython, PythonDocument } from '../../server/src/service/python/index';

const NAME_RULES = new Set(['undefined-name', 'unused-import', 'unused-local']);

function reports(src: string): string[] {
  return analyzePython(src)
    .problems.filter((p) => NAME_RULES.has(p.code))
    .map((p) => `${p.code}:${src.slice(0, p.start).split('\n').length}:${src.slice(p.start, p.end)}`);
}

const EXEC = 'def execute(variables):\n    return ""\n';

// [what, source, expected reports]
const CASES: [string, string, string[]][] = [
  ['a misspelt name', 'def execute(variables):\n    return nmae\n', ['undefined-name:2:nmae']],
  ['builtins and module attributes', 'print(len(__name__), __file__, __doc__)\n' + EXEC, []],
  ['a module-level read before the binding', 'print(x)\nx = 1\n' + EXEC, ['undefined-name:1:x']],
  ['a function reads a module name bound after it', 'def f():\n    return y\ny = 1\n' + EXEC, []],
  [
    'parameters, defaults and annotations',
    'def f(a: int = 0, *args, b=1, **kw) -> int:\n    return a + b + len(args) + len(kw)\n' + EXEC,
    [],
  ],
  [
    'annotations name later classes under from __future__ import annotations',
    'from __future__ import annotations\ndef f(a: Later) -> Later:\n    return a\nclass Later:\n    pass\n' + EXEC,
    [],
  ],
  [
    'annotations run at definition time without it',
    'def f(a: Later):\n    return a\nclass Later:\n    pass\n' + EXEC,
    ['undefined-name:1:Later'],
  ],
  [
    'a default runs at definition time',
    'def f(a=later):\n    return a\nlater = 1\n' + EXEC,
    ['undefined-name:1:later'],
  ],
  [
    'a class body is not visible to its methods',
    'class A:\n    size = 1\n    def m(self):\n        return size\n' + EXEC,
    ['undefined-name:4:size'],
  ],
  [
    'a class body sees its own names, and __qualname__',
    'class A:\n    a = 1\n    b = a + 1\n    n = __qualname__\n' + EXEC,
    [],
  ],
  ['__class__ inside a method', 'class A:\n    def m(self):\n        return __class__\n' + EXEC, []],
  ['comprehension targets are local to it', '[i for i in range(3)]\nprint(i)\n' + EXEC, ['undefined-name:2:i']],
  [
    'a walrus in a comprehension binds outside it',
    'if any((hit := n) > 1 for n in [1, 2]):\n    print(hit)\n' + EXEC,
    [],
  ],
  [
    'global binds module-wide',
    'def f():\n    global counter\n    counter = 1\ndef g():\n    return counter\n' + EXEC,
    [],
  ],
  [
    'nonlocal reads keep the enclosing local used',
    'def f():\n    total = 0\n    def add():\n        nonlocal total\n        total += 1\n    add()\n    return add\n' +
      EXEC,
    [],
  ],
  ['a star import hides undefined names', 'from os.path import *\nprint(join)\n' + EXEC, []],
  ['a NameError handler guards its body', 'try:\n    unicode\nexcept NameError:\n    unicode = str\n' + EXEC, []],
  ['except … as binds the name', 'try:\n    pass\nexcept ValueError as err:\n    print(err)\n' + EXEC, []],
  [
    'with … as and for targets bind',
    'with open("f") as fh:\n    for a, (b, *c) in fh:\n        print(a, b, c)\n' + EXEC,
    [],
  ],
  [
    'match patterns bind their captures',
    'def execute(variables):\n    match variables:\n        case {"k": value, **rest} if value:\n            return str(rest)\n        case [first, *others] | (first, *others):\n            return str(first) + str(others)\n        case Point(x=px) as whole:\n            return str(px) + str(whole)\n    return ""\n',
    ['undefined-name:7:Point'],
  ],
  ['keyword arguments are not reads', 'print(sep="", end="")\n' + EXEC, []],
  ['lambda parameters', 'f = lambda a, b=1: a + b\nprint(f)\n' + EXEC, []],
  [
    'f-string fields are reads',
    'def execute(variables):\n    return f"{missing!r:>{width}}"\nwidth = 3\n',
    ['undefined-name:2:missing'],
  ],
  ['decorators are reads', '@decorate\ndef f():\n    pass\n' + EXEC, ['undefined-name:1:decorate']],
  ['del of an undefined name', 'del ghost\n' + EXEC, ['undefined-name:1:ghost']],
  ['an unused import', 'import os\nimport json\nprint(json)\n' + EXEC, ['unused-import:1:os']],
  ['a dotted import used by its root', 'import os.path\nprint(os.sep)\n' + EXEC, []],
  ['an import used only in a function', 'import re\ndef f():\n    return re\n' + EXEC, []],
  ['an import listed in __all__', 'from json import dumps\n__all__ = ["dumps"]\n' + EXEC, []],
  ['a re-export with as', 'from json import dumps as dumps\n' + EXEC, []],
  ['a future import', 'from __future__ import annotations\n' + EXEC, []],
  [
    'an import a fallback rebinds is not reported',
    'try:\n    import yaml\nexcept ImportError:\n    yaml = None\n' + EXEC,
    [],
  ],
  [
    'an unused import inside a function',
    'def execute(variables):\n    import math\n    return ""\n',
    ['unused-import:2:math'],
  ],
  ['one name of an import list', 'from os import sep, getcwd\nprint(sep)\n' + EXEC, ['unused-import:1:getcwd']],
  [
    'an unused local',
    'def execute(variables):\n    result = compute()\n    return ""\ndef compute():\n    return 1\n',
    ['unused-local:2:result'],
  ],
  ['tuple unpacking is not an unused local', 'def execute(variables):\n    a, b = 1, 2\n    return str(a)\n', []],
  [
    'a local read by a nested function',
    'def execute(variables):\n    x = 1\n    def g():\n        return x\n    return str(g())\n',
    [],
  ],
  ['locals() reads every local', 'def execute(variables):\n    x = 1\n    return str(locals())\n', []],
  ['augmented assignment reads', 'def execute(variables):\n    n = 0\n    n += 1\n    return ""\n', []],
];

describe('names as pyflakes checks them', () => {
  for (const [what, src, expected] of CASES) it(what, () => assert.deepEqual(reports(src), expected, src));

  it('nothing is reported while the module has a syntax error', () => {
    const src = 'import os\ndef execute(variables):\n    return (nmae\n';
    assert.deepEqual(reports(src), []);
    assert.ok(analyzePython(src).problems.some((p) => p.code === 'python-syntax'));
  });

  it('says what to do, and offers the closest name', () => {
    const [p] = analyzePython('def execute(variables):\n    return lenn(variables)\n').problems;
    assert.equal(p.code, 'undefined-name');
    assert.equal(
      p.message,
      "name 'lenn' is not defined, so this line raises NameError: did you mean 'len'? Define or import it.",
    );
    assert.deepEqual(p.code === 'undefined-name' && p.data.candidates, ['len']);
  });

  it('removing an unused import deletes its line, or its name and a comma', () => {
    const removeOf = (src: string) => {
      const p = analyzePython(src).problems.find((x) => x.code === 'unused-import');
      assert.ok(p?.code === 'unused-import', src);
      return src.slice(0, p.data.remove.start) + src.slice(p.data.remove.end);
    };
    assert.equal(removeOf('import os\n' + EXEC), EXEC);
    assert.equal(removeOf('import os; x = 1\nprint(x)\n' + EXEC), 'x = 1\nprint(x)\n' + EXEC);
    assert.equal(
      removeOf('from os import sep, getcwd\nprint(sep)\n' + EXEC),
      'from os import sep\nprint(sep)\n' + EXEC,
    );
    assert.equal(
      removeOf('from os import getcwd, sep\nprint(sep)\n' + EXEC),
      'from os import sep\nprint(sep)\n' + EXEC,
    );
  });

  it('an edit re-checks the module names from reused chunks', () => {
    const doc = new PythonDocument();
    const before = 'import os\n' + EXEC;
    assert.deepEqual(
      doc.update(before).problems.map((p) => p.code),
      ['unused-import'],
    );
    const after = before + 'print(os.sep)\n';
    assert.deepEqual(doc.update(after).problems, []);
    assert.equal(doc.lastWork.analysed, 1, 'only the new statement was analysed');
  });
});
