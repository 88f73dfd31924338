"""Where each op's pieces live (tools/op_map.py prints the whole map): every op
knows the module that defines it and the one that gives its gradient, a
gradient rule sits beside its op, ops outside runtime/_src/ops are defined
only by the packages listed here, and no module of ops/ is over 600 lines."""

import importlib
import sys
from pathlib import Path

import pytest

import runtime  # noqa: F401 - registers every op
from runtime._src.graph.op_registry import NOT_DIFFERENTIABLE, OPS

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
op_map = importlib.import_module("op_map")
sys.path.remove(str(ROOT / "tools"))

# The packages that define ops of their own outside ops/, and why those ops
# belong to them (ops over composite values, state, files or control flow).
OUTSIDE_OPS = {
    "runtime._src.sparse": "SparseTensor ops on (indices, values, dense_shape)",
    "runtime._src.io": "parsing, decoding and file ops of tf.io",
    "runtime._src.function": "Variable reads and writes, loop accumulators, generators",
    "runtime._src.data": "iterator and dataset-source ops of tf.data",
    "runtime._src.ragged": "RaggedTensor ops on (values, row splits)",
    "runtime._src.autodiff": "the ops a gradient needs (custom_gradient replay, taped calls)",
    "runtime._src.distribute": "replica-context ops (collectives)",
    "runtime._src.exec": "If and While, run by the executor over subgraphs",
    "runtime._src.summary": "the summary-writing op",
}

# Gradient rules kept away from their op, because they differentiate a
# subgraph or a Python function (autodiff's own machinery).
GRADIENT_ELSEWHERE = {
    "If": "runtime._src.autodiff.control_flow_grad",
    "While": "runtime._src.autodiff.control_flow_grad",
    "LoopAccumulatorRead": "runtime._src.autodiff.control_flow_grad",
    "EagerPyFunc": "runtime._src.autodiff.py_function_grad",
}

def _project_table():
    """The map of the project's ops. Test modules may define ops of their own
    (test doubles); they are left out, whatever the order tests ran in."""
    return {row[0]: row[1:] for row in op_map.rows()
            if (row[1] or "").startswith("runtime.")}


TABLE = _project_table()


def test_every_op_knows_its_module():
    assert all(getattr(opdef, "module", None) for opdef in OPS.values())
    project = [n for n, opdef in OPS.items() if opdef.module.startswith("runtime.")]
    table = _project_table()
    assert sorted(table) == sorted(project) and len(project) > 400
    assert all(module.startswith("runtime._src.") for module, _, _ in table.values())


def test_ops_outside_ops_are_defined_only_by_the_listed_packages():
    used = {op_map.package(module) for module, _, _ in _project_table().values()}
    assert used - {op_map.OPS_PACKAGE} == set(OUTSIDE_OPS)


def test_every_gradient_rule_sits_beside_its_op():
    away = {}
    for name, opdef in OPS.items():
        if opdef.grad in (None, NOT_DIFFERENTIABLE):
            continue
        module, _, grad = TABLE[name]
        beside = {module, module.replace("_ops", "_grad_ops")}   # tensor_array_grad_ops
        if grad not in beside:
            away[name] = grad
    assert away == GRADIENT_ELSEWHERE


@pytest.mark.parametrize("name, module, grad", [
    ("AddV2", "runtime._src.ops.arithmetic_ops", "runtime._src.ops.arithmetic_ops"),
    ("Sin", "runtime._src.ops.unary_math_ops", "runtime._src.ops.unary_math_ops"),
    ("ComplexAbs", "runtime._src.ops.complex_ops", "runtime._src.ops.complex_ops"),
    ("MatMul", "runtime._src.ops.matmul_ops", "runtime._src.ops.matmul_ops"),
    ("Less", "runtime._src.ops.comparison_ops", "none"),
    ("TensorArrayReadV3", "runtime._src.ops.tensor_array_ops",
     "runtime._src.ops.tensor_array_grad_ops"),
    ("TensorArrayGradAdd", "runtime._src.ops.tensor_array_grad_ops",
     "runtime._src.ops.tensor_array_grad_ops"),
    ("While", "runtime._src.exec.control_flow_ops", "runtime._src.autodiff.control_flow_grad"),
])
def test_the_map_names_these_ops_modules(name, module, grad):
    assert (TABLE[name][0], TABLE[name][2]) == (module, grad)


def test_no_ops_module_is_over_600_lines():
    sizes = {path.name: len(path.read_text().splitlines())
             for path in (ROOT / "runtime" / "_src" / "ops").glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 600} == {}
