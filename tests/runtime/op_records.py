"""The check shared by the table-driven op tests: a record's result (one
tensor or a tuple of them) against its float64 reference.

    check_record(rec, got, atol_factor=1e-3)

`rec` has `ref` (an array or a tuple of arrays), `dtype` and `rtol`; the
result must have that dtype, the reference's shape (also statically) and
values within rtol (atol = rtol * atol_factor).

`Rec` is such a record; `check_eager(rec)` and `check_in_function(rec)` run
its function on constants eagerly and inside `tf.function` (there also
checking the static shapes seen while tracing).

`TABLES` names the modules holding such tables (each a `RECORDS` list), and
`inputs_and_call(rec)` gives a record's array inputs and a function of those
tensors calling it: the ONNX export and the jit_compile tests replay every
table through their paths.
"""

import importlib

import numpy as np

import runtime as tf


def check_record(rec, got, atol_factor=1e-3):
    refs = rec.ref if isinstance(rec.ref, tuple) else (rec.ref,)
    gots = got if isinstance(got, tuple) else (got,)
    assert len(gots) == len(refs)
    for g, r in zip(gots, refs):
        r = np.asarray(r, np.float64)
        value = g.numpy()
        assert g.dtype.np_dtype == np.dtype(rec.dtype), (g.dtype, rec.dtype)
        assert value.shape == r.shape, (value.shape, r.shape)
        assert tuple(g.shape) == r.shape
        np.testing.assert_allclose(value.astype(np.float64), r, rtol=rec.rtol,
                                   atol=rec.rtol * atol_factor)


class Rec:
    """`fn(*args, **kw)` equals `ref` (an array or a tuple of them) with `dtype`."""

    def __init__(self, name, fn, args, kw, ref, dtype, rtol=1e-5):
        self.name, self.fn, self.args, self.kw = name, fn, args, kw
        self.ref, self.dtype, self.rtol = ref, dtype, rtol

    def __repr__(self):
        return self.name


def check_eager(rec, atol_factor=1e-3):
    check_record(rec, rec.fn(*[tf.constant(a) for a in rec.args], **rec.kw), atol_factor)


def check_in_function(rec, atol_factor=1e-3):
    traced = []

    def body(*args):
        out = rec.fn(*args, **rec.kw)
        traced.append(tuple(tuple(o.shape) for o in out) if isinstance(out, tuple)
                      else tuple(out.shape))
        return out
    check_record(rec, tf.function(body)(*[tf.constant(a) for a in rec.args]), atol_factor)
    refs = rec.ref
    want = tuple(np.shape(r) for r in refs) if isinstance(refs, tuple) else np.shape(refs)
    assert traced == [want]                        # the static shape while tracing


TABLES = ["ops.test_ops", "ops.nn.test_nn_activations_losses", "ops.array.test_shapes_indexing",
          "ops.math.test_clip_truncate", "ops.math.test_linalg", "ops.math.test_reductions_scans",
          "ops.math.test_math_elementwise", "ops.nn.test_nn_conv_pool", "ops.nn.test_rnn_ops"]


def table_records():
    """[(table, record)] of every table in `TABLES`."""
    out = []
    for table in TABLES:
        module = importlib.import_module(f"tests.runtime.{table}")
        out.extend((table, rec) for rec in module.RECORDS)
    return out


def _is_input(a):
    return isinstance(a, (np.ndarray, np.generic))


def inputs_and_call(rec):
    """(the record's numpy inputs, a function of those tensors calling it)."""
    inputs = []
    for a in rec.args:
        if _is_input(a):
            inputs.append(np.asarray(a))
        elif isinstance(a, list):
            inputs.extend(np.asarray(v) for v in a if _is_input(v))
    kwargs = getattr(rec, "kw", None) or getattr(rec, "kwargs", None) or {}

    def call(*tensors):
        it = iter(tensors)
        args = []
        for a in rec.args:
            if _is_input(a):
                args.append(next(it))
            elif isinstance(a, list) and any(_is_input(v) for v in a):
                args.append([next(it) if _is_input(v) else v for v in a])
            else:
                args.append(a)
        return rec.fn(args) if getattr(rec, "listarg", False) else rec.fn(*args, **kwargs)
    return inputs, call
