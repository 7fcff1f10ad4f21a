// The chunk walk and each of its visitors on its own: a visitor needs no other to do its part, and
// the walk tells visitors what it meets in CPython's order (what the checks depend on).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChunkFacts } from '../../server/src/service/python/chunkFacts';
import { compilerChecks } from '../../server/src/service/python/chunk/compilerChecks';
import { executeFacts } from '../../server/src/service/python/chunk/executeFacts';
import { futureImports } from '../../server/src/service/python/chunk/futureImports';
import { importFacts } from '../../server/src/service/python/chunk/importFacts';
import { nameBindings } from '../../server/src/service/python/chunk/nameBindings';
import { secretFacts } from '../../server/src/service/python/chunk/secretFacts';
import { symbolTable } from '../../server/src/service/python/chunk/symbolTable';
import { syntaxForms } from '../../server/src/service/python/chunk/syntaxForms';
import { variableFacts } from '../../server/src/service/python/chunk/variableFacts';
import type { AnyVisitor, Visitor } from '../../server/src/service/python/chunk/visitor';
import { ChunkWalk } from '../../server/src/service/python/chunk/walker';
import { parser } from '../../server/src/service/python/grammar/parser';
import { children } from '../../server/src/service/python/syntaxNodes';

/** The facts of `code` walked as one chunk by `visitors` alone. */
function walk(code: string, ...visitors: AnyVisitor[]): ChunkFacts {
  const nodes = children(parser.parse(code).topNode);
  return new ChunkWalk(code, 0, code, nodes, visitors).run();
}

/** The syntax error the chunk ends with, as `stage: message @ text`. */
function error(code: string, ...visitors: AnyVisitor[]): string | undefined {
  const f = walk(code, ...visitors);
  const e = f.parseError ?? f.compileError;
  return e && `${e.code === 'python-syntax' ? e.data.stage : e.code}: ${e.message} @ ${code.slice(e.start, e.end)}`;
}

describe('the chunk walk', () => {
  /** Records what the walk tells a visitor, in order. */
  const recorder: Visitor<string[]> = {
    start: () => [],
    enter: { VariableName: (log, n) => void log.push(`read ${n.from}`) },
    bind: (log, name, _flag, scope, how) =>
      void log.push(`bind ${name.from} in ${scope.kind}${how ? ` (${how})` : ''}`),
    enterScope: (log, scope) => void log.push(`enter ${scope.kind}`),
    leaveScope: (log, scope) => void log.push(`leave ${scope.kind}`),
    done: (log) => void logs.push(log),
  };
  const logs: string[][] = [];
  const order = (code: string) => {
    walk(code, recorder as AnyVisitor);
    return logs.pop();
  };

  it('walks a comprehension as CPython: first iterable outside, targets, conditions, then the element', () => {
    // y=0 . [=4 x=5 for y=11 in xs=16 if c=22 ]
    assert.deepEqual(order('y = [x for y in xs if c]'), [
      'bind 0 in module',
      'read 16',
      'enter comprehension',
      'bind 11 in comprehension (iteration)',
      'read 22',
      'read 5',
      'leave comprehension',
    ]);
  });

  it('binds `with … as` and `except … as` names where they stand, before the body after them', () => {
    assert.deepEqual(order('with a as b:\n    c\n'), ['read 5', 'bind 10 in module', 'read 10', 'read 17']);
    assert.deepEqual(order('try:\n    p\nexcept E as e:\n    q\n'), [
      'read 9',
      'read 18',
      'bind 23 in module',
      'read 23',
      'read 30',
    ]);
  });

  it('binds an assignment expression in the scope around the comprehension, parameters in the def', () => {
    assert.deepEqual(order('def f(a):\n    [b := 1 for _ in a]\n'), [
      'bind 4 in module',
      'enter function',
      'bind 6 in function',
      'read 31',
      'enter comprehension',
      'bind 26 in comprehension (iteration)',
      'bind 15 in function',
      'read 15',
      'leave comprehension',
      'leave function',
    ]);
  });
});

describe('visitors on their own', () => {
  it('syntaxForms: what the parser refuses that the grammar takes, nothing of the compiler', () => {
    assert.equal(
      error('x + 1 = 2\n', syntaxForms),
      "parser: cannot assign to expression here. Maybe you meant '==' instead of '='? @ x + 1",
    );
    assert.equal(
      error('from m import a,\n', syntaxForms),
      'parser: trailing comma not allowed without surrounding parentheses @ ,',
    );
    assert.equal(error('return 1\n', syntaxForms), undefined);
  });

  it('symbolTable: global and nonlocal rules, walrus scopes, module names handed on', () => {
    assert.equal(
      error('def f():\n    x = 1\n    global x\n', symbolTable),
      "symtable: name 'x' is assigned to before global declaration @ global x",
    );
    assert.equal(
      error('[y := 1 for y in z]\n', symbolTable),
      "symtable: assignment expression cannot rebind comprehension iteration variable 'y' @ y",
    );
    const names = walk('import os\nx = 1\nprint(x)\n', symbolTable).moduleNames!;
    assert.deepEqual([...names.keys()], ['os', 'x', 'print']);
    assert.equal(error('return 1\n', symbolTable), undefined);
  });

  it('compilerChecks: statements out of context, __debug__, nested blocks, except* exits', () => {
    assert.equal(error('return 1\n', compilerChecks), "compiler: 'return' outside function @ return 1");
    assert.equal(error('__debug__ = 1\n', compilerChecks), 'compiler: cannot assign to __debug__ @ __debug__');
    assert.equal(
      error('for x in y:\n    try:\n        pass\n    except* E:\n        break\n', compilerChecks),
      "compiler: 'break', 'continue' and 'return' cannot appear in an except* block @ break",
    );
    const deep =
      Array.from({ length: 21 }, (_, i) => `${'    '.repeat(i)}while x:\n`).join('') + `${'    '.repeat(21)}pass\n`;
    // CPython: at the 21st block, from its statement to its body.
    const e = walk(deep, compilerChecks).compileError!;
    assert.equal(e.message, 'too many statically nested blocks');
    assert.deepEqual(
      [e.start, deep.slice(e.start, e.end)],
      [deep.indexOf(`${'    '.repeat(20)}while`) + 80, 'while x'],
    );
    assert.equal(error('x = 1\n', compilerChecks), undefined);
  });

  it('futureImports: what the chunk starts with, and features CPython does not know', () => {
    const f = walk('"""doc"""\nfrom __future__ import annotations\n', futureImports);
    assert.equal(f.first, 'docstring');
    assert.deepEqual(f.futures, [{ start: 10, end: 44 }]);
    assert.equal(error('from __future__ import braces\n', futureImports), 'compiler: not a chance @ braces');
  });

  it('executeFacts: top-level definitions, execute checked, execute out of reach', () => {
    const f = walk(
      '@cache\ndef execute(variables):\n    return "x"\nclass A:\n    def execute(self): pass\n',
      executeFacts,
    );
    assert.deepEqual(
      f.functions.map((d) => `${d.kind} ${d.name} ${d.start}`),
      ['function execute 0', 'class A 46'],
    );
    assert.equal(f.executes.length, 1);
    assert.deepEqual(f.executes[0].problems, []);
    assert.equal(f.nestedExecute, true);
    assert.equal(walk('execute = run\n', executeFacts).boundExecute, true);
    const generator = walk('def execute(variables):\n    yield "x"\n', executeFacts).executes[0].problems;
    assert.deepEqual(
      generator.map((p) => p.code),
      ['execute-returns-non-string'],
    );
  });

  it('importFacts: modules, guarded inside a try that catches a failed import', () => {
    const f = walk(
      'try:\n    import yaml\nexcept ImportError:\n    yaml = None\nimport requests.adapters\n',
      importFacts,
    );
    assert.deepEqual(
      f.imports.map((i) => `${i.module} ${i.guarded}`),
      ['yaml true', 'requests.adapters false'],
    );
  });

  it('variableFacts: literal keys, and reads that hide them', () => {
    const f = walk('a = variables["City"]\nb = variables.get(\'Units\')\n', variableFacts);
    assert.deepEqual(
      f.keys.map((k) => k.name),
      ['City', 'Units'],
    );
    assert.equal(f.dynamicVariables, false);
    assert.equal(walk('for k in variables:\n    pass\n', variableFacts).dynamicVariables, true);
  });

  it('secretFacts: a credential by its name, once per literal', () => {
    const key = ['q8Zr3LmV0x', 'Tb7NcW2yKd5PfH9sJg4AeU'].join('');
    const code = `api_key = "${key}"\nconnect(token="${key}")\nc = {"password": "${key}"}\n`;
    const literals = [...code.matchAll(/"q8/g)].map((m) => m.index);
    assert.deepEqual(
      walk(code, secretFacts).secrets.map((s) => s.start),
      literals,
    );
    assert.deepEqual(walk('api_key = "<API_KEY>"\n', secretFacts).secrets, []);
  });

  it('nameBindings: what each scope binds and reads, resolved; a function decides its own unused names', () => {
    const code =
      'import os\nimport sys as system\ndef f(a):\n    import json\n    x = 1\n    b, c = a\n    return os.path, b\nprint(y)\n';
    const names = walk(code, nameBindings).names!;
    assert.deepEqual(
      names.bound.map((b) => `${b.name}${b.import ? ' (import)' : ''}`),
      ['os (import)', 'system (import)', 'f'],
    );
    assert.deepEqual(
      names.imports.map((i) => i.display),
      ['os', 'sys as system'],
    );
    assert.deepEqual(
      names.unusedImports.map((i) => i.display),
      ['json'],
    );
    assert.deepEqual(
      names.unusedLocals.map((l) => code.slice(l.start, l.end)),
      ['x'],
    );
    // Reads no function scope binds: the module's check decides them.
    assert.deepEqual(
      names.reads.map((r) => `${r.name}${r.deferred ? ' (deferred)' : ''}`),
      ['print', 'y', 'os (deferred)'],
    );
  });
});
