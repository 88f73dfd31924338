"""The op records (the tables of tests/runtime/op_records.py) replayed through
`tf.function(jit_compile=True)`: XLA's values equal the executor's.

Each record's function is traced on its arrays. Records that together use
every op with a JAX rule are compiled (90 of them), many records to one XLA
program (a compile costs more than all their runs); `JIT_ALL_RECORDS=1`
compiles every record (minutes). The ops with no JAX rule are listed with the reason
(a new op without a rule fails here until it has one or is listed), and the
records the lowering refuses with the words it says.
"""

import os
import warnings

import numpy as np
import pytest

pytest.importorskip("jax")

import runtime as tf  # noqa: E402
from runtime._src.jit import lower  # noqa: E402
from runtime._src.jit.program import JitCompileWarning, JitProgram, unsupported_ops  # noqa: E402
from tests.runtime.op_records import inputs_and_call, table_records  # noqa: E402

_DYNAMIC = "its output's shape depends on the input values (XLA needs static shapes)"
_TODO = "no JAX rule yet"

# op -> why it has no JAX rule (these records run on the executor, warned)
NO_RULE = {
    "Where": _DYNAMIC, "Unique": _DYNAMIC, "UniqueWithCounts": _DYNAMIC,
    "Const (a string value)": "strings are not XLA values",
    "Bitcast": _TODO, "BitwiseAnd": _TODO, "BitwiseOr": _TODO, "BitwiseXor": _TODO,
    "Invert": _TODO, "LeftShift": _TODO, "RightShift": _TODO, "Cholesky": _TODO,
    "Diag": _TODO, "DiagPart": _TODO, "EuclideanNorm": _TODO, "GatherNd": _TODO,
    "LinSpace": _TODO, "LogMatrixDeterminant": _TODO, "LowerBound": _TODO,
    "UpperBound": _TODO, "MatrixDiagPartV3": _TODO, "MatrixDiagV3": _TODO,
    "MatrixInverse": _TODO, "MatrixSolve": _TODO, "MatrixSolveLs": _TODO,
    "MatrixTriangularSolve": _TODO, "Repeat": _TODO, "ScatterNd": _TODO, "Svd": _TODO,
    "TensorScatterAdd": _TODO, "TensorScatterMax": _TODO, "TensorScatterMin": _TODO,
    "TensorScatterSub": _TODO, "TensorScatterUpdate": _TODO, "TopKV2": _TODO,
}

# record -> the words of the lowering's refusal (the function runs on the
# executor after a JitCompileWarning saying them, the op and its line)
REFUSED = {
    "reduce_mean_int": "an integer Mean",
    "range_tensor_limit": "a Range with bounds computed at run time is an output",
    "reshape_tensor_shape": "Reshape's shape must be known",
    "sequence_mask": "a Range with bounds computed at run time used by Less",
    "sequence_mask_empty": "a Range with bounds computed at run time used by Less",
    "band_part_int64_bounds": "the band must be known",
    "conv2d_batch_dims": "Conv2D on inputs of rank other than 4",
    "max_pool2d_int32": "MaxPool of integers",
    **{f"cumprod_{case}": "an exclusive Cumprod" for case in (
        "0_True_False", "0_True_True", "1_True_False", "1_True_True", "-1_True_False",
        "-1_True_True", "int", "3d", "empty")},
}

ALL = os.environ.get("JIT_ALL_RECORDS") == "1"
CHUNK = 60          # records per compiled program


@pytest.fixture(scope="module")
def traced():
    return trace_records()


def trace_records():
    """[(record, inputs, call, graph, ops without a rule)] of every table."""
    out = []
    for _, rec in table_records():
        inputs, call = inputs_and_call(rec)
        signature = [tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in inputs]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            graph = tf.function(call, input_signature=signature,
                                autograph=False).get_concrete_function().graph
        out.append((rec, inputs, call, graph, [op for op, _ in unsupported_ops(graph)]))
    return out


def test_every_op_without_a_rule_is_listed(traced):
    missing = {op for *_, ops in traced for op in ops}
    assert sorted(missing) == sorted(NO_RULE)


def _lowered(graph, inputs):
    """Trace `graph`'s JAX program (no XLA compile); raises what lowering raises."""
    jax = lower.load_jax()
    program = JitProgram(graph, "record")
    with jax.enable_x64(True):
        jax.eval_shape(program._lowered, list(inputs), [v._value for v in program.variables])


def test_the_records_the_lowering_refuses_say_why(traced):
    by_name = {rec.name: (inputs, graph) for rec, inputs, _, graph, _ in traced}
    for name, words in REFUSED.items():
        inputs, graph = by_name[name]
        with pytest.raises(lower.Unsupported, match=rf"{words}.* \(op \w+ at \S+:\d+\)"):
            _lowered(graph, inputs)


def _chosen(traced):
    """The records to compile: every one (ALL), else few that use every op
    with a rule (greedily, the record using the most ops not yet used)."""
    usable = [(rec, inputs, call, graph) for rec, inputs, call, graph, missing in traced
              if not missing and rec.name not in REFUSED]
    if ALL:
        return usable
    ops = [{n.op for n in graph.nodes} - {"Placeholder"} for *_, graph in usable]
    left, chosen = set().union(*ops), []
    while left:
        best = max(range(len(usable)), key=lambda i: len(ops[i] & left))
        chosen.append(usable[best])
        left -= ops[best]
    return chosen


def _batch(items):
    """One function running every record of `items` (its inputs flat)."""
    def run_all(*tensors):
        outs, k = [], 0
        for _, inputs, call, _ in items:
            outs.append(call(*tensors[k:k + len(inputs)]))
            k += len(inputs)
        return outs
    flat = [a for _, inputs, _, _ in items for a in inputs]
    signature = [tf.TensorSpec(a.shape, tf.as_dtype(a.dtype)) for a in flat]
    return run_all, signature, flat


def _refused(items):
    """{record: why} of the `items` whose lowering raises."""
    found = {}
    for rec, inputs, _, graph in items:
        try:
            _lowered(graph, inputs)
        except Exception as e:  # noqa: BLE001 - reported
            found[rec.name] = f"{type(e).__name__}: {e}"
    return found


def _flat(out):
    return [np.asarray(o) for o in (out if isinstance(out, (tuple, list)) else (out,))]


def test_op_records_compiled_equal_the_executor(traced):
    chosen = _chosen(traced)
    for start in range(0, len(chosen), CHUNK):
        items = chosen[start:start + CHUNK]
        fn, signature, flat = _batch(items)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)       # log(0) and friends
            want = tf.function(fn, input_signature=signature, autograph=False)(*flat)
            warnings.simplefilter("error", JitCompileWarning)
            try:
                got = tf.function(fn, input_signature=signature, autograph=False,
                                  jit_compile=True)(*flat)
            except JitCompileWarning as e:
                pytest.fail(f"{e}; refused: {_refused(items)}")
        for (rec, *_), a, b in zip(items, want, got):
            for x, y in zip(_flat(a), _flat(b)):
                assert (y.dtype, y.shape) == (x.dtype, x.shape), rec.name
                rtol = max(getattr(rec, "rtol", 1e-5), 1e-5)
                if x.dtype.kind in "fc":     # to rounding at the output's scale
                    scale = max(float(np.abs(x[np.isfinite(x)]).max(initial=0)), 1.0)
                    np.testing.assert_allclose(y, x, rtol=rtol, atol=rtol * scale,
                                               err_msg=rec.name)
                else:
                    np.testing.assert_array_equal(y, x, err_msg=rec.name)
