"""Shortcuts of the first call give what the long way gives: the jump
converters' tests rewritten where the control-flow converter places them
(no walk of the whole tree) convert as the walk does, fresh names come out
in the same order, and a plain docstring is quoted as ast.unparse quotes it."""

import ast
import builtins
import importlib.util
import itertools
import keyword

import gast
import pytest

from autograph.converters import control_flow
from autograph.impl import conversion
from autograph.pyct import ast_util, naming, parser, unparser
from autograph.pyct.static_analysis import activity

_ids = itertools.count()

MODULE = '''\
def breaks(x, n):
    total = x * 0
    i = 0
    while i < n:
        if total > 10:
            break
        total += x
        i += 1
    return total


def continues(n):
    s = 0
    for k in range(n):
        if k % 2 == 0:
            continue
        s += k
    return s


def returns_in_loop(n):
    i = 0
    while i < n:
        if i > 3:
            return i
        i += 1
    return -1


def maybe_unbound(n):
    for k in range(n):
        if k > 2:
            last = k
            break
    return last


def user_not(x, n):
    while not x > n:
        x += 1
    return x
'''

NAMES = ["breaks", "continues", "returns_in_loop", "maybe_unbound", "user_not"]


def _module(tmp_path):
    path = tmp_path / f"shortcut_mod_{next(_ids)}.py"
    path.write_text(MODULE)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", NAMES)
def test_tests_rewritten_in_place_convert_as_the_whole_walk(tmp_path, monkeypatch, name):
    fast = conversion.convert_entity(getattr(_module(tmp_path), name)).source
    # Every function "holds" a FunctionDef: the whole-tree walk runs.
    monkeypatch.setattr(conversion, "_EXPRESSION_REWRITES", (gast.FunctionDef,))
    slow = conversion.convert_entity(getattr(_module(tmp_path), name)).source
    assert fast == slow
    assert "ag__.not_(" in fast or name == "user_not"


def _names_the_long_way(taken, bases):
    taken, out = set(taken), []
    for base in bases:
        candidate, n = base, 1
        while candidate in taken or keyword.iskeyword(candidate) or hasattr(builtins, candidate):
            candidate = f"{base}{n}" if base.endswith("_") else f"{base}_{n}"
            n += 1
        taken.add(candidate)
        out.append(candidate)
    return out


@pytest.mark.parametrize("taken, bases", [
    ((), ["if_body"] * 4 + ["else_body"] * 2 + ["if_body"]),
    ({"if_body", "if_body_2", "break_1"}, ["if_body", "if_body", "if_body", "break_", "break_"]),
    ({"x"}, ["print", "print", "def", "class", "__dict__", "__name__", "len", "x"]),
    ({"retval_"}, ["retval_", "retval_", "loop_test", "loop_test_1", "loop_test"]),
])
def test_fresh_names_come_in_the_same_order(taken, bases):
    namer = naming.Namer(taken)
    assert [namer.new(b) for b in bases] == _names_the_long_way(taken, bases)
    assert set(_names_the_long_way(taken, bases)) == namer.made


def _docstring_the_long_way(value):
    writer = ast._Unparser()
    writer._write_str_avoiding_backslashes(value, quote_types=ast._MULTI_QUOTES)
    return "".join(writer._source)


@pytest.mark.parametrize("value", [
    "", "A 30-line function.", 'ends with a quote"', "ends with a quote'",
    'has """ inside', "has ''' inside", "has ''' and \"\"\" inside", "tab\tand\nnewline\n",
    "a backslash \\ here", "a bell \x07", "unicode é ✓", "line sep \u2028", 'q"', "'",
])
def test_a_docstring_is_written_as_ast_unparse_writes_it(value):
    fast = unparser._plain_docstring(value)
    assert fast is None or fast == _docstring_the_long_way(value)
    node = gast.parse(f"def f():\n    {_docstring_the_long_way(value)}\n    return 1\n")
    assert unparser.unparse_with_lines(node.body[0])[0] == ast.unparse(
        ast.parse(f"def f():\n    {_docstring_the_long_way(value)}\n    return 1\n")) + "\n"


NOT_PLAIN = '''\
def appends(xs, n):
    out = []
    for k in range(n):
        out.append(k)
    return out


def item_write(d, n):
    for k in range(n):
        d[k] = k
    return d


def nested(n):
    def g(v):
        return v + n
    total = 0
    for k in range(n):
        total += g(k)
    return total


def declares(n):
    global COUNT
    for k in range(n):
        COUNT = k


def advances(it, n):
    for k in range(n):
        next(it)


def reads_namespace(n):
    for k in range(n):
        if k > 1:
            print(locals())


def walrus(n):
    while (m := n - 1) > 0:
        n = m
    return n


def deletes(n):
    v = 1
    if n > 0:
        del v
    return n


def tries(n):
    try:
        for k in range(n):
            n -= 1
    finally:
        pass
    return n


def asserts(n):
    for k in range(n):
        assert k >= 0, "negative"
    return n
'''


def _plain_and_walked(monkeypatch):
    """Make every plain _Scope check itself against the walk's; returns the
    list of functions converted with a plain scope."""
    found = []

    class Checked(control_flow._Scope):
        def __init__(self, fn_node, internal=frozenset(), plain=False):
            super().__init__(fn_node, internal, plain)
            if plain:
                walked = control_flow._Scope(fn_node, internal)
                assert vars(self) == vars(walked)
                found.append(fn_node.name)

    monkeypatch.setattr(control_flow, "_Scope", Checked)
    return found


@pytest.mark.parametrize("name", NAMES)
def test_a_plain_scope_is_the_scope_walk_finds(tmp_path, monkeypatch, name):
    plain = _plain_and_walked(monkeypatch)
    conversion.convert_entity(getattr(_module(tmp_path), name))
    assert plain == [name]


@pytest.mark.parametrize("name", [line[4:line.index("(")] for line in NOT_PLAIN.splitlines()
                                  if line.startswith("def ")])
def test_a_scope_with_something_to_find_is_walked(tmp_path, monkeypatch, name):
    plain = _plain_and_walked(monkeypatch)
    path = tmp_path / f"not_plain_{next(_ids)}.py"
    path.write_text(NOT_PLAIN)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    conversion.convert_entity(getattr(module, name))
    assert plain == []


BINDINGS = '''\
def params(a, /, b, *args, c=1, **kw):
    d = a
    del d
    return b


def targets(xs, o):
    for k, (v, *rest) in xs:
        o.a = k
        o[v] = rest
    with open(xs) as f:
        w = f
    try:
        pass
    except ValueError as e:
        print(e)
    return w


def imports(n):
    import os.path
    from math import pi as tau
    return tau


def comprehension(xs):
    ys = [x for x in xs if (y := x)]
    return ys


def matches(p):
    match p:
        case [a, *more]:
            return a
        case {"k": b, **others}:
            return b
    return None


def lambdas(n):
    f = lambda q: q + n
    return f(n)


def declares(n):
    global G
    G = n
    m = n
    return m


def nests(n):
    def inner(v):
        u = v
        return u
    return inner(n)
'''


@pytest.mark.parametrize("name", [line[4:line.index("(")] for line in BINDINGS.splitlines()
                                  if line.startswith("def ")])
def test_local_names_from_the_survey_are_the_walks(tmp_path, monkeypatch, name):
    path = tmp_path / f"bindings_{next(_ids)}.py"
    path.write_text(BINDINGS)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name)
    node, info = parser.parse_function(fn)
    walked, local_names = [], activity.local_names
    monkeypatch.setattr(activity, "local_names", lambda *a: walked.append(a) or local_names(*a))
    ctx = conversion.Context(fn, node, info, recursive=True)
    expected = set()
    for n in ast_util.walk(node):
        if isinstance(n, gast.FunctionDef):
            expected |= local_names(n)
    assert ctx.local_names == expected
    # The survey's shortcut where the function is bound by names alone.
    assert bool(walked) == (name not in ("params", "targets"))


def _same_tree(a, b):
    """Same classes, same attributes (key order included), recursively."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_tree, a, b))
    if not isinstance(a, gast.AST):
        return a == b
    return (a.__class__ is b.__class__ and list(vars(a)) == list(vars(b))
            and all(_same_tree(v, vars(b)[k]) for k, v in vars(a).items()))


def test_nodes_built_directly_are_what_their_template_text_builds():
    from autograph.pyct import templates
    x = ast_util.name
    cases = [
        (ast_util.operator_call("not_", [x("a")]),
         templates.replace_as_expression("ag__.not_(operand)", operand="a")),
        (ast_util.operator_call("and_", [x("a"), ast_util.lambda_(x("b"))]),
         templates.replace_as_expression("ag__.and_(first, lambda: value)", first="a", value="b")),
        ([ast_util.assign("f", ast_util.constant(True))],
         templates.replace("flag = True", flag="f")),
        ([ast_util.if_(ast_util.not_(x("f")), [ast_util.assign("y", x("a"))])],
         templates.replace("if not flag:\n    rest", flag="f",
                           rest=templates.replace("y = a", y="y", a="a"))),
        ([control_flow._def("g", ["a", "b"], [control_flow._return_tuple(["a", "b"])])],
         templates.replace("def fn_name(params):\n    return (state,)", fn_name="g",
                           params=["a", "b"], state=["a", "b"])),
        ([control_flow._assign(["a", "b"], ast_util.operator_call(
            "while_stmt", [x("t"), x("u"), control_flow._ControlFlow._tuple(["a", "b"]),
                           ast_util.constant(("a", "b"))]))],
         templates.replace("outputs = ag__.while_stmt(t, u, state_in, names)", outputs=gast.Tuple(
             elts=[x("a", gast.Store), x("b", gast.Store)], ctx=gast.Store()),
             t="t", u="u", state_in=control_flow._ControlFlow._tuple(["a", "b"]),
             names=ast_util.constant(("a", "b")))),
    ]
    for built, templated in cases:
        assert _same_tree(built, templated), gast.dump(built if isinstance(built, gast.AST)
                                                       else gast.Module(built, []))


def test_contexts_are_shared_by_parsed_and_made_names():
    node, _ = parser.parse_function(test_contexts_are_shared_by_parsed_and_made_names)
    loads = {id(n.ctx) for n in ast_util.walk(node) if isinstance(n, gast.Name)
             and isinstance(n.ctx, gast.Load)}
    assert loads == {id(ast_util.CONTEXTS[gast.Load])} == {id(ast_util.name("x").ctx)}
    assert node.args.args == [] and ast_util.context(gast.Store) is ast_util.CONTEXTS[gast.Store]
