"""Differential check of `GradientTape` against real TensorFlow (a developer tool).

    $BENCH_TF_PYTHON tools/tape_diff.py [--only PATTERN] [-v]

Runs each small tape program of `PROGRAMS` with our runtime and with
TensorFlow, eagerly and as a `tf.function`, and prints one line per
difference:

    MISMATCH <mode> <program>: <what differs>

(a gradient's value, dtype or shape; None on one side only; one side raising
where the other does not, or a different error class), then a summary, and
exits 1 when anything differs beyond the differences `EXPECTED` explains.
Warnings are not compared: TensorFlow logs its tape warnings (an integer
tensor watched) to its logger, we raise Python warnings.
TensorFlow is never a dependency of the project: run this with a throwaway
virtualenv that has it (and numpy and gast for our runtime).

A program is `fn(tf) -> run`: it creates what must exist before a
`tf.function` is traced (Variables) with the library `tf` it is given and
returns `run()`, whose result (a nested structure of tensors, None and
Python values) is compared. TensorFlow's IndexedSlices gradients are
compared as the dense tensors they stand for.
"""

import argparse
import fnmatch
import os
import pathlib
import sys
import warnings

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROGRAMS = {}

# Differences we keep on purpose: program -> why.
EXPECTED = {
    "integer_target": "an integer target cannot have a gradient: we raise TypeError; "
                      "TensorFlow returns None",
    "numpy_source": "TensorFlow fails with an accidental AttributeError; we raise a TypeError "
                    "that names the source",
    "custom_gradient_wrong_count": "in a graph TensorFlow raises an InternalError about the "
                                   "recorded op; we raise the ValueError it raises eagerly",
    "python_number_target": "TensorFlow fails with an accidental AttributeError; we raise a "
                            "TypeError that names the target",
}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def _f64(tf, value):
    return tf.constant(np.asarray(value, np.float64))


def gradient_of(value, dtype=np.float64):
    """Register `fn(tf, x) -> y` as a program: the gradient of y for x, a
    watched constant `value`."""
    def register(fn):
        def build(tf):
            x = tf.constant(np.asarray(value, dtype))

            def run():
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    y = fn(tf, x)
                return tape.gradient(y, x)
            return run
        PROGRAMS[fn.__name__] = build
        return fn
    return register


# ---------------------------------------------------------------- watching and sources

@gradient_of(3, np.int32)
def watch_int_tensor(tf, x):
    return tf.cast(x, tf.float32) * 2.0


@program
def int_source_zero(tf):
    x = tf.constant([1, 2])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.cast(x, tf.float32))
        return tape.gradient(y, x, unconnected_gradients="zero")
    return run


@program
def integer_variable(tf):
    v = tf.Variable(3)

    def run():
        with tf.GradientTape(persistent=True) as tape:
            y = tf.cast(v, tf.float32) * 2.0
        return (tape.gradient(y, v), tape.gradient(y, v, unconnected_gradients="zero"),
                len(tape.watched_variables()))
    return run


@program
def intermediate_source(tf):
    x = _f64(tf, [1.0, 2.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * 2.0
            z = y * y
        return tape.gradient(z, [y, x])
    return run


@program
def source_computed_before_the_tape(tf):
    x = _f64(tf, 2.0)

    def run():
        y = x * 3.0
        with tf.GradientTape() as tape:
            tape.watch(x)
            z = y * x
        return tape.gradient(z, [x, y])
    return run


@program
def duplicate_and_nested_sources(tf):
    x, w = _f64(tf, 2.0), _f64(tf, [1.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = x * x * tf.reduce_sum(w)
        return tape.gradient(y, {"a": [x, x], "b": (w,)})
    return run


@program
def target_is_the_source(tf):
    x = _f64(tf, [1.0, 2.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
        return tape.gradient(x, x)
    return run


@program
def nested_targets(tf):
    x = _f64(tf, 2.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y, z = x * x, x * 3.0
        return tape.gradient({"y": y, "z": [z, z]}, x)
    return run


@program
def unconnected_zero_and_none(tf):
    x, z = _f64(tf, 3.0), _f64(tf, [1.0, 2.0])
    v = tf.Variable(np.ones((2, 2)))

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, z])
            y = x * x
        return (tape.gradient(y, [x, z, v]),
                tape.gradient(y, [x, z, v], unconnected_gradients=tf.UnconnectedGradients.ZERO))
    return run


@program
def output_gradients(tf):
    x = _f64(tf, [1.0, 2.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            z = tf.reduce_sum(x)
        return tape.gradient([y, z], x, output_gradients=[_f64(tf, [1.0, 0.5, 2.0]), None])
    return run


@program
def output_gradients_wrong_shape(tf):
    x = _f64(tf, [1.0, 2.0, 3.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x, output_gradients=_f64(tf, [1.0, 2.0]))
    return run


# ---------------------------------------------------------------- recording

@program
def stop_recording(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            with tape.stop_recording():
                y = x * x
            z = y * x
        return tape.gradient(z, x), tape.gradient(y, x)
    return run


@program
def reset(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x  # noqa: F841 - recorded, then the tape is reset
            tape.reset()
            tape.watch(x)
            z = x * 5.0
        return tape.gradient(z, x)
    return run


@program
def reset_forgets_the_target(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            tape.reset()
        return tape.gradient(y, x)
    return run


@program
def gradient_inside_the_block(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
            g = tape.gradient(y, x)
            z = g * x
        return g, z
    return run


@program
def persistent_records_its_gradient(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x * x
            g = tape.gradient(y, x)
        return g, tape.gradient(g, x)
    return run


@program
def reentered_persistent_tape(tf):
    x = _f64(tf, 3.0)

    def run():
        tape = tf.GradientTape(persistent=True)
        with tape:
            tape.watch(x)
            y = x * x
        with tape:
            z = y * x
        return tape.gradient(z, x), tape.gradient(y, x)
    return run


@program
def non_persistent_used_twice(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        tape.gradient(y, x)
        return tape.gradient(y, x)
    return run


@program
def integer_target(tf):
    x = _f64(tf, 3.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cast(x, tf.int32)
        return tape.gradient(y, x)
    return run


# ---------------------------------------------------------------- Variables

@program
def trainable_and_frozen_variables(tf):
    v, w = tf.Variable(2.0), tf.Variable(5.0, trainable=False)

    def run():
        with tf.GradientTape() as tape:
            y = v * v * w
        return tape.gradient(y, [v, w]), [x.name for x in tape.watched_variables()]
    return run


@program
def watch_accessed_variables_false(tf):
    v, w = tf.Variable(2.0), tf.Variable(3.0)

    def run():
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(w)
            y = v * w
        return tape.gradient(y, [v, w]), len(tape.watched_variables())
    return run


@program
def variable_slice_read(tf):
    v = tf.Variable(np.arange(6.0).reshape(2, 3))

    def run():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v[1, 1:] * 3.0) + v[0, 0]
        return tape.gradient(y, v)
    return run


@program
def variable_gather_read(tf):
    v = tf.Variable(np.arange(6.0).reshape(3, 2))

    def run():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * 2.0)
        return tape.gradient(y, v)
    return run


@program
def assign_inside_the_tape(tf):
    v = tf.Variable(np.array([1.0, 2.0]))
    x = _f64(tf, [3.0, 4.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            v.assign(x * 2.0)
            y = tf.reduce_sum(v * 3.0)
        return tape.gradient(y, [x, v])
    return run


@program
def assign_add_between_reads(tf):
    v = tf.Variable(2.0)

    def run():
        v.assign(2.0)
        with tf.GradientTape() as tape:
            a = v * 1.0
            v.assign_add(1.0)
            b = v * v
            y = a * b
        return tape.gradient(y, v)
    return run


@program
def variable_target(tf):
    v = tf.Variable(np.array([1.0, 2.0]))

    def run():
        with tf.GradientTape() as tape:
            pass
        return tape.gradient(v, v)
    return run


@program
def variables_in_cond_branches(tf):
    v, w = tf.Variable(2.0, dtype=tf.float64), tf.Variable(3.0, dtype=tf.float64)
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x > 1.0, lambda: v * x * x, lambda: w * x)
        return tape.gradient(y, [x, v, w])
    return run


@program
def variable_in_a_while_loop(tf):
    v = tf.Variable(0.9, dtype=tf.float64)
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda i, y: y < 10.0, lambda i, y: (i + 1, y * (1.0 + v) + x),
                              (0, x), maximum_iterations=20)[1]
        return tape.gradient(y, [x, v])
    return run


# ---------------------------------------------------------------- ops and control flow

@gradient_of([1.0, -2.0])
def stop_gradient_and_identity(tf, x):
    return tf.reduce_sum(tf.stop_gradient(x * x) * x + tf.identity(x) * 2.0)


@gradient_of([0.0, 4.0])
def where_with_nan_in_the_other_branch(tf, x):
    return tf.reduce_sum(tf.where(x > 0.0, tf.sqrt(x), tf.zeros_like(x)))


@gradient_of([1.5, 2.5], np.float32)
def cast_float32_to_float64(tf, x):
    return tf.reduce_sum(tf.cast(x, tf.float64) ** 2)


@gradient_of([0.5, -1.0])
def tensor_array_in_a_loop(tf, x):
    ta = tf.TensorArray(tf.float64, size=3)
    for i in range(3):
        ta = ta.write(i, x * float(i + 1))
    return tf.reduce_sum(ta.stack() * ta.read(1))


@gradient_of([0.5, -1.0, 2.0])
def map_fn_and_scan(tf, x):
    return tf.reduce_sum(tf.map_fn(tf.sin, x)) + tf.reduce_sum(tf.scan(lambda a, e: a * e, x))


@program
def second_order_through_a_loop(tf):
    x = _f64(tf, 1.5)

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])[1]
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)
    return run


@program
def jacobians(tf):
    x = _f64(tf, [[0.1, 0.2], [0.3, 0.4]])

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = tf.sin(x) * x
        return tape.jacobian(y, x), tape.batch_jacobian(y, x)
    return run


# ---------------------------------------------------------------- more API corners

@program
def watch_a_python_list(tf):
    def run():
        with tf.GradientTape() as tape:
            tape.watch([1.0, 2.0])
        return None
    return run


@program
def stop_recording_when_not_recording(tf):
    def run():
        tape = tf.GradientTape()
        with tape.stop_recording():
            pass
        return None
    return run


@program
def enter_a_recording_tape_again(tf):
    def run():
        tape = tf.GradientTape()
        with tape:
            with tape:
                pass
        return None
    return run


@program
def numpy_source(tf):
    x = _f64(tf, 2.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, np.float64(2.0))
    return run


@program
def python_number_target(tf):
    x = _f64(tf, 2.0)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
        return tape.gradient(3.0, x)
    return run


@program
def gradient_then_jacobian_on_a_persistent_tape(tf):
    x = _f64(tf, [1.0, 2.0])
    v = tf.Variable(np.array([0.5, 0.25]))

    def run():
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x * v
        return (tape.gradient(y, [x, v]), tape.jacobian(y, [x, v]),
                tape.jacobian(y, x, experimental_use_pfor=False))
    return run


@program
def batch_jacobian_of_a_variable(tf):
    v = tf.Variable(np.array([[1.0, 2.0], [3.0, 4.0]]))

    def run():
        with tf.GradientTape() as tape:
            y = tf.sin(v) * v
        return tape.batch_jacobian(y, v)
    return run


@program
def unused_variable_in_a_list(tf):
    a, b = tf.Variable(1.0), tf.Variable(2.0)

    def run():
        with tf.GradientTape() as tape:
            y = a * 3.0
            _ = b + 1.0
        return tape.gradient(y, [a, b]), len(tape.watched_variables())
    return run


@program
def cond_and_switch_case(tf):
    x = _f64(tf, 0.7)
    v = tf.Variable(2.0, dtype=tf.float64)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x < 1.0, lambda: tf.sin(x) * v, lambda: x)
            z = tf.switch_case(tf.constant(1), [lambda: x * 2.0, lambda: x * x * v,
                                                lambda: x])
        return tape.gradient(y + z, [x, v])
    return run


@program
def variable_only_in_the_untaken_branch(tf):
    x = _f64(tf, 0.7)
    v = tf.Variable(2.0, dtype=tf.float64)

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(x < 1.0, lambda: x * 3.0, lambda: x * v)
        return tape.gradient(y, [x, v])
    return run


@gradient_of([1.0, 2.0], np.float16)
def float16_and_float32_mix(tf, x):
    return tf.reduce_sum(tf.cast(x, tf.float32) * 3.0)


@program
def gradient_of_a_tf_function_call(tf):
    v = tf.Variable(np.array([1.0, 2.0]))
    x = _f64(tf, [0.5, 0.25])
    inner = tf.function(lambda x: tf.reduce_sum(tf.sin(x) * v))

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x) * 2.0
        return tape.gradient(y, [x, v])
    return run


@gradient_of([0.5, -1.0])
def tensor_array_read_in_a_cond(tf, x):
    ta = tf.TensorArray(tf.float64, size=2).write(0, x * 2.0).write(1, tf.sin(x))
    return tf.cond(tf.reduce_sum(x) < 0.0, lambda: ta.read(1), lambda: ta.read(0))


@gradient_of([0.5, 0.25])
def while_loop_with_a_tensor_array(tf, x):
    def body(i, y, ta):
        return i + 1, y * 1.5, ta.write(i, tf.reduce_sum(y))
    _, y, ta = tf.while_loop(lambda i, y, ta: tf.reduce_sum(y) < 4.0, body,
                             (0, x, tf.TensorArray(tf.float64, size=0, dynamic_size=True)))
    return tf.reduce_sum(ta.stack()) + tf.reduce_sum(y)


@program
def second_order_through_a_cond(tf):
    x = _f64(tf, [0.7, -0.2])

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.cond(tf.reduce_sum(x) > 0.0, lambda: tf.reduce_sum(tf.sin(x) * x),
                            lambda: tf.reduce_sum(x * x * x))
            g = inner.gradient(y, x)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, x)   # (TF's jacobian of g fails in tf.function: pfor)
    return run


@program
def hessian_of_a_small_mlp(tf):
    rng = np.random.RandomState(0)
    w1 = tf.Variable(rng.normal(size=(3, 4)))
    w2 = tf.Variable(rng.normal(size=(4, 1)))
    x = _f64(tf, rng.normal(size=(5, 3)))

    def run():
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.reduce_mean(tf.tanh(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2)) ** 2)
            g = inner.gradient(y, w1)
            s = tf.reduce_sum(g * g)
        return g, outer.gradient(s, [w1, w2])
    return run


@program
def scan_with_a_variable(tf):
    v = tf.Variable(0.5, dtype=tf.float64)
    x = _f64(tf, [0.5, -1.0, 2.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.scan(lambda a, e: tf.tanh(a * v + e), x,
                                      initializer=tf.constant(0.1, tf.float64)))
        return tape.gradient(y, [x, v])
    return run


@program
def second_order_of_map_fn(tf):
    x = _f64(tf, [0.5, -1.0])

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(tf.map_fn(lambda e: e * tf.sin(e), x))
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)
    return run


# ---------------------------------------------------------------- custom gradients

def _log1pexp(tf):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    return log1pexp


@gradient_of([0.0, 3.0, 100.0], np.float32)
def custom_gradient_log1pexp(tf, x):
    return _log1pexp(tf)(x)


@gradient_of([3.0, 4.0])
def custom_gradient_clip_by_norm(tf, x):
    @tf.custom_gradient
    def clip(a, norm):
        return tf.identity(a), lambda dy: [tf.clip_by_norm(dy, norm), None]
    return tf.reduce_sum(clip(x * 10.0, 1.0) * x)


@gradient_of(2.0)
def custom_gradient_nested_outputs(tf, x):
    @tf.custom_gradient
    def f(a):
        return [a * 2.0, {"k": a * 3.0}], lambda d1, d2: d1 * 5.0 + d2 * 7.0
    out = f(x)
    return out[0] + out[1]["k"]


@program
def custom_gradient_none_and_two_inputs(tf):
    a, b = _f64(tf, 2.0), _f64(tf, 3.0)

    @tf.custom_gradient
    def f(p, q):
        return p * q, lambda dy: (dy * q, None)

    def run():
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            y = f(a, b)
        return tape.gradient(y, [a, b])
    return run


@program
def custom_gradient_variables(tf):
    v = tf.Variable(np.float64(2.0))
    x = _f64(tf, 3.0)

    @tf.custom_gradient
    def f(a):
        return a * v, lambda dy, variables=None: (dy * v * 10.0, [dy * a * 100.0])

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, [x, v])
    return run


@program
def custom_gradient_second_order(tf):
    x = _f64(tf, 2.0)

    @tf.custom_gradient
    def cube(a):
        return a * a * a, lambda dy: dy * 3.0 * a * a

    def run():
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = cube(x)
            g = inner.gradient(y, x)
        return g, outer.gradient(g, x)
    return run


@program
def custom_gradient_wrong_count(tf):
    x = _f64(tf, 2.0)

    @tf.custom_gradient
    def f(a, b):
        return a * b, lambda dy: dy

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x, x)
        return tape.gradient(y, x)
    return run


@gradient_of([1.0, 2.0])
def recompute_grad_block(tf, x):
    return tf.recompute_grad(lambda a: tf.reduce_sum(tf.sin(a) * a))(x)


@gradient_of(2.0)
def grad_pass_through_round(tf, x):
    return tf.grad_pass_through(tf.round)(x * 1.3)


# ---------------------------------------------------------------- running

class Outcome:
    """What one run gave: flat leaves (None, or (value, dtype, shape)) or an
    error class name."""

    def __init__(self, leaves=None, error=None, message=""):
        self.leaves, self.error, self.message = leaves, error, message


def _error_class(exc):
    """A name comparable across both libraries (see tools/tf_diff.py)."""
    for cls in type(exc).__mro__:
        if cls.__module__ == "builtins" or any(b.__name__ == "OpError" for b in cls.__mro__):
            return cls.__name__
    return type(exc).__name__


def _leaves(tf, out):
    if out is None:
        return [None]
    if isinstance(out, dict):
        return [leaf for k in sorted(out) for leaf in _leaves(tf, out[k])]
    if isinstance(out, (tuple, list)):
        return [leaf for item in out for leaf in _leaves(tf, item)]
    if type(out).__name__ == "IndexedSlices":
        out = tf.convert_to_tensor(out)
    if tf.is_tensor(out):
        value = np.asarray(out.numpy())
        return [(value, out.dtype.name, value.shape)]
    return [(np.asarray(out), "python:" + type(out).__name__, np.shape(out))]


def run_program(tf, build, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn = build(tf)
            out = fn() if mode == "eager" else tf.function(fn)()
            return Outcome(_leaves(tf, out))
        except Exception as e:  # noqa: BLE001 - the error class is what is compared
            return Outcome(error=_error_class(e), message=str(e).splitlines()[0][:160])


def compare(ours, theirs):
    """'' when both outcomes agree, else what differs."""
    if ours.error or theirs.error:
        if ours.error != theirs.error:
            return (f"ours {ours.error or 'ran'} ({ours.message}), "
                    f"TF {theirs.error or 'ran'} ({theirs.message})")
        return ""
    if len(ours.leaves) != len(theirs.leaves):
        return f"{len(ours.leaves)} results, TF {len(theirs.leaves)}"
    for k, (a, b) in enumerate(zip(ours.leaves, theirs.leaves)):
        if (a is None) != (b is None):
            return f"result {k}: ours {'None' if a is None else 'a value'}, " \
                   f"TF {'None' if b is None else 'a value'}"
        if a is None:
            continue
        if a[1] != b[1] or a[2] != b[2]:
            return f"result {k}: ours {a[1]}{list(a[2])}, TF {b[1]}{list(b[2])}"
        if a[0].dtype.kind in "fc":
            if not np.allclose(a[0], b[0], rtol=1e-5, atol=1e-6, equal_nan=True):
                return f"result {k}: ours {a[0].tolist()}, TF {b[0].tolist()}"
        elif not np.array_equal(a[0], b[0]):
            return f"result {k}: ours {a[0].tolist()}, TF {b[0].tolist()}"
    return ""


def run(ours, theirs, pattern="*", verbose=False, out=sys.stdout):
    """Compare every program matching `pattern`; returns the mismatch lines."""
    mismatches, checked, expected = [], 0, 0
    for name, build in PROGRAMS.items():
        if not fnmatch.fnmatch(name, pattern):
            continue
        for mode in ("eager", "function"):
            checked += 1
            diff = compare(run_program(ours, build, mode), run_program(theirs, build, mode))
            if diff and name in EXPECTED:
                expected += 1
                if verbose:
                    print(f"expected {mode} {name}: {diff} ({EXPECTED[name]})", file=out)
            elif diff:
                line = f"MISMATCH {mode} {name}: {diff}"
                mismatches.append(line)
                print(line, file=out)
            elif verbose:
                print(f"ok       {mode} {name}", file=out)
    print(f"\n{checked} checks, {len(mismatches)} mismatches, {expected} expected differences",
          file=out)
    return mismatches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="*", help="fnmatch pattern on the program name")
    parser.add_argument("-v", "--verbose", action="store_true", help="list agreeing checks too")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    sys.path.insert(0, str(ROOT))
    import runtime as ours
    import tensorflow as theirs
    theirs.get_logger().setLevel("CRITICAL")
    return 1 if run(ours, theirs, args.only, args.verbose) else 0


if __name__ == "__main__":
    sys.exit(main())
