"""Random ops: `random.uniform`, `random.normal`, `random.set_seed`, `nn.dropout`.

Every random op is stateful and side-effecting: it draws from a numpy
`Generator` each time it runs, so a traced graph gives new values on every
run (unlike `np.random` called while tracing, which is baked in as a
constant). Draws come from one global generator; `set_seed(s)` resets it, so
the sequence of values after it is reproducible. An op-level `seed` gives the
op its own generator, derived from the global seed and the op seed (and reset
by `set_seed` too).

    set_seed(1)
    a = uniform([2])      # always the same two values after set_seed(1)
    b = uniform([2])      # different from a
"""

import numbers

import numpy as np

from runtime._src.core import dtypes
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.ops.shape_rules import static_int, static_value

__all__ = ["uniform", "normal", "set_seed", "dropout"]

_DEFAULT_SEED = 87654321  # used with an op seed when no global seed is set
_state = {"seed": None, "global": np.random.default_rng(), "per_op": {}}


def set_seed(seed):
    """`tf.random.set_seed`: make the following random values reproducible."""
    _state["seed"] = None if seed is None else int(seed)
    _state["global"] = np.random.default_rng(_state["seed"])
    _state["per_op"] = {}


def _generator(seed):
    if seed is None:
        return _state["global"]
    rng = _state["per_op"].get(seed)
    if rng is None:
        base = _DEFAULT_SEED if _state["seed"] is None else _state["seed"]
        rng = _state["per_op"][seed] = np.random.default_rng([base, int(seed)])
    return rng


def _op_seed(seed, op_name):
    """An op-level seed: None or an int known while tracing."""
    return None if seed is None else static_int(seed, op_name, "seed")


# --- shapes -----------------------------------------------------------------------

def _shape_tensor(shape, op_name):
    """The `shape` argument as an int32/int64 vector tensor."""
    if isinstance(shape, TensorShape):
        if not shape.is_fully_defined():
            raise ValueError(f"{op_name}: shape must be fully defined, got {shape}")
        shape = list(shape.dims)
    if not isinstance(shape, Tensor):
        shape = convert_to_tensor(list(shape) if isinstance(shape, tuple) else shape,
                                  dtypes.int32)
    if not shape.dtype.is_integer:
        raise TypeError(f"{op_name}: shape must be integers, got a {shape.dtype.name} tensor")
    if shape.shape.rank not in (None, 1):
        raise ValueError(f"{op_name}: shape must be a vector, got a tensor of shape "
                         f"{shape.shape}")
    return shape


def _static_shape(shape_tensor):
    """The output shape known while tracing: values of a constant, else unknown dims."""
    node = getattr(shape_tensor, "node", None)
    if node is not None and node.op == "Const":
        return TensorShape(np.asarray(node.attrs["value"]).tolist())
    dims = shape_tensor.shape.dims
    if dims is None or dims[0] is None:
        return TensorShape(None)
    return TensorShape([None] * dims[0])


def _infer_random(inputs, attrs):
    return [(attrs["dtype"], _static_shape(inputs[0]))]


# --- uniform ------------------------------------------------------------------------

@define_op("RandomUniform", infer=_infer_random, stateful=True, side_effect=True)
def _random_uniform(shape, minval, maxval, *, dtype, seed):
    rng = _generator(seed)
    shape = tuple(int(d) for d in shape)
    np_dtype = dtype.np_dtype
    if dtype.is_integer:
        if np.any(minval >= maxval):
            raise ValueError(f"Need minval < maxval: {minval} >= {maxval}")
        return rng.integers(minval, maxval, size=shape, dtype=np_dtype)
    draw_dtype = np.float64 if np_dtype == np.float64 else np.float32
    u = rng.random(shape, dtype=draw_dtype)
    return (minval + (maxval - minval) * u).astype(np_dtype, copy=False)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.uniform`: values in [minval, maxval) (maxval defaults to 1
    for floats and is required for integers)."""
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise TypeError(f"random.uniform: dtype must be a float or integer type, got {dtype.name}")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"random.uniform: must specify maxval for integer dtype {dtype.name}")
        maxval = 1
    shape = _shape_tensor(shape, "random.uniform")
    minval = _scalar_arg(minval, dtype, "random.uniform", "minval")
    maxval = _scalar_arg(maxval, dtype, "random.uniform", "maxval")
    return apply("RandomUniform", [shape, minval, maxval],
                 {"dtype": dtype, "seed": _op_seed(seed, "random.uniform")})


def _scalar_arg(value, dtype, op_name, arg):
    if hasattr(value, "_as_tensor"):
        value = value._as_tensor()
    if isinstance(value, Tensor):
        if value.dtype != dtype:
            raise TypeError(f"{op_name}: {arg} has dtype {value.dtype.name}, expected "
                            f"{dtype.name} (the dtype argument); use tf.cast")
        return value
    return convert_to_tensor(value, dtype)


# --- normal -------------------------------------------------------------------------

@define_op("RandomNormal", infer=_infer_random, stateful=True, side_effect=True)
def _random_normal(shape, mean, stddev, *, dtype, seed):
    rng = _generator(seed)
    shape = tuple(int(d) for d in shape)
    draw_dtype = np.float64 if dtype.np_dtype == np.float64 else np.float32
    z = rng.standard_normal(shape, dtype=draw_dtype)
    return (z * stddev + mean).astype(dtype.np_dtype, copy=False)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.normal`: values from a normal distribution."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"random.normal: dtype must be a floating type, got {dtype.name}")
    shape = _shape_tensor(shape, "random.normal")
    mean = _scalar_arg(mean, dtype, "random.normal", "mean")
    stddev = _scalar_arg(stddev, dtype, "random.normal", "stddev")
    return apply("RandomNormal", [shape, mean, stddev],
                 {"dtype": dtype, "seed": _op_seed(seed, "random.normal")})


# --- dropout ------------------------------------------------------------------------

def _infer_dropout(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


@define_op("Dropout", infer=_infer_dropout, stateful=True, side_effect=True)
def _dropout(x, rate, *, noise_shape, seed):
    if not 0 <= rate < 1:
        raise ValueError(f"rate must be in the range [0, 1), got {rate}")
    shape = np.shape(x)
    if noise_shape is not None:
        noise_shape = tuple(shape[i] if d is None else d for i, d in enumerate(noise_shape))
    else:
        noise_shape = shape
    keep = _generator(seed).random(noise_shape) >= rate
    scale = np.asarray(1 / (1 - rate), dtype=x.dtype)
    return (x * scale * keep).astype(x.dtype, copy=False)


@define_grad("Dropout")
def _dropout_grad(op, grad):
    # The kept entries are where the output is nonzero (a kept exact zero of x
    # gets no gradient, which only matters where x is exactly 0).
    _, rate = op.inputs
    kept = math_ops.not_equal(op.outputs[0], 0)
    return [math_ops.where(kept, math_ops.truediv(grad, math_ops.subtract(1, rate)), 0), None]


not_differentiable("RandomUniform", "RandomNormal")


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """`tf.nn.dropout`: zero each entry with probability `rate`, scale the kept
    ones by 1 / (1 - rate). `noise_shape` (None dims taken from x) shares the
    keep/drop decision along dimensions of size 1."""
    if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
        raise ValueError("nn.dropout: `rate` must be a scalar tensor or a float in the range "
                         f"[0, 1). Received: rate={rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError("nn.dropout: x must be a floating point tensor since it is scaled; "
                         f"got a {x.dtype.name} tensor")
    if isinstance(rate, numbers.Real) and rate == 0:
        return x
    rate = _scalar_arg(rate, x.dtype, "nn.dropout", "rate")
    if noise_shape is not None:
        noise_shape = _noise_dims(noise_shape)
        _check_noise_shape(x.shape, noise_shape)
    return apply("Dropout", [x, rate], {"noise_shape": noise_shape,
                                        "seed": _op_seed(seed, "nn.dropout")})


def _noise_dims(noise_shape):
    """noise_shape as a tuple of ints and Nones, known while tracing."""
    if isinstance(noise_shape, Tensor):
        noise_shape = static_value(noise_shape, "nn.dropout", "noise_shape").reshape(-1).tolist()
    return tuple(None if d is None else static_int(d, "nn.dropout", "noise_shape")
                 for d in noise_shape)


def _check_noise_shape(x_shape, noise_shape):
    dims = x_shape.dims
    if dims is None:
        return
    if len(noise_shape) != len(dims) or any(
            n is not None and d is not None and n not in (1, d) for n, d in zip(noise_shape, dims)):
        raise ValueError(f"nn.dropout: noise_shape {list(noise_shape)} is not compatible with "
                         f"x's shape {x_shape}: each dimension must be 1 or x's size")

