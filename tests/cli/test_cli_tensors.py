"""Converted modules on tensors: `runtime.function` over the CLI's output gives
the same values, dtypes and shapes as over the original module."""

import os

import numpy as np
import pytest

from conftest import MODULES, import_file, run_cli

import runtime  # an import error must fail the module loudly


# (module, function, argument builders: each a zero-argument lambda, so the
# tensors are created fresh for each side)
CASES = [
    ("tensor_math", "affine", lambda: (runtime.constant([1.0, 2.0]), runtime.constant(0.5))),
    ("tensor_math", "clipped", lambda: (runtime.constant(3.0), runtime.constant(2.0))),
    ("tensor_math", "clipped", lambda: (runtime.constant(1.0), runtime.constant(2.0))),
    ("tensor_math", "countdown_sum", lambda: (runtime.constant(10),)),
    ("tensor_math", "countdown_sum", lambda: (runtime.constant(0),)),
    ("tensor_math", "decorated_square", lambda: (runtime.constant([3, 4]),)),
    ("numeric_loops", "collatz_steps", lambda: (runtime.constant(27),)),
    ("numeric_loops", "gcd", lambda: (runtime.constant(1071), runtime.constant(462))),
    ("numeric_loops", "fibonacci", lambda: (runtime.constant(10),)),
    ("numeric_loops", "digits_reversed", lambda: (runtime.constant(12034),)),
    ("numeric_loops", "sum_of_odd_squares", lambda: (runtime.constant(10),)),
]


def _import(path):
    return import_file(path, "_cli_tensors")


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("tensors")
    pairs = {}
    for name in sorted({c[0] for c in CASES}):
        src = os.path.join(MODULES, f"{name}.py")
        dst = str(out_dir / f"{name}_ag.py")
        proc = run_cli("convert", src, "-o", dst)
        assert proc.returncode == 0, proc.stderr
        pairs[name] = (_import(src), _import(dst))
    return pairs


def _as_function(fn):
    return fn if hasattr(fn, "get_concrete_function") else runtime.function(fn)


@pytest.mark.parametrize("module, func, make_args", CASES,
                         ids=[f"{m}.{f}-{i}" for i, (m, f, _) in enumerate(CASES)])
def test_tensor_results_match(modules, module, func, make_args):
    original, converted = modules[module]
    expected = _as_function(getattr(original, func))(*make_args())
    got = _as_function(getattr(converted, func))(*make_args())
    assert got.dtype == expected.dtype
    assert tuple(got.shape) == tuple(expected.shape)
    np.testing.assert_array_equal(got.numpy(), expected.numpy())
