"""The protocols of runtime/_src/core/protocols.py, each checked with a class
written here that knows nothing of runtime's own implementations: a value
joins a protocol by its members alone.

- TensorLike: `Celsius` reads as a float32 tensor; `Sealed` refuses with its
  own error, which every op passes on unchanged.
- CompositeValue: `Interval` (two tensors) with its own CompositeSpec goes in
  and out of a tf.function, one trace per spec, and through `nest`.
- Streamable: `Countdown` is read by a staged `for` one element a step.
"""

import numpy as np
import pytest

import runtime as tf
from runtime._src.core.composite import CompositeSpec
from runtime._src.core.protocols import (CompositeValue, Streamable, TensorLike,
                                         is_streamable, reads_as_tensor)


class Celsius:
    """A TensorLike: a temperature that reads as its value in degrees."""

    def __init__(self, degrees):
        self.degrees = degrees

    def _as_tensor(self):
        return tf.constant(self.degrees, tf.float32)


class Sealed:
    """A TensorLike that refuses to be read (as a KerasTensor does)."""

    def _as_tensor(self):
        raise ValueError("a Sealed value cannot be read as a tensor")


def test_tensor_like_reads_wherever_a_tensor_goes():
    c = Celsius([1.5, -2.0])
    assert isinstance(c, TensorLike) and reads_as_tensor(c)
    assert not reads_as_tensor(tf.constant(1.0)) and not reads_as_tensor([1.0])
    t = tf.convert_to_tensor(c)
    assert t.dtype == tf.float32 and t.numpy().tolist() == [1.5, -2.0]
    assert (tf.add(c, 1.0).numpy() == np.float32([2.5, -1.0])).all()
    assert (tf.abs(c).numpy() == np.float32([1.5, 2.0])).all()
    assert tf.reduce_sum(c).numpy() == np.float32(-0.5)
    assert tf.stack([c, c]).shape == (2, 2)

    @tf.function
    def hotter(x):
        return tf.maximum(Celsius(0.0), x) * 2.0   # a TensorLike made while tracing

    assert hotter(c).numpy().tolist() == [3.0, 0.0]


_C = Celsius([[1.5, -2.0]])


@pytest.mark.parametrize("use, expected", [
    (lambda c: tf.concat([c, c], 0), [[1.5, -2.0], [1.5, -2.0]]),
    (lambda c: tf.math.add_n([c, c]), [[3.0, -4.0]]),
    (lambda c: tf.matmul(c, c, transpose_b=True), [[6.25]]),
    (lambda c: tf.cast(c, tf.int32), [[1, -2]]),
    (lambda c: tf.where(tf.greater(c, 0.0), c, 0.0), [[1.5, 0.0]]),
    (lambda c: tf.tile(c, [1, 2]), [[1.5, -2.0, 1.5, -2.0]]),
    (lambda c: tf.pad(c, [[0, 0], [1, 0]]), [[0.0, 1.5, -2.0]]),
    (lambda c: tf.split(c, 2, axis=1)[1], [[-2.0]]),
    (lambda c: tf.einsum("ij->j", c), [1.5, -2.0]),
    (lambda c: tf.sort(c), [[-2.0, 1.5]]),
    (lambda c: tf.gather(c, [0, 0]), [[1.5, -2.0], [1.5, -2.0]]),
    (lambda c: tf.nn.relu(c), [[1.5, 0.0]]),
])
def test_tensor_like_in_ops_that_read_dtype_and_shape_first(use, expected):
    assert use(_C).numpy().tolist() == expected
    assert tf.function(use)(_C).numpy().tolist() == expected


@pytest.mark.parametrize("use", [tf.convert_to_tensor, tf.exp, lambda s: tf.add(s, 1.0),
                                 lambda s: tf.stack([s])])
def test_tensor_like_may_refuse_with_its_own_error(use):
    with pytest.raises(ValueError, match="^a Sealed value cannot be read as a tensor$"):
        use(Sealed())


class Interval:
    """A CompositeValue: the closed interval [lo, hi] of two scalar tensors."""

    def __init__(self, lo, hi):
        self.lo, self.hi = tf.convert_to_tensor(lo), tf.convert_to_tensor(hi)

    @property
    def _type_spec(self):
        return IntervalSpec(self.lo.dtype)


class IntervalSpec(CompositeSpec):
    value_type = Interval

    def __init__(self, dtype):
        self.dtype = dtype

    @property
    def _component_specs(self):
        return [tf.TensorSpec([], self.dtype), tf.TensorSpec([], self.dtype)]

    def _to_components(self, value):
        return [value.lo, value.hi]

    def _from_components(self, components):
        return Interval(*components)

    def _serialize(self):
        return (self.dtype,)


def test_composite_value_goes_in_and_out_of_a_function():
    traces = []

    @tf.function
    def widen(iv, by):
        traces.append(1)
        return Interval(iv.lo - by, iv.hi + by)

    a = Interval(1.0, 2.0)
    assert isinstance(a, CompositeValue)
    half, one = tf.constant(0.5), tf.constant(1.0)
    out = widen(a, half)
    assert isinstance(out, Interval)
    assert (out.lo.numpy(), out.hi.numpy()) == (0.5, 2.5)
    out = widen(Interval(-3.0, 3.0), one)        # same spec: the trace is reused
    assert (out.lo.numpy(), out.hi.numpy()) == (-4.0, 4.0) and len(traces) == 1
    widen(Interval(np.float64(0), np.float64(1)), tf.constant(1.0, tf.float64))   # another dtype: a new trace
    assert len(traces) == 2
    flat = tf.nest.flatten({"iv": a}, expand_composites=True)
    assert [float(t) for t in flat] == [1.0, 2.0]
    back = tf.nest.pack_sequence_as({"iv": a}, [tf.constant(7.0), tf.constant(8.0)],
                                    expand_composites=True)
    assert isinstance(back["iv"], Interval) and float(back["iv"].hi) == 8.0


class Countdown:
    """A Streamable: n, n-1, ..., 1, read by a staged `for` from a counter."""

    def __init__(self, n):
        self.left = tf.Variable(n)

    def __iter__(self):                              # eagerly: a Python iterator
        return iter(range(int(self.left.numpy()), 0, -1))

    def _autograph_stream(self):
        return CountdownStream(self.left)


class CountdownStream:
    kind = "countdown"

    def __init__(self, left):
        self.left = left

    def next(self, want):
        value = self.left.read_value()
        has = tf.logical_and(want, value > 0)
        self.left.assign_sub(tf.cast(has, tf.int32))
        return has, (value,)

    def pack(self, flat):
        return flat[0]


def _sum_of(items):
    total = tf.constant(0)
    for x in items:
        total += x
    return total


def test_streamable_is_read_by_a_staged_for():
    c = Countdown(4)
    assert isinstance(c, Streamable) and is_streamable(c)
    assert int(_sum_of(c)) == 10                     # eagerly, through __iter__
    assert int(c.left.numpy()) == 4                  # (which leaves the counter)
    assert int(tf.function(_sum_of)(c)) == 10        # staged: one graph loop
    assert int(c.left.numpy()) == 0


def test_runtimes_own_classes_implement_the_protocols():
    ds = tf.data.Dataset.range(3)
    v = tf.Variable(1.0)
    assert isinstance(v, TensorLike) and not isinstance(v, Streamable)
    assert isinstance(ds, CompositeValue) and isinstance(ds, Streamable)
    assert isinstance(tf.sparse.from_dense([[0, 1]]), CompositeValue)
    assert isinstance(tf.ragged.constant([[1], []]), CompositeValue)
    assert not isinstance(tf.constant(1.0), TensorLike)
    assert isinstance(tf.keras.Input((2,)), TensorLike)
