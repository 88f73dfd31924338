"""`random.Generator`: a random number generator whose state is a Variable.

The state is an int64 Variable of shape [3], laid out as TF's Philox state
(a 128-bit counter, its low word first, and the key; `from_seed(1)` is
[1, 0, 0]). Each draw reads it, computes TF's Philox numbers from it
(runtime/_src/ops/philox_ops.py) and writes it back with the counter advanced
by 256 per value, as TF does. So the values are TF's for the same seed (to
float32's last bit in normal's sin and cos), and a Generator works eagerly and
inside `tf.function` alike: the graph reads and writes the Variable when it
runs, and the values advance across calls.

    g = Generator.from_seed(1)
    g.normal([2])        # the same values for every Generator.from_seed(1)
    g.normal([2])        # then new ones

    @function
    def f():
        return g.uniform([3])   # new values at every call

`split(count)` makes `count` new Generators keyed from this one (eagerly,
also when called while tracing, as their state Variables must exist before
any graph runs). `binomial` draws numpy's numbers (seeded by the state).
"""

import os

import numpy as np

from runtime._src.core import determinism, dtypes
from runtime._src.core.context import current_graph, init_scope
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import array_ops, stateless_random_ops
from runtime._src.ops.philox_ops import SKIP_PER_ELEMENT
from runtime._src.function.variables import Variable

__all__ = ["Generator", "get_global_generator", "set_global_generator", "create_rng_state"]

_MASK = (1 << 64) - 1
PHILOX = 1  # TensorFlow's number for the Philox algorithm (`Generator.algorithm`)


def _as_int64(u):
    """An unsigned 64-bit Python int as the int64 with the same bits."""
    return u - (1 << 64) if u >= (1 << 63) else u


def create_rng_state(seed, alg=None):
    """`tf.random.create_rng_state`: the int64[3] state of `from_seed(seed)`,
    laid out as TF's: an int is its 192-bit two's complement in little-endian
    64-bit words (1 -> [1, 0, 0], -1 -> [-1, -1, -1]); a list of up to 3 ints
    is padded with zeros in front ([1, 2] -> [0, 1, 2])."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        value = int(seed) & ((1 << 192) - 1)
        words = [(value >> (64 * i)) & _MASK for i in range(3)]
    else:
        given = [int(w) & _MASK for w in np.asarray(seed).reshape(-1).tolist()]
        if not given or len(given) > 3:
            raise ValueError(f"create_rng_state: seed must be an int or 1 to 3 ints, got "
                             f"{seed!r}")
        words = [0] * (3 - len(given)) + given
    return np.array([_as_int64(w) for w in words], np.int64)


# --- the op that turns a state into a seed pair ------------------------------------

def _infer_next_seed(inputs, attrs):
    state = inputs[0]
    if state.dtype != dtypes.int64:
        raise TypeError(f"the Generator state must be int64, got {state.dtype.name}")
    return [(dtypes.int64, TensorShape([2])), (dtypes.int64, TensorShape([3]))]


@define_op("RngNextSeed", infer=_infer_next_seed, num_outputs=2)
def _rng_next_seed(state, *, delta):
    low, high, key = (int(v) & _MASK for v in state)
    counter = (low | high << 64) + delta
    new_low, new_high = counter & _MASK, (counter >> 64) & _MASK
    seed = np.array([_as_int64(key), _as_int64(low)], np.int64)
    return seed, np.array([_as_int64(new_low), _as_int64(new_high), _as_int64(key)], np.int64)


not_differentiable("RngNextSeed")


# --- Generator ------------------------------------------------------------------------

# Set by tf.distribute (a layer above): `strategy()` the strategy a Generator
# made now belongs to (None outside any scope); `replica_id(strategy)` the
# replica id tensor inside that strategy's `run`, else None; `replica()`
# (replica id tensor, replicas) inside any `run` of several replicas, else
# None. A Generator of a strategy draws on each replica with its key hashed
# with the replica id, as TF's (each replica its own stream); one made
# outside any scope gives replica i the i-th of the replicas' draws, as TF's
# replicas, which take turns on its state in replica order.
distribution = {"strategy": lambda: None, "replica_id": lambda strategy: None,
                "replica": lambda: None}


class Generator:
    """`tf.random.Generator`: see the module docstring."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = copy_from.state.numpy()
        if state is None:
            raise ValueError("Generator: give a state, copy_from, or use Generator.from_seed / "
                             "Generator.from_non_deterministic_state")
        self._alg = PHILOX if alg is None else alg
        self._strategy = distribution["strategy"]()
        with init_scope():
            self._state_var = Variable(_state_array(state), trainable=False, name="StateVar",
                                       dtype=dtypes.int64)

    def _checkpoint_children(self):
        # A checkpoint saves the state, as TensorFlow's, under
        # generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE.
        return [("_state_var", self._state_var)]

    # --- construction ---------------------------------------------------------

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A Generator whose values are fixed by `seed` (an int or ints)."""
        return cls(state=create_rng_state(seed, alg), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A Generator seeded from the operating system's entropy."""
        if determinism.enabled():
            raise RuntimeError('"from_non_deterministic_state" cannot be called when '
                               "determinism is enabled.")
        return cls.from_seed(int.from_bytes(os.urandom(8), "little"), alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        counter = np.asarray(counter, np.int64).reshape(-1).tolist() + [0, 0]
        return cls(state=[counter[0], counter[1], int(np.asarray(key).reshape(-1)[0])], alg=alg)

    def reset(self, state):
        """Set the state (an int64 [3] value)."""
        self._state_var.assign(convert_to_tensor(_state_array(state)))

    def reset_from_seed(self, seed):
        self.reset(create_rng_state(seed, self._alg))

    def reset_from_key_counter(self, key, counter):
        counter = np.asarray(counter, np.int64).reshape(-1).tolist() + [0, 0]
        self.reset([counter[0], counter[1], int(np.asarray(key).reshape(-1)[0])])

    # --- properties -----------------------------------------------------------

    @property
    def state(self):
        """The state Variable (int64, shape [3])."""
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    @property
    def key(self):
        return self._state_var[2]

    # --- draws ----------------------------------------------------------------

    def _next_seed(self, delta=1):
        """A seed pair for one draw, advancing the state (staged while tracing)."""
        seed, new_state = apply("RngNextSeed", [self._state_var._as_tensor()], {"delta": delta})
        self._state_var.assign(new_state, read_value=False)
        return seed

    def _draw(self, shape, dist, dtype, bounds=()):
        """Values from TF's Philox kernels (philox_ops.py), advancing the state."""
        shape = stateless_random_ops._shape_tensor(shape, f"Generator.{dist}")
        inputs = [self._state_var._as_tensor(), shape, *bounds]
        attrs = {"dist": dist, "dtype": dtypes.as_dtype(dtype)}
        if self._strategy is not None:
            replica = distribution["replica_id"](self._strategy)
            if replica is not None:
                inputs.append(replica)
                attrs["replica_key"] = True
        else:
            turns = distribution["replica"]()
            if turns is not None:
                inputs.append(turns[0])
                attrs["replica_turns"] = turns[1]
        values, new_state = apply("StatefulPhiloxDraw", inputs, attrs)
        self._state_var.assign(new_state, read_value=False)
        return values

    def skip(self, delta):
        """Advance the state as drawing `delta` values would (256 a value, as TF)."""
        self._next_seed(SKIP_PER_ELEMENT * int(delta))

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = _float_dtype(dtype, "normal")
        values = self._draw(shape, "normal", dtype)
        return values * convert_to_tensor(stddev, dtype) + convert_to_tensor(mean, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        dtype = _float_dtype(dtype, "truncated_normal")
        values = self._draw(shape, "truncated_normal", dtype)
        return values * convert_to_tensor(stddev, dtype) + convert_to_tensor(mean, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Values in [minval, maxval); for integers give both bounds, or both
        as None for the whole range of the dtype."""
        dtype = dtypes.as_dtype(dtype)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(f"Generator.uniform: For integer dtype {dtype!r}, minval and "
                                 "maxval must be both `None` or both non-`None`; got "
                                 f"minval={minval} and maxval={maxval}")
            if maxval is None:
                return self.uniform_full_int(shape, dtype)
            bounds = (convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype))
            return self._draw(shape, "bounded_int", dtype, bounds)
        dtype = _float_dtype(dtype, "uniform")
        maxval = 1 if maxval is None else maxval
        low, high = convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype)
        return self._draw(shape, "uniform", dtype) * (high - low) + low

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        """Integers over the whole range of `dtype` (int32, int64, uint32, uint64)."""
        return self._draw(shape, "full_int", dtype)

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """The successes of `counts` trials of probability `probs` (shape ending
        with counts and probs broadcast together; numpy's numbers)."""
        return stateless_random_ops.stateless_binomial(shape, self._next_seed(SKIP_PER_ELEMENT),
                                                       counts, probs, dtype)

    def make_seeds(self, count=1):
        """An int64 [2, count] tensor of seeds for the stateless ops: random
        keys over zeros, as TF's."""
        keys = self.uniform_full_int([count], dtypes.int64)
        return array_ops.stack([keys, array_ops.zeros_like(keys)])

    def split(self, count=1):
        """`count` new Generators, each with a random key and a zero counter
        (eagerly, also while tracing); this one advances."""
        with init_scope():
            keys = np.asarray(self.uniform_full_int([count], dtypes.int64))
        return [Generator(state=[0, 0, int(k)], alg=self._alg) for k in keys]

    def __repr__(self):
        return f"<runtime.random.Generator state={self._state_var.numpy().tolist()}>"


def _float_dtype(dtype, what):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64):
        raise TypeError(f"Generator.{what}: dtype must be a floating-point type, got "
                        f"{dtype.name}")
    return dtype


def _state_array(state):
    if isinstance(state, Tensor) or reads_as_tensor(state):
        if current_graph() is not None:
            raise TypeError("Generator: the state must be known (eager), not a symbolic tensor")
        state = np.asarray(state)
    state = np.asarray(state)
    if state.shape != (3,) or not np.issubdtype(state.dtype, np.integer):
        raise ValueError(f"Generator: the state must be 3 integers, got {state!r}")
    return state.astype(np.int64)


_global = {"generator": None}


def get_global_generator():
    """`tf.random.get_global_generator`: a Generator made from
    non-deterministic state on first use (or the one `set_global_generator` set)."""
    if _global["generator"] is None:
        if determinism.enabled():
            raise RuntimeError('"get_global_generator" cannot be called if determinism is '
                               'enabled, unless "set_global_generator" has already been '
                               'called. Please call "set_global_generator" first.')
        _global["generator"] = Generator.from_non_deterministic_state()
    return _global["generator"]


def set_global_generator(generator):
    """`tf.random.set_global_generator`: the Generator `get_global_generator` returns."""
    if not isinstance(generator, Generator):
        raise TypeError(f"set_global_generator: expected a Generator, got "
                        f"{type(generator).__name__}")
    _global["generator"] = generator

