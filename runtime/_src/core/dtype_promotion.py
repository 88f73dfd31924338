"""TensorFlow's auto dtype conversion: the 'all' and 'safe' modes of
`tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=...)`.

A value's type here is a pair (DType, weak). A Python int is (int32, weak),
a float (float32, weak), a complex (complex128, weak); tensors, variables and
numpy values are strong (weak=False); a `WeakTensor` (ops/weak_tensor.py)
keeps its weakness. `result_type(a, b)` is TF 2.21's promotion of two such
types, a lattice after JAX's:

  - two strong types: bool defers to anything; ints, uints, floats and
    complexes of one kind give the wider; a uint and an int give the int if it
    is wider, else the signed int of twice the uint's width (a uint64 and any
    int give a weak float64); an integer and a float give the float (of any
    width: int64 + float16 is float16); a float and a complex the complex,
    complex128 for float64 + complex64;
  - a weak int defers to any strong type (bool + weak int is a weak int32);
  - a weak float defers to strong floats and complexes, makes a weak float of
    bool, and a weak float64 of any integer;
  - a weak complex defers to strong complexes, gives complex64 with float16
    or float32, complex128 with float64, and a weak complex128 with bools and
    integers;
  - two weak types give the weak type of the higher kind (the wider of one
    kind).

'safe' mode refuses what may lose precision or widen bits (TypeError): two
strong types whose result is neither of them or cannot hold both exactly, a
weak float with an integer, and a weak complex with a 64-bit integer or with
float16/float32. The tables of tests/data/weak_promotion.json (recorded
from TF 2.21) check every pair.
"""

import numbers

import numpy as np

from runtime._src.core import dtypes

__all__ = ["mode", "set_mode", "numpy_behavior", "result_type", "python_type",
           "promotion_error"]

_MODES = {"all", "safe"}
_mode = [None]       # None: TF's default semantics (or NumPy's 'legacy' promotion)
_numpy = [False]     # experimental_enable_numpy_behavior in effect (any mode)


def mode():
    """'all', 'safe', or None when auto dtype conversion is off."""
    return _mode[0]


def numpy_behavior():
    """Whether tnp.experimental_enable_numpy_behavior is in effect (any mode)."""
    return _numpy[0]


def set_mode(name):
    """The numpy behaviour's dtype_conversion_mode ('legacy', 'off', 'all', 'safe'),
    or None when it is turned off."""
    _mode[0] = name if name in _MODES else None
    _numpy[0] = name is not None


def _kind(dtype):
    return dtype.np_dtype.kind          # 'b', 'u', 'i', 'f' or 'c'


def _bits(dtype):
    return dtype.np_dtype.itemsize * 8


def _wider(a, b):
    return a if _bits(a) >= _bits(b) else b


_INT = {8: dtypes.int8, 16: dtypes.int16, 32: dtypes.int32, 64: dtypes.int64}
_F64 = dtypes.float64
_C64, _C128 = dtypes.complex64, dtypes.complex128


def _strong(a, b):
    """The promotion of two strong dtypes: (DType, weak)."""
    if a is b:
        return a, False
    ka, kb = _kind(a), _kind(b)
    if "buifc".index(ka) > "buifc".index(kb):
        a, b, ka, kb = b, a, kb, ka
    if ka == "b":
        return b, False
    if ka == kb:
        return _wider(a, b), False
    if ka == "u" and kb == "i":
        if _bits(a) < _bits(b):
            return b, False
        return (_F64, True) if _bits(a) == 64 else (_INT[2 * _bits(a)], False)
    if ka in "ui":
        return b, False
    # a float and a complex
    return (_C128 if a is _F64 else b), False


def _weak_strong(w, s):
    """The promotion of a weak dtype `w` and a strong one `s`."""
    kw, ks = _kind(w), _kind(s)
    if kw in "bui":
        return (w, True) if ks == "b" and kw != "b" else (s, False)
    if kw == "f":
        if ks == "b":
            return w, True
        return (_F64, True) if ks in "ui" else (s, False)
    # a weak complex
    if ks in "bui":
        return _C128, True
    if ks == "f":
        return (_C128 if s is _F64 else _C64), False
    return s, False


def _weak_weak(a, b):
    ka, kb = _kind(a), _kind(b)
    if ka == kb:
        return _wider(a, b), True
    return (a if "buifc".index(ka) > "buifc".index(kb) else b), True


def result_type(a, b):
    """The promoted (DType, weak) of two (DType, weak) operand types; in
    'safe' mode a TypeError where TF refuses the promotion."""
    (da, wa), (db, wb) = a, b
    if wa and wb:
        out = _weak_weak(da, db)
    elif wa:
        out = _weak_strong(da, db)
    elif wb:
        out = _weak_strong(db, da)
    else:
        out = _strong(da, db)
    if _mode[0] == "safe" and not _safe(a, b, out):
        raise promotion_error(a, b)
    return out


def _safe(a, b, out):
    (da, wa), (db, wb) = a, b
    if wa and wb:
        return True
    if wa or wb:
        (w, _), (s, _) = (a, b) if wa else (b, a)
        kw, ks = _kind(w), _kind(s)
        if kw == "f":
            return ks not in "ui"
        if kw == "c":
            return not ((ks in "ui" and _bits(s) == 64) or s in (dtypes.float16, dtypes.float32))
        return True
    dtype, weak = out
    return (not weak and dtype in (da, db) and _exact(da, dtype) and _exact(db, dtype))


_MANTISSA = {"float16": 11, "float32": 24, "float64": 53, "complex64": 24, "complex128": 53}


def _exact(src, dst):
    """Whether every value of dtype `src` is exactly a value of `dst`."""
    if src is dst or _kind(src) == "b":
        return True
    ks, kd = _kind(src), _kind(dst)
    if ks in "ui":
        digits = _bits(src) - (ks == "i")
        if kd == "u":
            return ks == "u" and _bits(dst) >= _bits(src)
        if kd == "i":
            return _bits(dst) - 1 >= digits
        return _MANTISSA[dst.name] >= digits
    if ks == "f":
        return (kd == "f" and _bits(dst) >= _bits(src)) or \
            (kd == "c" and _MANTISSA[dst.name] >= _MANTISSA[src.name])
    return kd == "c" and _bits(dst) >= _bits(src)


def promotion_error(a, b):
    def show(t):
        return f"(<dtype: '{t[0].name}'>, weak={t[1]})"
    return TypeError(
        f"In promotion mode PromoMode.SAFE, implicit dtype promotion between {show(a)} and "
        f"{show(b)} is disallowed. You need to explicitly specify the dtype in your op, or "
        "relax your dtype promotion rules (such as from SAFE mode to ALL mode).")


def python_type(value):
    """(DType, weak) of a Python number or a (nested) list of them; None for
    anything else. Python ints are int32 (OverflowError outside its range, as
    in TF), floats float32, complexes complex128, bools strong bool."""
    if isinstance(value, bool):
        return dtypes.bool, False
    if isinstance(value, numbers.Integral) and not isinstance(value, np.generic):
        if not -2**31 <= value < 2**31:
            raise OverflowError(f"Python int {value} does not fit in the weak int32 that "
                                "auto dtype conversion gives Python ints")
        return dtypes.int32, True
    if isinstance(value, float):
        return dtypes.float32, True
    if isinstance(value, complex):
        return dtypes.complex128, True
    if isinstance(value, (list, tuple)) and value:
        types = [python_type(v) for v in value]
        if any(t is None for t in types):
            return None
        out = types[0]
        for t in types[1:]:
            out = _weak_weak(out[0], t[0]) if out[1] and t[1] else result_type(out, t)
        return out
    return None
