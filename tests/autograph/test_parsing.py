"""Parsing: lambdas (several on one line, passed as arguments), methods,
nested functions and closures, decorated functions, exec'd code whose source
linecache knows. Plus the self-test: every function of the project's own
packages and examples either converts to code that compiles, or is refused
with a ConversionError."""

import functools
import importlib
import inspect
import linecache
import pathlib
import pkgutil

import pytest

import autograph

INC, DBL = (lambda v: v + 1), (lambda v: v * 2)


def test_several_lambdas_on_one_line():
    assert "return v * 2" in autograph.to_code(DBL)
    assert "return v + 1" in autograph.to_code(INC)
    assert autograph.to_graph(DBL)(4) == 8 and autograph.to_graph(INC)(4) == 5


def test_lambda_passed_as_argument():
    def apply(f, v):
        return f(v)
    assert apply(autograph.to_graph(lambda q: q if q > 1 else 0), 5) == 5
    assert "ag__.if_exp(q > 1, lambda: q, lambda: 0)" in autograph.to_code(lambda q: q if q > 1 else 0)


def test_lambda_spanning_lines_in_a_for_header_keeps_its_whole_body():
    # A `for` header does not parse on its own, so the lambda is cut out of
    # it; the cut must span the lambda's lines (it was `lambda: max` before).
    got = []
    for f in [autograph.to_graph(lambda: max(3,
                                             7) if True else 0)]:
        got.append(f())
    for g, args in [(autograph.to_graph(lambda a, b: (a
                                                      + b)), (2, 3))]:
        got.append(g(*args))
    assert got == [7, 5]


TABLE = {
    "scaled": lambda v: v
    * 3,
}


def test_lambda_whose_body_continues_on_the_next_line_keeps_it():
    # inspect gives only the first line of this lambda (`lambda v: v`); the
    # source must run to the last line its code spans, or `* 3` is lost.
    assert "return v * 3" in autograph.to_code(TABLE["scaled"])
    assert autograph.to_graph(TABLE["scaled"])(2) == 6


class Scaler:
    def __init__(self, k):
        self.k = k

    def scale(self, x):
        if x > 0:
            return x * self.k
        return 0


def test_bound_method_is_converted_and_bound():
    s = Scaler(3)
    converted = autograph.to_graph(s.scale)
    assert converted(2) == 6 and converted(-1) == 0
    assert autograph.to_code(s.scale).count("def scale(self, x):") == 1


def test_nested_function_sees_closure_cells():
    factor = 4

    def inner(x):
        while x < 10:
            x = x * factor
        return x
    converted = autograph.to_graph(inner)
    assert converted(1) == 16
    factor = 2       # the cell is shared: the converted code sees the new value
    assert converted(1) == 16 and inner(1) == 16


def decorator(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper


@decorator
def decorated(x):
    if x:
        return "yes"
    return "no"


def test_decorated_function_converts_the_undecorated_body():
    code = autograph.to_code(decorated.__wrapped__)
    assert "@decorator" not in code and "def decorated(x):" in code
    assert autograph.to_graph(decorated.__wrapped__)(0) == "no"


class Banner:
    """Methods whose multi-line strings are indented less, and more, than
    the method itself: their text must survive conversion unchanged."""

    def flush_left(self, n):
        text = """first
  second
third"""
        if n > 0:
            return text * n
        return ""

    def deeper(self, n):
        text = """a
                b"""
        for _ in range(n):
            text += "!"
        return text


@pytest.mark.parametrize("name", ["flush_left", "deeper"])
def test_method_multiline_strings_keep_their_text(name):
    original = getattr(Banner(), name)
    converted = autograph.to_graph(original)
    for n in (0, 1, 2):
        assert converted(n) == original(n)
    expected = {"flush_left": "first\n  second\nthird", "deeper": "a\n                b"}[name]
    assert repr(expected) in autograph.to_code(getattr(Banner, name))


def test_nested_lambda_column_found_without_dedent():
    class Holder:
        def pick(self):
            return (lambda a: a + 1, lambda a: a * 3)
    first, second = Holder().pick()
    assert autograph.to_graph(first)(2) == 3
    assert autograph.to_graph(second)(2) == 6


def test_exec_code_with_source_in_linecache():
    src = "def made(x):\n    while x > 10:\n        x -= 3\n    return x\n"
    linecache.cache["<repl-7>"] = (len(src), None, src.splitlines(True), "<repl-7>")
    namespace = {}
    exec(compile(src, "<repl-7>", "exec"), namespace)
    assert autograph.to_graph(namespace["made"])(20) == 8
    assert "ag__.while_stmt(" in autograph.to_code(namespace["made"])


def test_super_in_converted_method():
    class Base:
        def value(self):
            return 1

    class Child(Base):
        def value(self):
            if True:
                return super().value() + 1
            return 0
    assert autograph.to_graph(Child().value)() == 2


ROOT = pathlib.Path(autograph.__file__).parent.parent


OPTIONAL = {"jax", "jaxlib", "onnx", "onnxruntime", "tensorboard"}   # the extras


def _project_functions():
    found = []
    for pkg in ("autograph",):
        base = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(base.__path__, prefix=f"{pkg}."):
            try:
                module = importlib.import_module(info.name)
            except ModuleNotFoundError as e:     # a backend module of an extra not installed
                if (e.name or "").partition(".")[0] in OPTIONAL:
                    continue
                raise
            for _, obj in inspect.getmembers(module):
                if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                    found.append(obj)
                if inspect.isclass(obj) and obj.__module__ == module.__name__:
                    found += [m for m in vars(obj).values() if inspect.isfunction(m)]
    return found


def test_self_test_converts_the_projects_own_functions():
    functions = _project_functions()
    assert len(functions) > 100
    converted = 0
    for fn in functions:
        try:
            code = autograph.to_code(fn)
        except autograph.ConversionError:
            continue
        compile(code, f"<{fn.__qualname__}>", "exec")
        converted += 1
    assert converted > 0.9 * len(functions)


OPS_ON_ONE_LINE = dict(
    a=1, halve=lambda x: x // 2, rest=lambda x: x % 2, neg=lambda x: -x)


def test_lambdas_sharing_a_line_each_convert_to_their_own_body():
    # the line does not parse alone (it continues a call), and three lambdas
    # take the same argument: each must become its own function (all three
    # once became `x // 2`)
    for name, x in (("halve", 7), ("rest", 7), ("neg", 7)):
        fn = OPS_ON_ONE_LINE[name]
        assert autograph.to_graph(fn)(x) == fn(x), name
