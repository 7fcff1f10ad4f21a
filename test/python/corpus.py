"""Snippets of Python source from CPython's own test suite, with CPython's verdict on each.

Prints one JSON object per line: {"origin", "src", "ok", "line", "col", "msg"}. A snippet is the
source of a doctest example, a string literal handed to compile/exec/eval or to a test's
syntax-checking helper (directly, through textwrap.dedent, or through a local variable), or a whole
test method (valid code). The verdict is compile(src, '<tool_code>', 'exec') of this interpreter.
"""

import ast
import doctest
import importlib.util
import json
import sys
import textwrap
import warnings

MODULES = [
    'test_syntax', 'test_grammar', 'test_exceptions', 'test_patma', 'test_named_expressions',
    'test_fstring', 'test_coroutines', 'test_positional_only_arg', 'test_keywordonlyarg',
    'test_unpack_ex', 'test_unpack', 'test_genexps', 'test_generators', 'test_global',
    'test_except_star', 'test_decorators', 'test_dictcomps', 'test_setcomps', 'test_listcomps',
    'test_with', 'test_raise', 'test_scope', 'test_eof', 'test_compile', 'test_string_literals',
    'test_unicode_identifiers', 'test_print', 'test_class', 'test_funcattrs', 'test_opcodes',
]

# Calls whose first argument is source code: the builtins and the helpers the suite checks syntax with.
CODE_CALLS = ('compile', 'exec', 'eval')
HELPER_WORDS = ('check', 'syntax', 'Syntax', 'invalid', 'Raise')


def call_name(node):
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ''


def string_values(node, local):
    """The texts of a string literal, dedent(literal), a list or tuple of them, or a local bound to them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and call_name(node) == 'dedent' and node.args:
        return [textwrap.dedent(s) for s in string_values(node.args[0], local)]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [s for e in node.elts for s in string_values(e, local)]
    if isinstance(node, ast.Name):
        return [s for v in local.get(node.id, []) for s in string_values(v, {})]
    return []


def elements(node, local):
    """The element nodes a for loop over `node` visits: a literal list or tuple, or a local bound to one."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return node.elts
    if isinstance(node, ast.Name):
        return [e for v in local.get(node.id, []) for e in elements(v, {})]
    return []


def function_strings(fn):
    """A function's local names with the value nodes bound to them, loop variables (also unpacked) included."""
    local = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            local.setdefault(n.targets[0].id, []).append(n.value)
    for n in ast.walk(fn):
        if not isinstance(n, ast.For):
            continue
        for e in elements(n.iter, local):
            if isinstance(n.target, ast.Name):
                local.setdefault(n.target.id, []).append(e)
            elif isinstance(n.target, ast.Tuple) and isinstance(e, ast.Tuple) and len(e.elts) == len(n.target.elts):
                for t, v in zip(n.target.elts, e.elts):
                    if isinstance(t, ast.Name):
                        local.setdefault(t.id, []).append(v)
    return local


def snippets(name, path):
    text = open(path, encoding='utf-8').read()
    tree = ast.parse(text)
    parser = doctest.DocTestParser()
    scopes = [(tree, {})] + [(f, function_strings(f)) for f in ast.walk(tree)
                             if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope, local in scopes:
        for n in ast.walk(scope):
            if isinstance(n, ast.Call) and n.args:
                fname = call_name(n)
                # A helper's source may follow `self` or an exception type: every positional argument counts.
                args = n.args[:1] if fname in CODE_CALLS else n.args if any(w in fname for w in HELPER_WORDS) else []
                for a in args:
                    for src in string_values(a, local):
                        yield f'{name}:{n.lineno} {fname}()', src
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and '>>>' in n.value:
            try:
                examples = parser.get_examples(n.value)
            except ValueError:
                continue
            for ex in examples:
                yield f'{name}:{n.lineno + ex.lineno} doctest', ex.source
        if isinstance(n, ast.ClassDef):
            for m in n.body:
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith('test'):
                    yield f'{name}:{m.lineno} {n.name}.{m.name}', textwrap.dedent(ast.get_source_segment(text, m))


def verdict(src):
    try:
        compile(src, '<tool_code>', 'exec', dont_inherit=True)
        return {'ok': True}
    except SyntaxError as e:
        return {'ok': False, 'line': e.lineno, 'col': e.offset, 'msg': e.msg}
    except (ValueError, OverflowError, MemoryError, RecursionError) as e:
        return {'ok': False, 'line': None, 'col': None, 'msg': str(e)}


def main():
    warnings.simplefilter('ignore')
    seen = set()
    for name in MODULES:
        spec = importlib.util.find_spec('test.' + name)
        if spec is None or spec.origin is None:
            sys.exit(f'test.{name} is not installed: this interpreter has no test package')
        for origin, text in snippets(name, spec.origin):
            # Helpers such as test_patma's dedent their argument: the dedented text is a snippet too.
            for src in (text, textwrap.dedent(text)):
                if src in seen or not src.strip():
                    continue
                seen.add(src)
                sys.stdout.write(json.dumps({'origin': origin, 'src': src, **verdict(src)}) + '\n')


main()
