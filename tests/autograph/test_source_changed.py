"""`inspect_utils.source_changed`: is the source found on disk still the code a
function runs? Unedited functions of every shape must pass (a false alarm would
refuse valid code); any edit to names, constants or operators is caught."""

import importlib.util
import itertools
import linecache
import textwrap
import warnings

import pytest

import autograph
from autograph.pyct import inspect_utils
from autograph.pyct import parser

_ids = itertools.count()

MODULE = '''\
import math
import os.path as osp

SCALE = 3


def closure_maker(k):
    def inner(x):
        if x > 0:
            return x * k + math.sqrt(4)
        return -x
    return inner


class Base:
    def run(self, x):
        return x


class Widget(Base):
    __secret = 5

    def run(self, x):
        text = """first
    second line
        third"""
        if x > self.__secret:
            return super().run(x) + len(text)
        return osp.join("a", str(x))

    def nested_class(self):
        class Local:
            value = SCALE
        return Local.value


def with_frozenset(x):
    return x in {"a", "b", "c", "d"} or [n for n in range(x) if n % 2]
'''


def _load(tmp_path, source):
    name = f"source_changed_{next(_ids)}"
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def _functions(module):
    return [module.closure_maker, module.closure_maker(2), module.Widget.run,
            module.Widget.nested_class, module.Base.run, module.with_frozenset]


def test_unedited_functions_of_every_shape_match(tmp_path):
    module, _ = _load(tmp_path, MODULE)
    for fn in _functions(module):
        assert inspect_utils.source_changed(fn, parser.get_source) is None, fn.__qualname__


def test_stdlib_functions_match():
    import difflib
    import json
    import textwrap as tw
    for fn in (json.dumps, json.JSONEncoder.iterencode, tw.dedent, difflib.unified_diff,
               difflib.SequenceMatcher.get_opcodes):
        assert inspect_utils.source_changed(fn, parser.get_source) is None, fn.__qualname__


@pytest.mark.parametrize("old, new, changed", [
    # (inner is part of closure_maker's code: an edit in it changes both)
    ("x * k + math.sqrt(4)", "x * k + math.sqrt(9)", "inner closure_maker"),   # a constant
    ("x * k + math.sqrt(4)", "x * k - math.sqrt(4)", "inner closure_maker"),   # an operator
    ("return -x\n", "return +x\n", "inner closure_maker"),                     # unary
    ("super().run(x) + len(text)", "super().run(x) + len(str)", "Widget.run"),  # a name
    ("    second line", "    Second line", "Widget.run"),          # inside a string
    ('{"a", "b", "c", "d"}', '{"a", "b", "c", "e"}', "with_frozenset"),
    ("n % 2]", "n % 3]", "with_frozenset"),                         # in a comprehension
])
def test_edits_are_caught(tmp_path, old, new, changed):
    module, path = _load(tmp_path, MODULE)
    assert old in MODULE
    path.write_text(MODULE.replace(old, new, 1), encoding="utf-8")
    linecache.checkcache()
    verdicts = {fn.__qualname__.replace("closure_maker.<locals>.", ""):
                inspect_utils.source_changed(fn, parser.get_source)
                for fn in _functions(module)}
    for name in changed.split():
        assert verdicts.pop(name) == inspect_utils.SOURCE_CHANGED, name
    assert set(verdicts.values()) == {None}, verdicts


def test_comments_and_blank_lines_are_not_changes(tmp_path):
    module, path = _load(tmp_path, MODULE)
    path.write_text(MODULE.replace("        if x > 0:\n", "        # positive?\n\n"
                                   "        if x > 0:\n"), encoding="utf-8")
    linecache.checkcache()
    assert inspect_utils.source_changed(module.closure_maker(2), parser.get_source) is None


def test_called_function_with_changed_source_runs_as_imported(tmp_path):
    module, path = _load(tmp_path, MODULE + textwrap.dedent('''
        def caller(x):
            if x > 0:
                x = with_frozenset(x)
            return x
        '''))
    text = path.read_text(encoding="utf-8").replace("n % 2]", "n % 5]")
    path.write_text(text, encoding="utf-8")
    linecache.checkcache()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert autograph.to_graph(module.caller)(7) == module.with_frozenset(7) == [1, 3, 5]
    messages = [str(w.message) for w in caught if w.category is autograph.AutoGraphWarning]
    assert messages == ["autograph could not convert with_frozenset, so it runs unconverted: "
                        "source changed on disk since import"]
