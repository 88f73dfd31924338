"""Data types of tensors, with TensorFlow's names.

A `DType` wraps a numpy dtype and adds the name users know (`int32`,
`float32`, `string`). Python values convert by TensorFlow's rules:
`int` -> int32 (int64 when it does not fit int32), `float` -> float32,
`complex` -> complex128, `bool` -> bool, `str` -> string; a numpy array keeps
its own dtype. `str(float32)` is `<dtype: 'float32'>`, `repr` is `tf.float32`,
as in TensorFlow.

    >>> as_dtype("float32")
    tf.float32
    >>> dtype_of_python(3)
    tf.int32
    >>> dtype_of_python(2**40)
    tf.int64
"""

import ml_dtypes
import numpy as np

__all__ = [
    "DType", "as_dtype", "dtype_of_python", "is_float_array",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "string",
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz",
    "int4", "uint4", "float4_e2m1fn", "int2", "uint2", "NARROW",
]

_builtin_bool = bool


class DType:
    """A tensor element type. Compare with `==`; `name` is TensorFlow's name."""

    __slots__ = ("name", "np_dtype", "is_integer", "is_floating", "is_bool",
                 "is_string", "is_unsigned", "is_complex", "_limits")

    def __init__(self, name, np_dtype, kind=None):
        self.name = name
        self.np_dtype = np.dtype(np_dtype)
        kind = kind or self.np_dtype.kind     # ml_dtypes' types are kind "V" to numpy
        self.is_integer = kind in "iu"
        self.is_unsigned = kind == "u"
        self.is_floating = kind == "f"
        self.is_complex = kind == "c"
        self.is_bool = kind == "b"
        self.is_string = kind in "OUS"
        info = ml_dtypes.iinfo if self.is_integer else ml_dtypes.finfo if self.is_floating else None
        self._limits = None if info is None else (info(self.np_dtype).min, info(self.np_dtype).max)

    @property
    def as_numpy_dtype(self):
        return self.np_dtype.type

    @property
    def is_numeric(self):
        return self.is_integer or self.is_floating or self.is_complex

    @property
    def real_dtype(self):
        """float32 for complex64, float64 for complex128, else the dtype itself."""
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    @property
    def size(self):
        """Bytes a value takes: 2 for bfloat16; 0 for string and variant, as TF."""
        return 0 if self.np_dtype.kind == "O" else self.np_dtype.itemsize

    @property
    def as_datatype_enum(self):
        """TF's DataType enum number (types.proto): 1 for float32, 14 for bfloat16."""
        return 21 if self is variant else _ENUM[self]      # 21: DT_VARIANT

    @property
    def base_dtype(self):
        return self                  # no reference dtypes here

    @property
    def is_quantized(self):
        return False                 # TF's qint8 and kin do not exist here

    @property
    def is_numpy_compatible(self):
        return self is not variant

    def is_compatible_with(self, other):
        """Whether `other` (a DType or anything `tf.as_dtype` takes) is this dtype;
        TypeError for what is no dtype, as TF."""
        return public_as_dtype(other) is self

    @property
    def min(self):
        return self._numeric_limits()[0]

    @property
    def max(self):
        return self._numeric_limits()[1]

    def _numeric_limits(self):
        if self._limits is None:
            raise TypeError(f"{self.name} has no minimum or maximum (not a numeric dtype)")
        return self._limits

    def __eq__(self, other):
        """TF's rule: equal to anything `as_dtype` turns into this dtype (a
        name, a numpy dtype or type), never an error (`tf.float32 == 'x'` is
        False)."""
        if other is self or isinstance(other, DType):
            return other is self
        try:
            return public_as_dtype(other) is self
        except TypeError:
            return False

    def __ne__(self, other):
        return other is not self and not self.__eq__(other)

    __hash__ = object.__hash__     # the dtypes are singletons (see __reduce__)

    def __repr__(self):
        return f"tf.{self.name}"

    def __str__(self):
        return f"<dtype: '{self.name}'>"      # TensorFlow 2.21's str(tf.float32)

    def __reduce__(self):
        return as_dtype, (self.name,)


bool = DType("bool", np.bool_)  # TensorFlow's public name
int8 = DType("int8", np.int8)
int16 = DType("int16", np.int16)
int32 = DType("int32", np.int32)
int64 = DType("int64", np.int64)
uint8 = DType("uint8", np.uint8)
uint16 = DType("uint16", np.uint16)
uint32 = DType("uint32", np.uint32)
uint64 = DType("uint64", np.uint64)
float16 = DType("float16", np.float16)
bfloat16 = DType("bfloat16", ml_dtypes.bfloat16, "f")   # numpy's via ml_dtypes, as TF's
float32 = DType("float32", np.float32)
float64 = DType("float64", np.float64)
complex64 = DType("complex64", np.complex64)
complex128 = DType("complex128", np.complex128)
string = DType("string", np.object_)

# tf.experimental's 8-bit floats and 4-bit integers (ml_dtypes' types, as TF's):
# they are cast to and from and moved (reshape, concat, gather...), not computed with.
float8_e4m3fn = DType("float8_e4m3fn", ml_dtypes.float8_e4m3fn, "f")
float8_e5m2 = DType("float8_e5m2", ml_dtypes.float8_e5m2, "f")
float8_e4m3fnuz = DType("float8_e4m3fnuz", ml_dtypes.float8_e4m3fnuz, "f")
float8_e4m3b11fnuz = DType("float8_e4m3b11fnuz", ml_dtypes.float8_e4m3b11fnuz, "f")
float8_e5m2fnuz = DType("float8_e5m2fnuz", ml_dtypes.float8_e5m2fnuz, "f")
int4 = DType("int4", ml_dtypes.int4, "i")
uint4 = DType("uint4", ml_dtypes.uint4, "u")
float4_e2m1fn = DType("float4_e2m1fn", ml_dtypes.float4_e2m1fn, "f")
int2 = DType("int2", ml_dtypes.int2, "i")
uint2 = DType("uint2", ml_dtypes.uint2, "u")
NARROW = (float8_e4m3fn, float8_e5m2, float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz,
          float4_e2m1fn, int4, uint4, int2, uint2)

_ALL = (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16,
        float32, float64, complex64, complex128, string) + NARROW
_BY_NAME = {d.name: d for d in _ALL}
_BY_NUMPY = {d.np_dtype: d for d in _ALL if d is not string}
_BY_NAME.update({"float": float32, "double": float64, "half": float16, "int": int32})


def as_dtype(value):
    """Return the `DType` for a DType, a name, a numpy dtype or a Python type."""
    if value.__class__ is DType:
        return value
    if isinstance(value, np.dtype) and value.kind not in "OUS":
        found = _BY_NUMPY.get(value)      # a numpy dtype (every EagerTensor's): at once
        if found is not None:
            return found
    if isinstance(value, DType):          # (a subclass's: after the commonest, numpy's)
        return value
    if isinstance(value, str):
        try:
            return _BY_NAME[value]
        except KeyError:
            raise TypeError(f"unknown dtype {value!r}; expected one of "
                            f"{', '.join(d.name for d in _ALL)}") from None
    if value is _builtin_bool:
        return bool
    if value is int:
        return int32
    if value is float:
        return float32
    if value is complex:
        return complex128
    if value is str or value is bytes:
        return string
    try:
        npd = np.dtype(value)
    except TypeError:
        raise TypeError(f"cannot interpret {value!r} as a dtype") from None
    if npd.kind in "OUS":
        return string
    try:
        return _BY_NUMPY[npd]
    except KeyError:
        raise TypeError(f"dtype {npd} is not supported") from None


def is_float_array(np_dtype):
    """Whether numpy dtype `np_dtype` holds floats: numpy's own or bfloat16 (ml_dtypes'
    types are kind "V" to numpy)."""
    return np_dtype.kind == "f" or np_dtype in _ML_FLOATS


_ML_FLOATS = frozenset(d.np_dtype for d in (bfloat16,) + NARROW[:6])


def dtype_of_python(value):
    """The dtype a Python or numpy value converts to, by TensorFlow's rules."""
    if isinstance(value, _builtin_bool) or isinstance(value, np.bool_):
        return bool
    if isinstance(value, (np.ndarray, np.generic)):
        return as_dtype(value.dtype)
    if isinstance(value, int):
        return _dtype_of_python_int(value)
    if isinstance(value, float):
        return float32
    if isinstance(value, complex):
        return complex128
    if isinstance(value, (str, bytes)):
        return string
    return None


def _dtype_of_python_int(value):
    """int32 when `value` fits, else int64 (as TensorFlow infers); ValueError beyond."""
    if -2**31 <= value < 2**31:
        return int32
    if -2**63 <= value < 2**63:
        return int64
    raise ValueError(f"Can't convert Python int {value} to a tensor: it is out of range "
                     f"for int64 [{-2**63}, {2**63 - 1}]")


# Internal: the dtype of handle-like values whose runtime value is a Python
# object (a TensorArray's flow). Not a numeric or string dtype.
variant = DType("variant", np.object_)
variant.is_string = False
_BY_NAME["variant"] = variant


# TensorFlow's DataType enum numbers (types.proto), which TF's messages and
# `tf.as_dtype(int)` use.
_ENUM = {float32: 1, float64: 2, int32: 3, uint8: 4,
         int16: 5, int8: 6, string: 7, int64: 9, bool: 10,
         float16: 19, bfloat16: 14, float8_e5m2: 24, float8_e4m3fn: 25,
         float8_e4m3fnuz: 26, float8_e4m3b11fnuz: 27, float8_e5m2fnuz: 28, int4: 29, uint4: 30,
         int2: 31, uint2: 32, float4_e2m1fn: 33,
         complex64: 8, complex128: 18, uint16: 17,
         uint32: 22, uint64: 23}
_BY_ENUM = {v: k for k, v in _ENUM.items()}
_NAMES = {d.name: d for d in _ENUM}
_NAMES.update({"float": float32, "double": float64, "half": float16, "variant": variant})
_BY_ENUM[21] = variant


def public_as_dtype(type_value):
    """The `DType` for a DType, a TF dtype name ("float32", "double"...), a numpy
    dtype or scalar type, Python `float`/`bool`/`object`, or a DataType enum number."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, (int, np.integer)) and not isinstance(type_value, (_builtin_bool, np.bool_)):
        found = _BY_ENUM.get(int(type_value))
    elif isinstance(type_value, str):
        found = _NAMES.get(type_value)
        if found is None:            # the CLI shows this message: it lists the names
            raise TypeError(f"unknown dtype {type_value!r}; expected one of "
                            f"{', '.join(sorted(_NAMES))}")
    elif type_value is float:
        found = float32
    elif type_value is complex:
        found = complex128
    elif type_value is _builtin_bool:
        found = bool
    elif type_value is object:
        found = string
    elif any(type_value is t for t in (int, str, bytes)) or not isinstance(type_value,
                                                                         (type, np.dtype)):
        found = None
    else:
        try:
            found = as_dtype(np.dtype(type_value))
        except TypeError:
            found = None
    if found is None:
        raise TypeError(f"Cannot convert the argument `type_value`: {type_value!r} to a "
                        "TensorFlow DType.")
    return found
