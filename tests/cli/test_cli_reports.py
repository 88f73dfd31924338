"""The CLI says what it did: `export` prints what it wrote and what `--verify`
checked; a wrong number of `--signature` specs is bad input (status 2); a
misspelt function name lists the module's functions only (no classes).

Run in process through `main(argv)`, which returns the exit status.
"""

import os

import pytest

from autograph.cli.graph import _check_arity
from autograph.cli.main import main
from autograph.cli.source import CliError
from conftest import MODULES

TENSOR_MATH = os.path.join(MODULES, "tensor_math.py")

MODULE = """import runtime as tf


class Net:
    def call(self, x):
        return x


@tf.function
def step(x):
    return x + 1


def total(n, m):
    return n * m + 1
"""


@pytest.fixture
def module(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(MODULE)
    return str(path)


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_verify_says_what_it_wrote_and_checked(module, tmp_path, capsys):
    pytest.importorskip("onnx", reason="onnx is not installed (pip install -e '.[onnx]')")
    pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")
    out_path = str(tmp_path / "total.onnx")
    code, out, err = _run(capsys, "export", f"{module}::total", "--signature",
                          "float32[None,3], float32[]", "--verify", "-o", out_path)
    assert code == 0, err
    assert out.splitlines() == [
        f"wrote {out_path}: ONNX opset 17, 4 nodes, inputs (n: float32[?,3], m: float32[]), "
        "outputs (float32[?,3])",
        "verified: ONNX Runtime and our executor agree on 1 output for random inputs "
        "(n: float32[2,3], m: float32[]) within rtol 1e-05, atol 1e-05"]
    assert os.path.getsize(out_path) > 0
    code, out, err = _run(capsys, "export", f"{module}::step", "--signature", "int32[]",
                          "--opset", "13", "-o", out_path)
    assert code == 0, err
    assert out == (f"wrote {out_path}: ONNX opset 13, 3 nodes, inputs (x: int32[]), "
                   "outputs (int32[])\n")


@pytest.mark.parametrize("command", ["graph", "export"])
@pytest.mark.parametrize("func, specs, message", [
    ("total", "int32[]", "--signature: 1 spec for {mod}::total, which takes 2 positional "
     "arguments"),
    ("step", "int32[], int32[]", "--signature: 2 specs for {mod}::step, which takes 1 "
     "positional argument"),
    ("total", "", "--signature: 0 specs for {mod}::total, which takes 2 positional "
     "arguments"),
])
def test_wrong_number_of_specs_is_bad_input(module, tmp_path, capsys, command, func, specs,
                                            message):
    argv = [command, f"{module}::{func}", "--signature", specs]
    if command == "export":
        pytest.importorskip("onnx", reason="onnx is not installed")
        argv += ["-o", str(tmp_path / "m.onnx")]
    code, out, err = _run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"autograph: error: {message.format(mod=module)}\n"
    assert not os.path.exists(tmp_path / "m.onnx")


def _f0():
    pass


def _f_default(a, b=1):
    pass


def _f_star(a, *rest):
    pass


@pytest.mark.parametrize("fn, good, bad, takes", [
    (_f0, [0], [1], "0 positional arguments"),
    (_f_default, [1, 2], [0, 3], "1 to 2 positional arguments"),
    (_f_star, [1, 5], [0], "at least 1 positional argument"),
    (lambda x, *, k=1: x, [1], [2], "1 positional argument"),
])
def test_arity_bounds(fn, good, bad, takes):
    for count in good:
        _check_arity(fn, count, "f.py::f")
    for count in bad:
        with pytest.raises(CliError, match=f"which takes {takes}$") as info:
            _check_arity(fn, count, "f.py::f")
        assert info.value.code == 2


def test_misspelt_function_lists_functions_only(module, capsys):
    code, out, err = _run(capsys, "graph", f"{module}::totl", "--signature", "int32[]")
    assert (code, out) == (2, "")
    assert err == (f"autograph: error: {module}: no function named 'totl' "
                   "(functions found: step, total)\n")
