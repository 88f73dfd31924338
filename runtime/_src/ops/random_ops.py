"""Stateful random ops: `random.uniform`, `normal`, `truncated_normal`,
`categorical`, `shuffle`, `set_seed`, and `nn.dropout`; the draws shared with
the stateless ops (`stateless_random_ops`) and `random.Generator`.

Every op here is stateful and side-effecting: it draws each time it runs, so
a traced graph gives new values on every run (unlike `np.random` called while
tracing, which is baked in as a constant).

Seeds follow TensorFlow's rules. When an op is made (eagerly, or while
tracing) it gets a seed pair from the global seed (`set_seed`) and its `seed`:
  - neither set: no pair; the op draws from one process-wide stream (random;
    `set_seed` also reseeds that stream, so such draws repeat after it too);
  - global seed only: (global, n) where n counts the random ops made so far,
    eagerly since the last `set_seed`, while tracing in this function's
    graph; so the values after `set_seed` are one fixed sequence, and two
    functions with the same random ops draw the same values;
  - op seed only: (87654321, seed); both: (global, seed).
An op with a pair draws from its own stream, seeded by the pair: in a graph
one stream per op node, advancing at every run (two ops with the same seed
give the same values, as in TF); eagerly one stream per (op, dtype, pair),
so repeated `uniform([2], seed=1)` calls give new values. `set_seed` restarts
every stream: re-running a `tf.function` after it reproduces its values. A
graph keeps the pairs it was traced with (a later `set_seed(other)` restarts
its streams but does not change them), as in TensorFlow.

    set_seed(1)
    a = uniform([2])      # always the same two values after set_seed(1)
    b = uniform([2])      # different from a

The values are numpy's (PCG64 streams), not TensorFlow's Philox numbers.
"""

import itertools
import numbers
import os
import zlib

import numpy as np

from runtime._src.core import determinism, dtypes
from runtime._src.core.context import current_graph
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops import math_ops
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.ops.shape_rules import static_int, static_value

__all__ = ["uniform", "normal", "truncated_normal", "categorical", "shuffle", "set_seed",
           "dropout", "seeded_rng", "normal_inputs", "dataset_seed", "global_seed"]

_DEFAULT_SEED = 87654321      # the global seed of an op seed set without set_seed
_MASK = (1 << 64) - 1
_PROCESS = os.urandom(4).hex()  # node streams of graphs made in this process
_node_streams = itertools.count()
_state = {"seed": None, "global": np.random.default_rng(), "eager_ops": 0, "datasets": 0,
          "streams": {}}


def set_seed(seed):
    """`tf.random.set_seed`: make the following random values reproducible
    (see the module docstring for the rules); restarts every op's stream."""
    _state["seed"] = None if seed is None else int(seed)
    _state["global"] = np.random.default_rng(None if seed is None else int(seed) & _MASK)
    _state["eager_ops"] = 0
    _state["datasets"] = 0
    _state["streams"] = {}


def global_seed():
    """The seed `set_seed` set, or None."""
    return _state["seed"]


def dataset_seed(seed):
    """The seed of a tf.data random dataset (shuffle, random,
    sample_from_datasets, rejection_resample): its own; else, after
    `set_seed`, one made from the global seed and how many such datasets were
    made since (as TF's op seeds: the same program draws the same orders);
    else None, fresh entropy, which op determinism refuses."""
    if seed is not None:
        return seed
    global_seed = _state["seed"]
    if global_seed is None:
        determinism.require_seed(None, None)
        return None
    n = _state["datasets"]
    _state["datasets"] = n + 1
    return int(np.random.SeedSequence([global_seed & _MASK, n]).generate_state(1, np.uint64)[0]
               >> 1)


def _seed_attrs(seed, op_name, required=True):
    """The `seeds` and `stream` attrs of a random op made now. With neither
    seed set, op determinism (`required`) is TensorFlow's RuntimeError."""
    op_seed = None if seed is None else static_int(seed, op_name, "seed")
    graph = current_graph()
    global_seed = _state["seed"]
    if global_seed is None and op_seed is None:
        if required:
            determinism.require_seed(global_seed, op_seed)
        return {"seeds": None, "stream": None}
    if op_seed is None:
        op_seed = _next_op_index(graph)
    seeds = (_DEFAULT_SEED if global_seed is None else global_seed, op_seed)
    if graph is not None:
        stream = f"{_PROCESS}:{next(_node_streams)}"     # one stream per node
    else:
        stream = "eager" if seed is not None else None    # None: a fresh op each call
    return {"seeds": seeds, "stream": stream}


def _next_op_index(graph):
    """How many seeded random ops were made before this one (eagerly since
    set_seed; while tracing, in this function's outermost graph)."""
    if graph is None:
        n = _state["eager_ops"]
        _state["eager_ops"] = n + 1
        return n
    while graph.outer is not None:
        graph = graph.outer
    n = getattr(graph, "random_ops_made", 0)
    graph.random_ops_made = n + 1
    return n


def seeded_rng(seeds, salt):
    """A numpy Generator determined by an int pair and a string salt."""
    words = [int(seeds[0]) & _MASK, int(seeds[1]) & _MASK, zlib.crc32(salt.encode())]
    return np.random.default_rng(words)


def _generator(op_name, dtype, seeds, stream):
    """The stream a stateful op draws from (see the module docstring)."""
    if seeds is None:
        return _state["global"]
    if stream is None:
        return seeded_rng(seeds, op_name)
    key = (op_name, dtype.name, tuple(seeds)) if stream == "eager" else stream
    rng = _state["streams"].get(key)
    if rng is None:
        rng = _state["streams"][key] = seeded_rng(seeds, op_name)
    return rng


# --- draws (shared with the stateless ops and Generator) --------------------------

def _float_draw_dtype(dtype):
    return np.float64 if dtype.np_dtype == np.float64 else np.float32


def draw_uniform(rng, shape, minval, maxval, dtype):
    """Uniform in [minval, maxval); for integers minval/maxval None means the
    whole range of the dtype."""
    shape = tuple(int(d) for d in shape)
    if dtype.is_integer:
        if minval is None:
            info = np.iinfo(dtype.np_dtype)
            return rng.integers(info.min, info.max, size=shape, dtype=dtype.np_dtype,
                                endpoint=True)
        if np.any(minval >= maxval):
            raise ValueError(f"Need minval < maxval, got {minval} >= {maxval}")
        return rng.integers(minval, maxval, size=shape, dtype=dtype.np_dtype)
    u = rng.random(shape, dtype=_float_draw_dtype(dtype))
    return (minval + (maxval - minval) * u).astype(dtype.np_dtype, copy=False)


def draw_normal(rng, shape, mean, stddev, dtype):
    shape = tuple(int(d) for d in shape)
    z = rng.standard_normal(shape, dtype=_float_draw_dtype(dtype))
    return (z * stddev + mean).astype(dtype.np_dtype, copy=False)


def draw_truncated_normal(rng, shape, mean, stddev, dtype):
    """Normal values, redrawn until each lies within 2 standard deviations."""
    shape = tuple(int(d) for d in shape)
    z = rng.standard_normal(shape, dtype=np.float64)
    bad = np.abs(z) > 2
    while bad.any():
        z[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(z) > 2
    return (z * stddev + mean).astype(dtype.np_dtype, copy=False)


def draw_categorical(rng, logits, num_samples, dtype):
    """num_samples class indices per row of logits [batch, classes]; a row
    that is all -inf gives `classes` (TensorFlow's out-of-range answer)."""
    if not np.issubdtype(np.asarray(logits).dtype, np.floating):
        raise TypeError(f"logits must be a floating point tensor, got {np.asarray(logits).dtype}")
    logits = np.asarray(logits, np.float64)
    if logits.ndim != 2:
        raise ValueError(f"logits should be a matrix, got shape {list(np.shape(logits))}")
    num_samples = int(num_samples)
    if num_samples < 0:
        raise ValueError(f"num_samples should be non-negative, got {num_samples}")
    batch, classes = logits.shape
    if classes == 0:
        raise ValueError(f"num_classes should be positive, got {classes}")
    out = np.full((batch, num_samples), classes, dtype.np_dtype)
    for row in range(batch):
        top = logits[row].max()
        if not np.isfinite(top):
            if top == np.inf:
                out[row] = int(np.argmax(logits[row]))
            continue
        p = np.exp(logits[row] - top)
        cdf = np.cumsum(p / p.sum())
        picks = np.searchsorted(cdf, rng.random(num_samples) * cdf[-1], side="right")
        out[row] = np.minimum(picks, classes - 1)
    return out


def draw_shuffle(rng, value):
    """value with its first dimension permuted (a scalar as it is)."""
    value = np.asarray(value)
    if value.ndim == 0:
        return value
    return value[rng.permutation(value.shape[0])]


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


def _check_dtype(dtype, allowed, op_name):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        names = ", ".join(f"tf.{d.name}" for d in allowed)
        raise ValueError(f"{op_name}: Argument `dtype` got invalid value {dtype!r}. Accepted "
                         f"dtypes are ({names}).")
    return dtype


FLOATS_AND_INTS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int32,
                   dtypes.int64)


# --- uniform ------------------------------------------------------------------------

@define_op("RandomUniform", infer=_infer_random, stateful=True, side_effect=True)
def _random_uniform(shape, minval, maxval, *, dtype, seeds, stream):
    rng = _generator("RandomUniform", dtype, seeds, stream)
    return draw_uniform(rng, shape, minval, maxval, dtype)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.uniform`: values in [minval, maxval) (maxval defaults to 1
    for floats and is required for integers)."""
    dtype = _check_dtype(dtype, FLOATS_AND_INTS, "random.uniform")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"random.uniform: Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    shape = _shape_tensor(shape, "random.uniform")
    minval = _scalar_arg(minval, dtype, "random.uniform", "minval")
    maxval = _scalar_arg(maxval, dtype, "random.uniform", "maxval")
    return apply("RandomUniform", [shape, minval, maxval],
                 {"dtype": dtype, **_seed_attrs(seed, "random.uniform")})


def _scalar_arg(value, dtype, op_name, arg):
    if reads_as_tensor(value):
        value = value._as_tensor()
    if isinstance(value, Tensor):
        if value.dtype != dtype:
            raise TypeError(f"{op_name}: {arg} has dtype {value.dtype.name}, expected "
                            f"{dtype.name} (the dtype argument); use tf.cast")
        return value
    return convert_to_tensor(value, dtype)


def normal_inputs(shape, mean, stddev, dtype, op_name):
    """(dtype, [shape, mean, stddev] tensors) of a normal-like op, checked."""
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"{op_name}: dtype must be a floating type, got {dtype.name}")
    return dtype, [_shape_tensor(shape, op_name), _scalar_arg(mean, dtype, op_name, "mean"),
                   _scalar_arg(stddev, dtype, op_name, "stddev")]


# --- normal and truncated_normal ----------------------------------------------------

@define_op("RandomNormal", infer=_infer_random, stateful=True, side_effect=True)
def _random_normal(shape, mean, stddev, *, dtype, seeds, stream):
    rng = _generator("RandomNormal", dtype, seeds, stream)
    return draw_normal(rng, shape, mean, stddev, dtype)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.normal`: values from a normal distribution."""
    dtype, inputs = normal_inputs(shape, mean, stddev, dtype, "random.normal")
    return apply("RandomNormal", inputs, {"dtype": dtype, **_seed_attrs(seed, "random.normal")})


@define_op("TruncatedNormal", infer=_infer_random, stateful=True, side_effect=True)
def _truncated_normal(shape, mean, stddev, *, dtype, seeds, stream):
    rng = _generator("TruncatedNormal", dtype, seeds, stream)
    return draw_truncated_normal(rng, shape, mean, stddev, dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    """`tf.random.truncated_normal`: normal values, those more than 2 stddev
    from the mean dropped and drawn again."""
    dtype, inputs = normal_inputs(shape, mean, stddev, dtype, "random.truncated_normal")
    return apply("TruncatedNormal", inputs,
                 {"dtype": dtype, **_seed_attrs(seed, "random.truncated_normal")})


# --- categorical ------------------------------------------------------------------------

def infer_categorical(inputs, attrs):
    logits, num_samples = inputs[0], inputs[1]
    if not logits.dtype.is_floating:
        raise TypeError(f"logits must be a floating point tensor, got {logits.dtype.name}")
    if logits.shape.rank not in (None, 2):
        raise ValueError(f"logits should be a matrix, got shape {logits.shape}")
    batch = None if logits.shape.rank is None else logits.shape.dims[0]
    node = getattr(num_samples, "node", None)
    samples = int(node.attrs["value"]) if node is not None and node.op == "Const" else None
    if samples is not None and samples < 0:
        raise ValueError(f"num_samples should be non-negative, got {samples}")
    return [(attrs["dtype"], TensorShape([batch, samples]))]


def categorical_args(logits, num_samples, dtype, op_name):
    """(logits tensor, num_samples tensor, output dtype) checked as TF does."""
    dtype = _check_dtype(dtypes.int64 if dtype is None else dtype,
                         (dtypes.int32, dtypes.int64), op_name)
    logits = convert_to_tensor(logits._as_tensor() if reads_as_tensor(logits) else logits)
    if isinstance(num_samples, Tensor) or reads_as_tensor(num_samples):
        num_samples = convert_to_tensor(num_samples)
        if not num_samples.dtype.is_integer or num_samples.shape.rank not in (0, None):
            raise TypeError(f"{op_name}: num_samples must be an integer scalar, got "
                            f"{num_samples!r}")
    else:
        num_samples = convert_to_tensor(static_int(num_samples, op_name, "num_samples"),
                                        dtypes.int32)
    return logits, num_samples, dtype


@define_op("Multinomial", infer=infer_categorical, stateful=True, side_effect=True)
def _multinomial(logits, num_samples, *, dtype, seeds, stream):
    rng = _generator("Multinomial", dtype, seeds, stream)
    return draw_categorical(rng, logits, num_samples, dtype)


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`tf.random.categorical`: `num_samples` class indices per row of
    `logits` ([batch, classes], unnormalized log-probabilities), int64 by
    default."""
    logits, num_samples, dtype = categorical_args(logits, num_samples, dtype,
                                                  "random.categorical")
    return apply("Multinomial", [logits, num_samples],
                 {"dtype": dtype, **_seed_attrs(seed, "random.categorical")})


# --- shuffle ----------------------------------------------------------------------------

@define_op("RandomShuffle", infer=lambda inputs, attrs: [(inputs[0].dtype, inputs[0].shape)],
           stateful=True, side_effect=True)
def _random_shuffle(value, *, dtype, seeds, stream):
    return draw_shuffle(_generator("RandomShuffle", dtype, seeds, stream), value)


def shuffle(value, seed=None, name=None):
    """`tf.random.shuffle`: `value` with its first dimension randomly permuted."""
    value = convert_to_tensor(value._as_tensor() if reads_as_tensor(value) else value)
    return apply("RandomShuffle", [value],
                 {"dtype": value.dtype, **_seed_attrs(seed, "random.shuffle")})


# --- dropout ------------------------------------------------------------------------

def _infer_dropout(inputs, attrs):
    return [(inputs[0].dtype, inputs[0].shape)]


@define_op("Dropout", infer=_infer_dropout, stateful=True, side_effect=True)
def _dropout(x, rate, *, noise_shape, seeds, stream):
    if not 0 <= rate < 1:
        raise ValueError(f"rate must be in the range [0, 1), got {rate}")
    shape = np.shape(x)
    if noise_shape is not None:
        noise_shape = tuple(shape[i] if d is None else d for i, d in enumerate(noise_shape))
    else:
        noise_shape = shape
    rng = _generator("Dropout", dtypes.as_dtype(np.asarray(x).dtype), seeds, stream)
    keep = rng.random(noise_shape) >= rate
    scale = np.asarray(1 / (1 - rate), dtype=x.dtype)
    return (x * scale * keep).astype(x.dtype, copy=False)


@define_grad("Dropout")
def _dropout_grad(op, grad):
    # The kept entries are where the output is nonzero (a kept exact zero of x
    # gets no gradient, which only matters where x is exactly 0).
    _, rate = op.inputs
    kept = math_ops.not_equal(op.outputs[0], 0)
    return [math_ops.where(kept, math_ops.truediv(grad, math_ops.subtract(1, rate)), 0), None]


not_differentiable("RandomUniform", "RandomNormal", "TruncatedNormal", "Multinomial", "RandomShuffle")


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
                                        **_seed_attrs(seed, "nn.dropout")})


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

