// python-syntax fixtures: what CPython 3.11 rejects (line and message), and valid code that an
// error-tolerant grammar or a naive checker gets wrong. The differential test covers the breadth.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  analyzePython,
  firstCPythonError,
  PythonDocument,
  type PyProblem,
} from '../../server/src/service/python/index';
import { lex } from '../../server/src/service/python/lexer';

const EXEC = '\ndef execute(variables):\n    return ""\n';

function lineOf(src: string, offset: number): number {
  return src.slice(0, offset).split(/\r\n|\r|\n/).length;
}

function syntax(src: string): { line: number; message: string; text: string } | undefined {
  const p = firstCPythonError(analyzePython(src).problems);
  return p && { line: lineOf(src, p.start), message: p.message, text: src.slice(p.start, p.end) };
}

function syntaxAll(src: string): PyProblem[] {
  return analyzePython(src).problems.filter((p) => p.code === 'python-syntax');
}

// [source, line CPython reports, a fragment of CPython's message]
const INVALID: [string, number, string][] = [
  ['def f()\n    pass\n', 1, "expected ':'"],
  ['if x\n    pass\n', 1, "expected ':'"],
  ['x = (1,\ny = 2\n', 1, "'(' was never closed"],
  ['x = [1, 2)\n', 1, "closing parenthesis ')' does not match opening parenthesis '['"],
  ['x = 1)\n', 1, "unmatched ')'"],
  ['x = 1\n    y = 2\n', 2, 'unexpected indent'],
  ['if x:\n    pass\n   y = 1\n', 3, 'unindent does not match any outer indentation level'],
  ['if x:\n\tpass\n        y = 1\n', 3, 'inconsistent use of tabs and spaces in indentation'],
  ['if x:\ny = 1\n', 2, "expected an indented block after 'if' statement on line 1"],
  ['def f():\n', 1, 'expected an indented block after function definition on line 1'],
  ["x = 'abc\n", 1, 'unterminated string literal (detected at line 1)'],
  ["x = '''abc\n\n", 1, 'unterminated triple-quoted string literal (detected at line 2)'],
  ['x = 1abc\n', 1, 'invalid decimal literal'],
  ['x = 0777\n', 1, 'leading zeros in decimal integer literals'],
  ['x = 0b12\n', 1, "invalid digit '2' in binary literal"],
  ['x = 1_\n', 1, 'invalid decimal literal'],
  ['x = €\n', 1, "invalid character '€' (U+20AC)"],
  ['x = \ufeff1\n', 1, 'invalid non-printable character U+FEFF'],
  ['x = 1 \\ y\n', 1, 'unexpected character after line continuation character'],
  ['x = $\n', 1, 'invalid syntax'],
  ['x = 1 <> 2\n', 1, 'invalid syntax'],
  ["print 'x'\n", 1, "Missing parentheses in call to 'print'"],
  ['return return x\n', 1, 'invalid syntax'],
  ['f() = 1\n', 1, 'cannot assign to function call'],
  ['1 = x\n', 1, 'cannot assign to literal'],
  ['None = 1\n', 1, 'cannot assign to None'],
  ['a + 1 = 2\n', 1, 'cannot assign to expression'],
  ['a if b else c = 1\n', 1, 'cannot assign to conditional expression'],
  ['[x for x in y] = 1\n', 1, 'cannot assign to list comprehension'],
  ['for f() in x:\n    pass\n', 1, 'cannot assign to function call'],
  ['with x as f():\n    pass\n', 1, 'cannot assign to function call'],
  ['del f()\n', 1, 'cannot delete function call'],
  ['f() += 1\n', 1, "'function call' is an illegal expression for augmented assignment"],
  ['(a, b) += 1\n', 1, "'tuple' is an illegal expression for augmented assignment"],
  ['a, b: int = 1\n', 1, 'only single target (not tuple) can be annotated'],
  ['*a = 1\n', 1, 'starred assignment target must be in a list or tuple'],
  ['a, *b, *c = 1\n', 1, 'multiple starred expressions in assignment'],
  ['x = *a\n', 1, "can't use starred expression here"],
  ['(a.b := 1)\n', 1, 'cannot use assignment expressions with attribute'],
  ['x := 1\n', 1, 'invalid syntax'],
  ['f(a=1, b)\n', 1, 'positional argument follows keyword argument'],
  ['f(**k, *a)\n', 1, 'iterable argument unpacking follows keyword argument unpacking'],
  ['f(a=1, a=2)\n', 1, 'keyword argument repeated: a'],
  ['f(x for x in y, 1)\n', 1, 'Generator expression must be parenthesized'],
  ['def f(a=1, b):\n    pass\n', 1, 'non-default argument follows default argument'],
  ['def f(a, a):\n    pass\n', 1, "duplicate argument 'a' in function definition"],
  ['def f(*):\n    pass\n', 1, 'named arguments must follow bare *'],
  ['def f(**k, a):\n    pass\n', 1, 'arguments cannot follow var-keyword argument'],
  ['def f(/, a):\n    pass\n', 1, 'at least one argument must precede /'],
  ['return 1\n', 1, "'return' outside function"],
  ['class A:\n    return 1\n', 2, "'return' outside function"],
  ['x = yield\n', 1, "'yield' outside function"],
  ['await x\n', 1, "'await' outside function"],
  ['def f():\n    await x\n', 2, "'await' outside async function"],
  ['def f():\n    async with x:\n        pass\n', 2, "'async with' outside async function"],
  ['def f():\n    x = [(yield) for i in y]\n', 2, "'yield' inside list comprehension"],
  ['async def f():\n    yield 1\n    return 2\n', 3, "'return' with value in async generator"],
  ['break\n', 1, "'break' outside loop"],
  ['while x:\n    pass\nelse:\n    continue\n', 4, "'continue' not properly in loop"],
  ['nonlocal x\n', 1, 'nonlocal declaration not allowed at module level'],
  // global/nonlocal against what the scope did before (CPython's symtable), reported on the statement.
  ['def f():\n    x = 1\n    global x\n', 3, "name 'x' is assigned to before global declaration"],
  // At module level, across top-level statements (analysed apart).
  ['x = 1\n\n\ndef f():\n    pass\n\n\nglobal x\n', 8, "name 'x' is assigned to before global declaration"],
  ['print(x)\nglobal x\n', 2, "name 'x' is used prior to global declaration"],
  ['def f(a=x):\n    pass\nglobal x\n', 3, "name 'x' is used prior to global declaration"],
  ['x: int = 1\nglobal x\n', 2, "annotated name 'x' can't be global"],
  ['class C:\n    pass\nglobal C\n', 3, "name 'C' is assigned to before global declaration"],
  ['x = 1; global x\n', 1, "name 'x' is assigned to before global declaration"],
  // `:=` as a call's argument binds as it does anywhere.
  ['def g():\n    f(x := 1)\n    global x\n', 3, "name 'x' is assigned to before global declaration"],
  [
    'counter = 0\ndef f():\n    counter += 1\n    global counter\n',
    4,
    "name 'counter' is assigned to before global declaration",
  ],
  ['def f():\n    print(x)\n    global x\n', 3, "name 'x' is used prior to global declaration"],
  ['def f():\n    x.y = 1\n    global x\n', 3, "name 'x' is used prior to global declaration"],
  ['def f():\n    print(f"{x}")\n    global x\n', 3, "name 'x' is used prior to global declaration"],
  ['def f(x):\n    global x\n', 2, "name 'x' is parameter and global"],
  ['def f(*, x):\n    nonlocal x\n', 2, "name 'x' is parameter and nonlocal"],
  ['def f():\n    x: int\n    global x\n', 3, "annotated name 'x' can't be global"],
  ['def f():\n    global x\n    x: int = 1\n', 3, "annotated name 'x' can't be global"],
  ['class C:\n    x = 1\n    global x\n', 3, "name 'x' is assigned to before global declaration"],
  ['def f():\n    for x in y:\n        pass\n    global x\n', 4, "name 'x' is assigned to before global declaration"],
  ['def f():\n    del x\n    global x\n', 3, "name 'x' is assigned to before global declaration"],
  ['def f():\n    with a as x:\n        pass\n    global x\n', 4, "name 'x' is assigned to before global declaration"],
  [
    'def f():\n    try:\n        pass\n    except E as x:\n        pass\n    global x\n',
    6,
    "name 'x' is assigned to before global declaration",
  ],
  [
    'def f():\n    match y:\n        case [1, *x]:\n            pass\n    global x\n',
    5,
    "name 'x' is assigned to before global declaration",
  ],
  ['def f():\n    [(x := 1) for i in y]\n    global x\n', 3, "name 'x' is assigned to before global declaration"],
  ['def f():\n    def x():\n        pass\n    global x\n', 4, "name 'x' is assigned to before global declaration"],
  [
    'def g():\n    x = 1\n    def f():\n        x = 2\n        nonlocal x\n',
    5,
    "name 'x' is assigned to before nonlocal declaration",
  ],
  ['def f():\n    nonlocal x\n', 2, "no binding for nonlocal 'x' found"],
  ['class C:\n    x = 1\n    def f(self):\n        nonlocal x\n', 4, "no binding for nonlocal 'x' found"],
  ['def g():\n    global x\n    def f():\n        nonlocal x\n', 4, "no binding for nonlocal 'x' found"],
  ['def g():\n    x = 1\n    def f():\n        global x\n        nonlocal x\n', 4, "name 'x' is nonlocal and global"],
  ['def f():\n    from os import *\n', 2, 'import * only allowed at module level'],
  ["x = b'a' 'b'\n", 1, 'cannot mix bytes and nonbytes literals'],
  ["x = b'é'\n", 1, 'bytes can only contain ASCII literal characters'],
  ["x = f'{}'\n", 1, 'f-string: empty expression not allowed'],
  ["x = f'{a!z}'\n", 1, 'f-string: invalid conversion character'],
  ["x = f'}'\n", 1, "f-string: single '}' is not allowed"],
  ["x = f'{a\\n}'\n", 1, 'f-string expression part cannot include a backslash'],
  ["x = f'{a#}'\n", 1, "f-string expression part cannot include '#'"],
  ['x = f"{x["a"]}"\n', 1, ''], // valid only from Python 3.12
  ["x = '\\x4'\n", 1, 'truncated \\xXX escape'],
  ['try:\n    pass\nexcept:\n    pass\nexcept ValueError:\n    pass\n', 3, "default 'except:' must be last"],
  [
    'import os\nfrom __future__ import annotations\n',
    2,
    'from __future__ imports must occur at the beginning of the file',
  ],
  // The future rule is the compiler's: a later parser error is the one reported.
  ['x = 1\nfrom __future__ import annotations\nif x\n    pass\n', 3, "expected ':'"],
  ['from __future__ import braces\n', 1, 'not a chance'],
  ['from __future__ import nope\n', 1, 'future feature nope is not defined'],
  ['type X = int\n', 1, 'Python 3.12'],
  ['def f[T](x):\n    pass\n', 1, 'Python 3.12'],
  ['import a.b as c.d\n', 1, 'invalid syntax'],
  ['x = 1 if 2\n', 1, ''],
  ['def f(x y):\n    pass\n', 1, ''],
  ['import email..policy\n', 1, ''],
  // A tokenizer error wins over an earlier parser error, as in CPython.
  ['x = = 1\ny = "abc\n', 2, 'unterminated string literal'],
  // `:=` in comprehensions (CPython's symtable).
  ['[i for i in (j := a)]\n', 1, 'assignment expression cannot be used in a comprehension iterable expression'],
  ['[i for i in [(j := 1) for z in w]]\n', 1, 'cannot be used in a comprehension iterable expression'],
  ['[i := 0 for i in a]\n', 1, "assignment expression cannot rebind comprehension iteration variable 'i'"],
  ['def f():\n    [[(i := 0) for j in a] for i in b]\n', 2, "cannot rebind comprehension iteration variable 'i'"],
  [
    '[i for i in a if (j := 1) for j in b]\n',
    1,
    "comprehension inner loop cannot rebind assignment expression target 'j'",
  ],
  [
    'class C:\n    [(j := 1) for i in a]\n',
    2,
    'assignment expression within a comprehension cannot be used in a class body',
  ],
  // `__debug__` is a constant.
  ['__debug__ = 1\n', 1, 'cannot assign to __debug__'],
  ['f(__debug__ := 1)\n', 1, 'cannot assign to __debug__'],
  ['[y for y in f(1, x := 2)]\n', 1, 'assignment expression cannot be used in a comprehension iterable expression'],
  ['del __debug__\n', 1, 'cannot delete __debug__'],
  ['obj.__debug__ = 1\n', 1, 'cannot assign to __debug__'],
  ['def f(*, __debug__):\n    pass\n', 1, 'cannot assign to __debug__'],
  ['from m import x as __debug__\n', 1, 'cannot assign to __debug__'],
  ['f(__debug__=1)\n', 1, 'cannot assign to __debug__'],
  // try forms.
  [
    'try:\n    pass\nexcept A:\n    pass\nexcept* B:\n    pass\n',
    5,
    "cannot have both 'except' and 'except*' on the same 'try'",
  ],
  ['try:\n    pass\nexcept*:\n    pass\n', 3, 'expected one or more exception types'],
  ['try:\n    pass\nexcept A, B:\n    pass\n', 3, 'multiple exception types must be parenthesized'],
  ['try:\n    x = 1\n\ny = 2\n', 4, "expected 'except' or 'finally' block"],
  [
    'for x in a:\n    try:\n        pass\n    except* A:\n        break\n',
    5,
    "'break', 'continue' and 'return' cannot appear in an except* block",
  ],
  ['def f():\n    try:\n        pass\n    except* A:\n        return 1\n', 5, 'cannot appear in an except* block'],
  // An asynchronous comprehension is reported where it opens.
  [
    'def f():\n    [i for i in a\n     async for b in c]\n',
    2,
    'asynchronous comprehension outside of an asynchronous function',
  ],
  ['def f():\n    [[x async for x in z] for y in w]\n', 2, 'asynchronous comprehension outside'],
  // match patterns (CPython's parser and compiler).
  [
    'match x:\n    case y:\n        pass\n    case 1:\n        pass\n',
    2,
    "name capture 'y' makes remaining patterns unreachable",
  ],
  ['match x:\n    case _ | 1:\n        pass\n', 2, 'wildcard makes remaining patterns unreachable'],
  ['match x:\n    case [a, a]:\n        pass\n', 2, "multiple assignments to name 'a' in pattern"],
  ['match x:\n    case [a] | [b]:\n        pass\n', 2, 'alternative patterns bind different names'],
  ['match x:\n    case {0: a, False: b}:\n        pass\n', 2, 'mapping pattern checks duplicate key (False)'],
  ['match x:\n    case {1: a, 1.0: b}:\n        pass\n', 2, 'mapping pattern checks duplicate key (1.0)'],
  ['match x:\n    case C(a=1, a=2):\n        pass\n', 2, 'attribute name repeated in class pattern: a'],
  ['match x:\n    case C(a=1, b):\n        pass\n', 2, 'positional patterns follow keyword patterns'],
  ['match x:\n    case [*a, *b]:\n        pass\n', 2, 'multiple starred names in sequence pattern'],
  ['match x:\n    case 1 + 2:\n        pass\n', 2, 'imaginary number required in complex literal'],
  ['match x:\n    case 1 as _:\n        pass\n', 2, "cannot use '_' as a target"],
  ['match x:\n    case {**rest, "k": v}:\n        pass\n', 2, 'invalid syntax'],
  // Forms the grammar lets through.
  ['from m import a,\n', 1, 'trailing comma not allowed without surrounding parentheses'],
  ['import (os, sys)\n', 1, 'invalid syntax'],
  ['raise X, Y\n', 1, 'invalid syntax'],
  ['obj.None = 1\n', 1, 'invalid syntax'],
  ['x: int = y = 1\n', 1, 'invalid syntax'],
  ['[*x for x in xs]\n', 1, 'iterable unpacking cannot be used in comprehension'],
  ['{**d for d in ds}\n', 1, 'dict unpacking cannot be used in dict comprehension'],
  ['*a\n', 1, "can't use starred expression here"],
  ['x = (*b)\n', 1, 'cannot use starred expression here'],
  ['f(x for x in y,)\n', 1, 'Generator expression must be parenthesized'],
  ['f(a = x for x in y)\n', 1, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"],
  ['class C(x for x in y):\n    pass\n', 1, 'invalid syntax'],
  ['class C(a, x for x in y):\n    pass\n', 1, 'Generator expression must be parenthesized'],
  ['f(a=1, x for x in y)\n', 1, 'Generator expression must be parenthesized'],
  ['def f(**kwargs, /):\n    pass\n', 1, 'arguments cannot follow var-keyword argument'],
  ['async def f():\n    await await x\n', 2, 'invalid syntax'],
  // CPython's wording: escapes with their positions, f-string fields, mistyped comparisons.
  [
    "x = '\\x'\n",
    1,
    "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: truncated \\xXX escape",
  ],
  ["x = 'ab\\N{'\n", 1, "codec can't decode bytes in position 2-4: malformed \\N character escape"],
  ["x = b'\\x1'\n", 1, '(value error) invalid \\x escape at position 0'],
  ["x = f'{!r}'\n", 1, "f-string: expression required before '!'"],
  ["x = f'{ =}'\n", 1, "f-string: expression required before '='"],
  ["x = f'{=y}'\n", 1, "f-string: expression required before '='"],
  // `=` ends a field's expression, which CPython compiles (in parentheses) before it looks for the '}'.
  ["x = f'{x=y}'\n", 1, "f-string: expecting '}'"],
  ["x = f'{a b=y}'\n", 1, 'f-string: invalid syntax. Perhaps you forgot a comma?'],
  ['x = f"""\n{\n6\n0="""\n', 3, 'f-string: invalid syntax. Perhaps you forgot a comma?'],
  ['f() = 1\n', 1, "cannot assign to function call here. Maybe you meant '==' instead of '='?"],
  ['if x.a = 3:\n    pass\n', 1, "cannot assign to attribute here. Maybe you meant '==' instead of '='?"],
  ['if x = 3:\n    pass\n', 1, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"],
  ["f-string: single '}' is not allowed\n", 1, 'illegal target for annotation'],
  ["x = f'{lambda x: x}'\n", 1, 'f-string: invalid syntax'],
  ["x = f'{*a}'\n", 1, 'f-string: cannot use starred expression here'],
  ["x = f'{,}'\n", 1, 'f-string: invalid syntax'],
  ['def f(a, *b=3):\n    pass\n', 1, 'var-positional argument cannot have default value'],
  ['def f(a, d=, c):\n    pass\n', 1, 'expected default value expression'],
  ['def f(x, (y, z)):\n    pass\n', 1, 'Function parameters cannot be parenthesized'],
  ['lambda x, (y, z): 1\n', 1, 'Lambda expression parameters cannot be parenthesized'],
  ['def f:\n    pass\n', 1, "expected '('"],
  ['f(x.y=1)\n', 1, 'expression cannot contain assignment, perhaps you meant "=="?'],
  ['x = [1, 2 3]\n', 1, 'invalid syntax. Perhaps you forgot a comma?'],
  ['x = [a, b for a, b in c]\n', 1, 'did you forget parentheses around the comprehension target?'],
  ['x = 1 if y\n', 1, "expected 'else' after 'if' expression"],
  ['x = {1: *a}\n', 1, 'cannot use a starred expression in a dictionary value'],
  ['try:\n    pass\nexcept A, B, C as e:\n    pass\n', 3, 'multiple exception types must be parenthesized'],
  ['yield = 1\n', 1, 'assignment to yield expression not possible'],
  ['(*x), y = 1, 2\n', 1, 'cannot use starred expression here'],
  ['del *x\n', 1, 'cannot delete starred'],
  ['def f(/):\n    pass\n', 1, 'invalid syntax'],
  // The symbol table's errors come before the compiler's, whatever their order in the file.
  ['del __debug__\n[x := 1 for x in a]\n', 2, "cannot rebind comprehension iteration variable 'x'"],
  ['def f():\n    nonlocal x\n    x: int\n', 3, "annotated name 'x' can't be nonlocal"],
  // A function may nest 20 loops, with and try statements.
  [
    Array.from({ length: 21 }, (_, i) => `${' '.repeat(i)}while x:\n`).join('') + ' '.repeat(21) + 'pass\n',
    21,
    'too many statically nested blocks',
  ],
  ['if x:\n    y = 1\n  \\\n  z = 1\n', 4, 'unindent does not match any outer indentation level'],
];

// Valid in CPython 3.11; several are outside what @lezer/python 1.1 or tree-sitter-python accept.
const VALID = [
  'def f():\n    yield\n',
  'x = 1.\ny = 1.e5\nz = 0_0\nw = 1if 1 else 2\n',
  'with open(a) as (b, c), d as e.f:\n    pass\n',
  'with (open(a) as b,\n      open(c) as d):\n    pass\n',
  'with (a, b):\n    pass\n',
  'f = lambda a, /, b: a\ng = lambda a,: 0\n',
  'match x:\n    case {}:\n        pass\n    case C():\n        pass\n    case [a, *rest]:\n        pass\n    case _:\n        pass\n',
  'match w := x,:\n    case y as v,:\n        pass\n',
  'from typing import Generic, TypeVarTuple\nTs = TypeVarTuple("Ts")\nclass C(Generic[*Ts]):\n    pass\n',
  'def f(*args: *Ts):\n    pass\n',
  'for x in *a, *b:\n    pass\n',
  'print >> sys.stderr, "message"\n',
  '@(lambda f: f)\ndef g():\n    pass\n',
  'x = f"{a!r:>{width}}" f\'{b=}\' f"{c:{d}.{e}}"\n',
  'x = f\'{x["a"]}\'\n',
  'async def f():\n    async with a as b:\n        await c\n    return [x async for x in y]\n',
  'def f():\n    return (i * 2 for i in range(3) if await g(i))\n',
  'try:\n    pass\nexcept* ValueError as e:\n    pass\n',
  'x = (\n    1,  # comment\n    2,\n)\n',
  'if x:  # comment\n    pass\n',
  'def f(a, /, b=1, *, c, **d):\n    nonlocal_ = 1\n',
  // global/nonlocal that CPython accepts: after an import, twice, after uses in nested scopes, a
  // nonlocal bound later or further out, a keyword pattern's attribute name, the wildcard.
  'def f():\n    import x\n    global x, y\n    global y\n    x = 1\n',
  'def f():\n    [x for x in y]\n    lambda: x\n    def g():\n        return x\n    global x\n',
  'def g():\n    def f():\n        def h():\n            nonlocal x\n    x = 2\n',
  'def g(a):\n    import os\n    def f():\n        nonlocal a, os\n        a = os = 1\n',
  'def f():\n    match y:\n        case C(x=1) | _:\n            pass\n    global x, _\n',
  'import x\nglobal x, y\ny = 1\ny: int = 2\n[z for z in x]\nglobal z\ndef f():\n    w = 1\nglobal w\n',
  '"""doc"""\nfrom __future__ import annotations\nimport os\n',
  'x = "a" \\\n    "b"\n',
  'class A:\n    def f(self):\n        return super().f()\n',
  'while True:\n    try:\n        continue\n    finally:\n        break\n',
  'x = [*a, *b]\ny = {**a, "b": 1}\nf(*a, *b, **c, **d)\n',
  'a = b = c = 1\na, *b = c\n[a, b] = c\n(a) = 1\nx.y[0] = 2\n',
  "x = r'\\d+' + rb'\\x' + br'\\q' + '\\N{BULLET}'\n",
  'x = 0xdead_beef + 0o17 + 0b1010 + 1_000.5e-3j\n',
  'def é():\n    ñ = 1\n    return ñ\n',
  'x = 1\r\ny = 2\r\n',
  'if x:\n\n    # comment at another indent\n        # and another\n    pass\n',
  '',
  '# only a comment',
  // Comprehensions, __debug__, try and match forms that CPython accepts.
  '[i for i in a for i in b]\nx = [y for y in a]\n(y := 1)\n[x for x in a if (lambda: (x := 1))]\n',
  'global __debug__\nobj.__debug__ += 1\nx = __debug__\n',
  'for x in a:\n    try:\n        pass\n    except* A:\n        for y in b:\n            break\n',
  'def f():\n    try:\n        pass\n    except* A:\n        def g():\n            return 1\n',
  'def f():\n    return (x async for x in y)\nasync def g():\n    return [[await x for x in z] for y in w]\n',
  'match x:\n    case 0 | 1 | 2 as z:\n        pass\n    case [a] | (a,):\n        pass\n    case y if y:\n        pass\n    case (_ as w):\n        pass\n',
  // Once refused by mistake: a walrus-looking format spec, a backslash before a replacement field,
  // __class__ in a method, starred comprehension targets, a starred list target, form feeds,
  // implicit concatenation in patterns.
  "x = f'{x:=10}' f'\\{6*7}' f'{x = !r:>10}'\n",
  'class C:\n    def f(self):\n        nonlocal __class__\n',
  '[a for a, *b in c]\n{k: v for k, *v in pairs}\n[*a] = b\n',
  '\f\nx = 1\n\f\ny = 2\n',
  'if x:\n    y = 1\n        \\\n\n    z = 2\n',
  Array.from({ length: 20 }, (_, i) => `${' '.repeat(i)}while x:\n`).join('') + ' '.repeat(20) + 'pass\n',
  "match x:\n    case 'a' 'b':\n        pass\n    case {'a' 'b': 1}:\n        pass\n",
  'match x:\n    case {1: a, 2: b, "1": c, **rest}:\n        pass\n    case C(1, a=b, c=d) | C(a=b, c=d):\n        pass\n    case -1 - 2j:\n        pass\n',
];

describe('python-syntax', () => {
  for (const [src, line, message] of INVALID) {
    it(`rejects ${JSON.stringify(src.length > 50 ? src.slice(0, 50) + '…' : src)}`, () => {
      const e = syntax(src);
      assert.ok(e, 'no python-syntax problem');
      assert.equal(e.line, line, `line of ${JSON.stringify(e)}`);
      assert.ok(e.message.includes(message), `message ${JSON.stringify(e.message)} lacks ${JSON.stringify(message)}`);
      assert.ok(e.text.length > 0 || src.length === 0, 'the range is not empty');
    });
  }
  for (const src of VALID) {
    it(`accepts ${JSON.stringify(src.length > 50 ? src.slice(0, 50) + '…' : src)}`, () => {
      assert.deepEqual(
        syntaxAll(src + EXEC).map((p) => `${lineOf(src, p.start)}: ${p.message}`),
        [],
      );
    });
  }

  it('places an error in a string where CPython does: before the token after the string', () => {
    for (const src of ["x = f'{a!x}' + 1\n", "x = '\\x' + 1\n"]) {
      const p = firstCPythonError(analyzePython(src).problems)!;
      assert.equal(src.slice(p.start, p.end + 1), ' +', p.message);
    }
  });

  it('points at the exact characters', () => {
    const src = 'def execute(variables):\n    x = (1,\n    return "a"\n';
    const p = syntaxAll(src)[0];
    assert.equal(src.slice(p.start, p.end), '(');
    assert.equal(p.message, "'(' was never closed");
  });

  it('reports a misplaced global or nonlocal on the whole statement, as CPython does', () => {
    const src = 'def execute(variables):\n    total = 0\n    global total, other\n    return ""\n';
    const p = syntaxAll(src)[0];
    assert.equal(src.slice(p.start, p.end), 'global total, other');
    assert.equal(p.message, "name 'total' is assigned to before global declaration");
  });

  it('checks a module-level global against earlier statements after an edit elsewhere', () => {
    const doc = new PythonDocument();
    const before = 'x = 1\n\n\ndef execute(variables):\n    return ""\n';
    assert.deepEqual(doc.update(before).problems, []);
    const after = `${before}\n\nglobal x\n`; // the earlier statements' analysis is reused
    const p = doc.update(after).problems.find((q) => q.code === 'python-syntax');
    assert.equal(p?.message, "name 'x' is assigned to before global declaration");
    assert.equal(after.slice(p.start, p.end), 'global x');
    assert.deepEqual(doc.update(after.replace('x = 1', 'y = 1')).problems, []);
  });

  it('an unclosed bracket is reported once, as by CPython: no echo after it, no contract guessed from the broken body', () => {
    for (const src of [
      'def execute(variables):\n    x = (1,\n    return "a"\n',
      'def execute(variables):\n    print((1, 2)\n    return "a"\n\ndef other():\n    pass\n',
    ]) {
      const all = analyzePython(src).problems;
      assert.deepEqual(
        all.map((p) => [p.code, lineOf(src, p.start), p.message]),
        [['python-syntax', 2, "'(' was never closed"]],
        src,
      );
    }
  });

  it('an unterminated triple-quoted string is reported once too: the rest of the file is inside it', () => {
    const src = 'def execute(variables):\n    x = """abc\n    return (\n\ndef f(:\n    pass\n';
    assert.deepEqual(
      analyzePython(src).problems.map((p) => [p.code, lineOf(src, p.start), p.message]),
      [['python-syntax', 2, 'unterminated triple-quoted string literal (detected at line 6)']],
    );
  });

  it('reports independent errors of separate top-level statements, one each', () => {
    const src = 'def a()\n    pass\n\nx = 1 +\n\ndef execute(variables):\n    return ""\n';
    const lines = syntaxAll(src).map((p) => lineOf(src, p.start));
    assert.deepEqual(lines, [1, 4]);
  });

  it('names absolute lines in messages of later statements', () => {
    const src = 'x = 1\n\n\ny = """abc\n';
    assert.match(syntax(src)!.message, /detected at line 4/);
    const src2 = 'a = 1\nb = 2\nif x:\ny = 1\n';
    assert.match(syntax(src2)!.message, /on line 3/);
  });

  it('lexes a 200 KB module in a few milliseconds and agrees in both modes on valid code', () => {
    const src = 'def f(a, b=1):\n    """doc"""\n    return [x for x in a if x] + f"{b!r}"\n\n'.repeat(3000);
    assert.equal(lex(src).error, undefined);
    assert.equal(lex(src, true).error, undefined);
  });
});
