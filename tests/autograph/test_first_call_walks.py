"""The first call's cheaper walks find what the full walks found: `contains`
reads statement blocks only, `located` marks statements only, and the parser
annotates user lines while it converts the tree."""

import gast
import pytest

from autograph.pyct import anno, ast_util, parser


def _full_contains(stmts, kind, through_loops=True):
    """`contains` as a walk of every node (expressions too)."""
    stop = ast_util.FUNCTIONS if through_loops else ast_util.FUNCTIONS + ast_util.LOOPS
    stack = list(stmts)
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        if isinstance(n, ast_util.FUNCTIONS):
            continue
        stack.extend(c for c in ast_util.children(n)
                     if not isinstance(c, stop) or isinstance(c, ast_util.FUNCTIONS))
    return False


BODIES = {
    "plain": "x = 1\nbreak\n",
    "if_else": "if a:\n    pass\nelse:\n    continue\n",
    "nested_loop": "for i in r:\n    break\n",
    "loop_else": "while a:\n    pass\nelse:\n    continue\n",
    "try_handlers": "try:\n    f()\nexcept E:\n    return 1\nelse:\n    pass\nfinally:\n    pass\n",
    "try_finally": "try:\n    f()\nfinally:\n    break\n",
    "with": "with m as v:\n    if v:\n        continue\n",
    "match": "match v:\n    case 1:\n        return 2\n    case _:\n        pass\n",
    "nested_def": "def g():\n    return 1\nx = lambda: 2\n",
    "nested_class": "class C:\n    def m(self):\n        return 3\n",
    "expressions": "y = [i for i in r if i]\nz = (lambda: 1)()\n",
}


@pytest.mark.parametrize("name", sorted(BODIES))
@pytest.mark.parametrize("kind", [gast.Break, gast.Continue, gast.Return])
@pytest.mark.parametrize("through_loops", [True, False])
def test_contains_finds_what_a_full_walk_finds(name, kind, through_loops):
    body = gast.parse(BODIES[name]).body
    assert ast_util.contains(body, kind, through_loops) == \
        _full_contains(body, kind, through_loops)


def test_located_marks_statements_and_keeps_user_lines():
    body = gast.parse("if a:\n    y = f(x) + 1\nelse:\n    try:\n        pass\n"
                      "    except E:\n        z = 2\n").body
    user = body[0].body[0]
    anno.setanno(user, anno.USER_LINE, 7)
    ast_util.located(body, 3)
    statements = [n for n in ast_util.walk(body[0]) if isinstance(n, (gast.stmt, gast.excepthandler))]
    assert [ast_util.user_line(s) for s in statements] == [3, 7, 3, 3, 3, 3]
    assert all(ast_util.user_line(n) is None for n in ast_util.walk(body[0])
               if isinstance(n, gast.expr))


MODULE = """\
def margin(x):
    if x:
        y = (x +
             1)
    return y


class Holder:
    def method(self, x):
        return [x
                for _ in "ab"]


def outer(x):
    def inner(y):
        return y * x
    return inner


twice = lambda v: (v +
                   v)
"""


def _functions(tmp_path):
    path = tmp_path / "first_call_walks_module.py"
    path.write_text(MODULE, encoding="utf-8")
    namespace = {"__name__": "first_call_walks_module"}
    exec(compile(MODULE, str(path), "exec"), namespace)  # noqa: S102 - the test's own text
    return {"margin": namespace["margin"], "method": namespace["Holder"].method,
            "inner": namespace["outer"](2), "lambda": namespace["twice"]}


@pytest.mark.parametrize("name", ["margin", "method", "inner", "lambda"])
def test_parsed_nodes_carry_their_own_line(tmp_path, name):
    fn = _functions(tmp_path)[name]
    node, _ = parser.parse_function(fn)
    lined = [n for n in ast_util.walk(node) if getattr(n, "lineno", None) is not None]
    assert len(lined) > 3
    assert all(anno.getanno(n, anno.USER_LINE) == n.lineno for n in lined)
    assert node.lineno == fn.__code__.co_firstlineno
