"""The check shared by the table-driven op tests: a record's result (one
tensor or a tuple of them) against its float64 reference.

    check_record(rec, got, atol_factor=1e-3)

`rec` has `ref` (an array or a tuple of arrays), `dtype` and `rtol`; the
result must have that dtype, the reference's shape (also statically) and
values within rtol (atol = rtol * atol_factor).

`Rec` is such a record; `check_eager(rec)` and `check_in_function(rec)` run
its function on constants eagerly and inside `tf.function` (there also
checking the static shapes seen while tracing).
"""

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
