"""Zero-argument `super()` inside converted control flow in CLI output modules:
the converted methods give the same results as the originals, on Python values
(the `if`/`while` run as Python) and on tensors (staged by `runtime.function`)."""

import os

import numpy as np
import pytest

from conftest import MODULES, import_file, run_cli


def _import(path):
    return import_file(path, "_cli_super")


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    src = os.path.join(MODULES, "super_calls.py")
    dst = str(tmp_path_factory.mktemp("super") / "super_calls_ag.py")
    proc = run_cli("convert", src, "-o", dst)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return _import(src), _import(dst)


def test_methods_using_super_are_converted(pair):
    _, converted = pair
    with open(converted.__file__, encoding="utf-8") as f:
        text = f.read()
    assert text.count("super(__class__, self)") == 6
    assert "super().scale" not in text and "super().describe" not in text


@pytest.mark.parametrize("cls, method, arg", [
    ("Child", "scale", 3), ("Child", "scale", -4), ("Child", "scale", 0),
    ("Child", "describe", True), ("Child", "describe", False),
    ("Child", "total", 5), ("Child", "total", 0),
    ("GrandChild", "scale", 20), ("GrandChild", "scale", 2), ("GrandChild", "scale", -1),
    ("GrandChild", "total", 4),
])
def test_super_on_python_values(pair, cls, method, arg):
    original, converted = pair
    expected = getattr(getattr(original, cls)(), method)(arg)
    got = getattr(getattr(converted, cls)(), method)(arg)
    assert type(got) is type(expected) and got == expected


import runtime  # an import error must fail the module loudly


@pytest.mark.parametrize("cls, method, arg, expected", [
    ("Child", "scale", 3, 7), ("Child", "scale", -4, 8),
    ("GrandChild", "scale", 20, 410), ("GrandChild", "scale", 2, 5),
    ("Child", "total", 5, 20), ("GrandChild", "total", 3, 6),
])
def test_super_inside_staged_control_flow(pair, cls, method, arg, expected):
    original, converted = pair
    results = []
    for module in (original, converted):
        fn = runtime.function(getattr(getattr(module, cls)(), method))
        out = fn(runtime.constant(arg))
        results.append(out)
        assert fn.experimental_get_tracing_count() == 1
    for out in results:
        assert out.dtype == runtime.int32 and tuple(out.shape) == ()
        np.testing.assert_array_equal(out.numpy(), expected)
