"""The first call's shortcuts keep what conversion finds: the source check and
the conversion share one parse of the function's text, and the object-writes
analysis is skipped only where it could find nothing."""

import ast
import importlib.util
import itertools
import linecache

import pytest

from autograph.impl import conversion
from autograph.pyct import inspect_utils, parser

_ids = itertools.count()

MODULE = '''\
import math

ITEMS = iter([1, 2, 3])


def uses_module(x):
    return math.floor(x) + 1


def advances(x):
    return x + next(ITEMS)


def sets_item(d, x):
    d["k"] = x
    return x


def pure(x):
    y = x * 2
    if y > 3:
        y = y - 1
    return y
'''


def _load(tmp_path, source=MODULE):
    name = f"first_call_road_{next(_ids)}"
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def test_the_check_and_the_conversion_parse_the_text_once(tmp_path, monkeypatch):
    module, _ = _load(tmp_path)
    texts = []
    real = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: texts.append(text) or real(text, *a, **k))
    fn = module.uses_module
    assert inspect_utils.source_changed(fn, parser.get_source, parser.parse_ast) is None
    entity = conversion.convert_entity(fn)
    assert len(texts) == 1 and "def uses_module" in texts[0]
    assert entity.make_function(fn)(2.5) == 3


@pytest.mark.parametrize("parse", [ast.parse, parser.parse_ast], ids=["ast", "shared"])
@pytest.mark.parametrize("old, new, changed", [
    ("math.floor(x) + 1", "math.floor(x) + 2", "SOURCE_CHANGED"),   # a module the file imports
    ("math.floor(x) + 1", "math.floor(x)  +  1", None),              # spacing only
])
def test_an_edited_def_at_the_margin_is_caught(tmp_path, parse, old, new, changed):
    module, path = _load(tmp_path)
    path.write_text(MODULE.replace(old, new), encoding="utf-8")
    linecache.checkcache()
    verdict = inspect_utils.source_changed(module.uses_module, parser.get_source, parse)
    assert verdict == (None if changed is None else inspect_utils.SOURCE_CHANGED)


@pytest.mark.parametrize("name, writes", [
    ("advances", ((11, "return x + next(ITEMS)"),)),     # no attribute, no subscript: next()
    ("sets_item", ((15, 'd["k"] = x'),)),
    ("pure", ()),
    ("uses_module", ()),
])
def test_object_writes_are_found_where_there_are_some(tmp_path, name, writes):
    module, _ = _load(tmp_path)
    assert conversion.convert_entity(getattr(module, name)).object_writes == writes


STRAIGHT = '''\
G = 0


def rebinds_global(x):
    global G
    G = x
    return x


def straight(x):
    y = x * 2
    return y + 1


def reads_locals(x):
    y = x + 1
    return sorted(locals())
'''


@pytest.mark.parametrize("name, arg, result, present, absent", [
    ("rebinds_global", 3, 3, "ag__.outer_writes('rebinds_global', ('G',))", "if_stmt"),
    ("straight", 3, 7, "y = x * 2", "Undefined"),
    ("reads_locals", 1, ["x", "y"], "ag__.user_locals", "if_stmt"),
])
def test_functions_without_control_flow_convert_as_before(tmp_path, name, arg, result, present,
                                                          absent):
    module, _ = _load(tmp_path, STRAIGHT)
    fn = getattr(module, name)
    entity = conversion.convert_entity(fn)
    assert present in entity.source and absent not in entity.source, entity.source
    assert entity.make_function(fn)(arg) == result
