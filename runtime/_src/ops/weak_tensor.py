"""`WeakTensor`: a tensor whose dtype was inferred, not asked for (TF's auto
dtype conversion, on with `tnp.experimental_enable_numpy_behavior(
dtype_conversion_mode='all' | 'safe')`; the rules are core/dtype_promotion.py).

`tf.constant(5)` is then a weak int32 and `tf.constant(5) + tf.constant(2.,
tf.float16)` a float16: the weak operand defers. As in TF a WeakTensor is a
composite value (one tensor component), not a `tf.Tensor`: `tf.is_tensor` is
True, `isinstance(w, tf.Tensor)` False; it passes into and out of
`tf.function` as itself, and prints with `weak=True`.

Where it comes from and where it stays weak:
  - `tf.constant` and `tnp.asarray`/`tnp.array` of Python numbers (no dtype);
  - the binary ops (operators and `tf.math.add` ... `maximum`) whose operands
    promote to a weak type (two weak operands, a weak float with an integer);
  - the unary math ops of TF's list (`WEAK_UNARY`) of a weak or Python input,
    and reductions, `expand_dims`, `squeeze`, `zeros_like`/`ones_like` of a weak
    input.
Any other op takes its strong tensor (`tf.cast(w, ...)`, `w[0]`).

This module is the value; ops/weak_ops.py gives ops their weak forms.
"""

from runtime._src.core.composite import CompositeSpec
from runtime._src.core.dtypes import as_dtype
from runtime._src.core.tensor import Tensor
from runtime._src.core.tensor import TensorSpec

__all__ = ["WeakTensor", "WeakTensorSpec", "WEAK_UNARY", "WEAK_BINARY"]

# Unary ops (kernel names) whose result is weak for a weak input, after TF's list.
WEAK_UNARY = frozenset(
    "Abs Acos Acosh Angle Asin Asinh Atan Atanh Ceil Conj Cos Cosh Digamma Elu Erf Erfc "
    "Erfinv Exp Expm1 Floor Imag Invert LeakyRelu Lgamma Log Log1p Neg Ndtri Real "
    "Reciprocal Relu Relu6 Rint Round Rsqrt Selu Sigmoid Sign Sin Sinh Softplus Softsign "
    "Sqrt Square Tan Tanh Identity StopGradient".split())
# Binary ops whose result keeps the promoted weakness (comparisons give strong bools).
WEAK_BINARY = frozenset(
    "AddV2 Sub Mul MulNoNan MatMul RealDiv DivNoNan TruncateDiv FloorDiv TruncateMod "
    "FloorMod Pow Maximum Minimum".split())


class WeakTensor:
    """A tensor of an inferred dtype (see the module docstring)."""

    __slots__ = ("_tensor",)
    __array_priority__ = 100     # numpy defers `ndarray + w` to w.__radd__

    def __init__(self, tensor):
        self._tensor = tensor

    # what a tensor shows
    dtype = property(lambda self: self._tensor.dtype)
    shape = property(lambda self: self._tensor.shape)
    ndim = property(lambda self: self._tensor.shape.rank)
    _type_spec = property(lambda self: WeakTensorSpec(self._tensor.shape, self._tensor.dtype))

    def get_shape(self):
        return self._tensor.shape

    def numpy(self):
        return self._tensor.numpy()

    def to_tensor(self):
        """The strong tensor of the same value."""
        return self._tensor

    def _as_tensor(self):
        return self._tensor

    def __array__(self, dtype=None, copy=None):
        return self._tensor.__array__(dtype)

    def __repr__(self):
        return repr(self._tensor)[:-1] + ", weak=True>"

    def __str__(self):
        return str(self._tensor)[:-1] + ", weak=True)"

    def __format__(self, spec):
        return format(self._tensor, spec)

    def __bool__(self):
        return bool(self._tensor)

    def __len__(self):
        return len(self._tensor)

    def __int__(self):
        return int(self._tensor)

    def __float__(self):
        return float(self._tensor)

    def __index__(self):
        return self._tensor.__index__()

    def __iter__(self):
        return iter(self._tensor)

    def __getitem__(self, key):
        return self._tensor[key]

    __hash__ = Tensor.__hash__

    def _map_values_op(self, op_name, fn):
        """A unary op of TF's weak list on this value: weak in, weak out."""
        out = fn(self._tensor)
        return WeakTensor(out) if op_name in WEAK_UNARY else out


# The operators: Tensor's own (each calls the op through core.tensor.dispatch,
# whose binary ops come to `_binary` below for a weak operand).
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "lt", "le",
              "gt", "ge", "eq", "ne", "and", "or", "xor", "lshift", "rshift"):
    for _form in (f"__{_name}__", f"__r{_name}__"):
        if hasattr(Tensor, _form):
            setattr(WeakTensor, _form, getattr(Tensor, _form))
for _form in ("__neg__", "__abs__", "__invert__", "__pos__"):
    setattr(WeakTensor, _form, getattr(Tensor, _form))


class WeakTensorSpec(CompositeSpec):
    """The spec of a WeakTensor: its shape and dtype."""

    __slots__ = ("shape", "dtype")
    value_type = WeakTensor

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, as_dtype(dtype)

    @property
    def _component_specs(self):
        return [TensorSpec(self.shape, self.dtype)]

    def _to_components(self, value):
        return [value._tensor]

    def _from_components(self, components):
        return WeakTensor(components[0])

    def _serialize(self):
        return (self.shape, self.dtype)

    def __repr__(self):
        return f"WeakTensorSpec(shape={self.shape}, dtype={self.dtype!r})"
