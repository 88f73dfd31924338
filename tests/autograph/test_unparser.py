"""The one-pass unparser (text identical to ast.unparse, with a line table)
and the fast source lookup of parser.get_source."""

import ast
import inspect
import textwrap

import gast

from autograph.pyct import anno, parser, unparser


def sample(x, *args, y=2, **kw):
    """Docstring
    on two lines."""
    @staticmethod
    def helper(a: int = 1) -> int:
        return a
    if x > 0:
        z = f"{x!r:>4}"
    elif x < -5:
        z = 'neg'
    elif x == -1:
        z = b'one'
    else:
        z = [i for i in range(3) if i]
    try:
        w = x[1:2, ...]
    except (KeyError, IndexError) as e:
        w = e
    finally:
        pass
    g = lambda q, *r, s=1: (q, r, s)
    return z, w, g, helper


def _lines_of(fn):
    return inspect.getsource(fn).splitlines()


def test_text_is_exactly_ast_unparse():
    node, _ = parser.parse_function(sample)
    expected = ast.unparse(gast.gast_to_ast(gast.Module(body=[node], type_ignores=[]))) + "\n"
    source, _ = unparser.unparse_with_lines(node)
    assert source == expected


def plain(x, n):
    """Parsed, never run."""
    t, = x.f((x,), ('total',), (), ('a', 1, None, True), (1.5, 'b'), (b'c',),
             u'u', 'v', 2.5, 1j, None, ...)
    a, b = n.g(x, lambda: n, lambda q, r: q)
    c = (x, n[0]), [x], (x,), ()
    k = x.y(1)(n)(k=n)
    return (lambda: n), (lambda q=1: q), (lambda q: q), t, a, b, c, k


def with_defaults(x, y=1, *args, z, **kw):
    return x


def test_fast_path_text_is_exactly_ast_unparse():
    """The direct writer's shortcuts (a constant or tuple constant as its
    repr, a tuple of names, `name.attr(`, plain parameters in one write)
    and the general code beside them (floats, u'' strings, mixed tuples,
    defaults) write what ast.unparse writes."""
    for fn in (plain, with_defaults):
        node, _ = parser.parse_function(fn)
        expected = ast.unparse(gast.gast_to_ast(gast.Module(body=[node], type_ignores=[])))
        fast = unparser._FastUnparser()
        fast.stmts([node])            # no fallback to ast's unparser
        assert "".join(fast.parts) == expected


def test_line_table_maps_each_statement_to_its_user_line():
    node, info = parser.parse_function(sample)
    source, lines = unparser.unparse_with_lines(node)
    generated = source.splitlines()
    first = sample.__code__.co_firstlineno
    user = {n: info.lines[n - 1].strip() for n in range(first, first + len(_lines_of(sample)))}
    checked = 0
    for gen_line, user_line in lines.items():
        text = generated[gen_line - 1].strip()
        head = user[user_line]
        # The generated statement starts the way the user's does (keywords,
        # targets), up to formatting.
        assert text.split()[0].rstrip(":") == head.split()[0].rstrip(":"), (text, head)
        checked += 1
    assert checked >= 15
    # elif branches, the docstring and the decorated def are all there.
    assert sorted(user[u].split()[0] for u in lines.values()).count("elif") == 2
    assert any(user[u].startswith('"""Docstring') for u in lines.values())
    assert any(user[u].startswith("def helper") for u in lines.values())


def test_line_table_agrees_with_reparsing_the_text():
    node, _ = parser.parse_function(sample)
    source, lines = unparser.unparse_with_lines(node)
    expected = {}

    def pair(mine, theirs):
        line = anno.getanno(mine, anno.USER_LINE, None)
        if line is not None:
            expected.setdefault(theirs.lineno, line)
        for field in ("body", "orelse", "finalbody", "handlers"):
            a, b = getattr(mine, field, None), getattr(theirs, field, None)
            if isinstance(a, list) and isinstance(b, list):
                for x, y in zip(a, b):
                    pair(x, y)

    pair(node, ast.parse(source).body[0])
    assert lines == expected


def ends_in_else_pass(x):
    if x:
        return 1
    else:
        pass


def ends_in_ellipsis(x):
    y = x + 1  # noqa: F841 - the function under test
    ...
    # a trailing comment


def one_line(x): return x * 2


def _same_tree(fn):
    source, info = parser.get_source(fn)
    by_inspect = textwrap.dedent(inspect.getsource(fn.__code__))
    assert ast.dump(ast.parse(source)) == ast.dump(ast.parse(by_inspect))
    assert info.first_line == fn.__code__.co_firstlineno
    return source


def test_get_source_keeps_statements_that_compile_to_nothing():
    assert _same_tree(ends_in_else_pass).rstrip().endswith("pass")
    assert _same_tree(ends_in_ellipsis).rstrip().endswith("...")
    assert _same_tree(one_line) == "def one_line(x): return x * 2\n"
    assert _same_tree(sample).startswith("def sample(x, *args, y=2, **kw):")


def test_get_source_of_a_lambda_still_uses_inspect():
    f = lambda v: v + 1
    node, info = parser.parse_function(f)
    assert isinstance(node.body[0], gast.Return)
    assert anno.getanno(node.body[0], anno.USER_LINE) == f.__code__.co_firstlineno
