"""The check shared by the table-driven op tests: a record's result (one
tensor or a tuple of them) against its float64 reference.

    check_record(rec, got, atol_factor=1e-3)

`rec` has `ref` (an array or a tuple of arrays), `dtype` and `rtol`; the
result must have that dtype, the reference's shape (also statically) and
values within rtol (atol = rtol * atol_factor).
"""

import numpy as np


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
