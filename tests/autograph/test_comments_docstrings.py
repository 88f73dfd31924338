"""Docstrings and comments survive conversion: the docstring stays the first
statement (so `__doc__` is kept in `to_code` output, `to_graph` results and
`autograph convert` output), and each user comment is carried next to the
generated lines of the statement it sat next to."""

import importlib.util
import linecache
import re
import textwrap

import pytest

import autograph
from autograph.impl import conversion
from autograph.pyct import comments

from tests.cli.conftest import run_cli


def make(tmp_path, source, name="f"):
    """The function `name` of a module file holding `source` (comments need a file)."""
    path = tmp_path / f"mod_{abs(hash(source))}.py"
    path.write_text(textwrap.dedent(source))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def run_code(code, name):
    namespace = {}
    exec(compile(code, "<to_code>", "exec"), namespace)
    return namespace[name]


EARLY_RETURNS = """
def in_for(xs):
    \"\"\"First positive value, else 0.\"\"\"
    for x in xs:
        if x > 0:
            return x
    return 0


def in_while(n):
    '''Counts down;
    stops at 5.'''
    while n > 0:
        n = n - 1
        if n == 5:
            return n
    return -1


def two_ifs(x):
    \"\"\"Two early returns.\"\"\"
    if x > 0:
        return 1
    x = x + 1
    if x > 3:
        return 2
    return x
"""


@pytest.mark.parametrize("name, args", [("in_for", ([-1, 3, 4],)), ("in_while", (9,)),
                                        ("two_ifs", (-1,))])
def test_docstring_is_the_first_statement(tmp_path, name, args):
    fn = make(tmp_path, EARLY_RETURNS, name)
    code = autograph.to_code(fn)
    body = code.split(f"def {name}(", 1)[1].split("\n", 2)[1]
    assert body.lstrip().startswith(('"""', "'''")), code
    generated = run_code(code, name)
    assert generated.__doc__ == fn.__doc__ and fn.__doc__
    assert generated(*args) == fn(*args)
    converted = autograph.to_graph(fn)
    assert converted.__doc__ == fn.__doc__
    assert converted(*args) == fn(*args)


def test_cli_output_keeps_docstrings(tmp_path):
    src = tmp_path / "early.py"
    src.write_text(EARLY_RETURNS)
    out = tmp_path / "early_ag.py"
    done = run_cli("convert", str(src), "-o", str(out))
    assert done.returncode == 0, done.stderr
    spec = importlib.util.spec_from_file_location("early_ag", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("in_for", "in_while", "two_ifs"):
        original = make(tmp_path, EARLY_RETURNS, name).__doc__
        assert getattr(module, name).__doc__ == original and original
    assert module.in_for([0, 2]) == 2 and module.in_while(3) == -1


COMMENTED = '''
def f(x, n):
    """Doc."""
    # start from zero
    total = 0  # the sum
    while n > 0:  # count down
        # add x each time
        total = total + x
        n = n - 1
    label = "# not a comment"
    if total > 10:
        # big
        total = 10  # clipped
    # done
    return total, label
'''


def test_comments_are_carried_to_the_generated_lines(tmp_path):
    fn = make(tmp_path, COMMENTED)
    code = autograph.to_code(fn)
    lines = code.splitlines()

    def line_of(text):
        hits = [i for i, line in enumerate(lines) if text in line]
        assert len(hits) == 1, (text, code)
        return hits[0]

    for text in ("# start from zero", "# add x each time", "# big", "# done"):
        assert lines[line_of(text)].strip() == text   # on a line of its own
    assert lines[line_of("# start from zero") + 1].strip() == "total = 0  # the sum"
    assert lines[line_of("# add x each time") + 1].strip() == "total = total + x"
    assert lines[line_of("# big") + 1].strip() == "total = 10  # clipped"
    assert "ag__.while_stmt(" in lines[line_of("# count down")]
    assert lines[line_of("# done") + 1].strip() == "return (total, label)"
    indent = lines[line_of("# add x each time")]
    assert indent.startswith(" " * 8) and not indent.startswith(" " * 9)
    assert code.count("# not a comment") == 1 and "'# not a comment'" in code
    assert lines[line_of('"""Doc."""') - 1].startswith("def f(x, n):")
    generated = run_code(code, "f")
    assert generated(3, 5) == fn(3, 5) == (10, "# not a comment")


def test_comments_keep_the_line_map_right(tmp_path):
    """Inserted comment lines shift the generated code; errors still name the user's line."""
    fn = make(tmp_path, '''
    def f(x):
        # one
        # two
        if x > 0:
            # three
            y = 1 / (x - x)  # divides by zero
        else:
            y = 0
        return y
    ''')
    entry = conversion.convert_entity(fn)
    first = fn.__code__.co_firstlineno
    for line, (_, user, text) in entry.line_map.items():
        generated = linecache.getline(entry.filename, line).strip()
        assert generated, (line, user)
    with pytest.raises(ZeroDivisionError) as info:
        autograph.to_graph(fn)(2)
    note = "\n".join(info.value.__notes__)
    assert f"line {first + 5}: y = 1 / (x - x)  # divides by zero" in note


def test_cli_output_keeps_comments_in_methods(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("class A:\n"
                   "    def f(self, x):\n"
                   "        # negate negatives\n"
                   "        if x < 0:  # a tensor if\n"
                   "            x = -x  # flip\n"
                   "        return x\n")
    done = run_cli("convert", str(src))
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert re.search(r"\n        # negate negatives\n        def if_body", text), text
    assert re.search(r"\n            x = -x  # flip\n", text), text
    assert re.search(r"ag__\.if_stmt\(.*\)  # a tensor if\n", text), text
    assert run_cli("convert", "-", stdin=text).stdout == text


@pytest.mark.parametrize("lines, expected", [
    (["def f():\n", "    return 1\n"], []),
    (["def f():  # head\n", "    x = '#'  # tail\n", "    # own\n", "    return x\n"],
     [(1, "# head", False), (2, "# tail", False), (3, "# own", True)]),
    (["def f():\n", "    x = '''\n", "# in a string\n", "'''\n"], []),
    (["def f():\n", "    x = f'{y!r:>{w}}' + r'\\\\' + \"'#\"  # after 'quotes'\n"],
     [(2, "# after 'quotes'", False)]),
    (["def f():\n", "    s = '''a\n", "  '#' ''' # c\n"], [(3, "# c", False)]),
])
def test_collect(lines, expected):
    assert comments.collect(lines, 1, len(lines)) == expected
