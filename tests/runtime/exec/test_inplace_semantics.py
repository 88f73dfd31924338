"""Values handed out never change when memory is reused (tools/fuzz.py --variables).

The graph executor updates a Variable's array in place when nothing else
refers to it (runtime/_src/function/variables.py `_sole_owner`, with dead reads
deleted in generated code) and overwrites a float temporary that only its
elementwise consumer reads (runtime/_src/exec/codegen.py `Emitter.donor`).
These are the shapes of program the --variables fuzz mode checks, written
out: reads held across updates in tensor loops and branches, tensors returned
by a graph and held across its next call, persistent tapes, a nested
tf.function, an optimizer's slots, temporaries read twice. Values are dyadic,
so every comparison is exact.

The last test pins the result of `assign_add`: the value just written,
where TensorFlow returns the Variable lazily read (a difference listed in
docs/tf_differences.md). Writing into `np.asarray(...)` of a read or a
Variable is tests/runtime/ops/nn/test_training_kernels.py's.
"""

import numpy as np
import pytest

import runtime as tf


def _vec(*values):
    return tf.constant(np.array(values, np.float64))


def _var(*values):
    return tf.Variable(np.array(values, np.float64))


def test_reads_held_across_updates_in_a_tensor_loop_and_branch():
    v = _var(1.0, 2.0, 3.0)

    @tf.function
    def f(x, n):
        first = v.read_value()
        last = v + 0
        for _ in tf.range(n):
            last = tf.identity(v)
            v.assign_add(x * 2.0 + last)          # a temporary, then the update
            if tf.reduce_sum(v) > 0.0:
                v.assign_sub(x)
        return first, last, v.read_value()

    first, last, now = f(_vec(0.5, 0.5, 0.5), tf.constant(2))
    np.testing.assert_array_equal(first.numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(last.numpy(), [2.5, 4.5, 6.5])
    np.testing.assert_array_equal(now.numpy(), [5.5, 9.5, 13.5])


def test_a_graph_output_held_across_the_next_call():
    v = _var(1.0, -1.0, 0.5)

    @tf.function
    def f(d):
        before = v.read_value()
        v.assign_add(d)
        return before, v.read_value()

    a, b = f(_vec(1.0, 1.0, 1.0))
    c, d = f(_vec(0.25, 0.25, 0.25))            # its updates must not reach a or b
    for got, want in [(a, [1.0, -1.0, 0.5]), (b, [2.0, 0.0, 1.5]),
                      (c, [2.0, 0.0, 1.5]), (d, [2.25, 0.25, 1.75])]:
        np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("staged", [False, True])
def test_persistent_tape_gradients_before_and_after_an_update(staged):
    v = _var(1.0, 2.0, -1.0)

    def f(c):
        with tf.GradientTape(persistent=True) as tape:
            loss = tf.reduce_sum((v * 2.0 - c) * v)
        g0 = tape.gradient(loss, v)
        v.assign_sub(g0 * 0.25)
        g1 = tape.gradient(loss, v)               # still the value the forward pass read
        return g0, g1, v.read_value()

    g0, g1, now = (tf.function(f) if staged else f)(_vec(0.5, 0.5, 0.5))
    np.testing.assert_array_equal(g0.numpy(), [3.5, 7.5, -4.5])      # 4v - c
    np.testing.assert_array_equal(g1.numpy(), g0.numpy())
    np.testing.assert_array_equal(now.numpy(), [0.125, 0.125, 0.125])


def test_reads_returned_by_a_nested_function_and_held_eagerly():
    v = _var(1.0, 2.0, 3.0)

    @tf.function
    def step(d):
        r = v.read_value()
        v.assign_add(d * 0.5)
        return r

    held = [step(_vec(1.0, 1.0, 1.0)), np.asarray(v)]

    @tf.function
    def outer(d):
        r = step(d)                               # inlined into outer's graph
        v.assign_sub(d)
        return r

    held.append(outer(_vec(2.0, 2.0, 2.0)))
    np.testing.assert_array_equal(held[0].numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(held[1], [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(held[2].numpy(), [1.5, 2.5, 3.5])
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5, 2.5])


def test_optimizer_steps_leave_earlier_reads_of_weights_and_slots_alone():
    v = _var(1.0, 2.0, 3.0)
    opt = tf.keras.optimizers.SGD(learning_rate=0.5, momentum=0.5)

    @tf.function
    def f(g):
        before = v.read_value()
        opt.apply_gradients([(g, v)])
        opt.apply_gradients([(g * 2.0, v)])
        return before

    held = [f(_vec(1.0, 0.0, -1.0)), f(_vec(1.0, 0.0, -1.0))]
    # m = 0.5 m - 0.5 g; v += m: m = -0.5g, -1.25g, -1.125g, -1.5625g
    np.testing.assert_array_equal(held[0].numpy(), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(held[1].numpy(), [-0.75, 2.0, 4.75])
    np.testing.assert_array_equal(v.numpy(), [-3.4375, 2.0, 7.4375])


def test_a_temporary_read_twice_or_returned_is_not_overwritten():
    m = _var(1.0, 0.5, 0.0, 2.0)

    @tf.function
    def f(x, y):
        t = (x * 2.0 + y) - x                     # chained: the temporaries are reused
        u = t * t + t                             # t read twice
        w = tf.reshape(tf.matmul(tf.reshape(m, [2, 2]), tf.reshape(u, [2, 1])), [2])
        return t, u, w * 0.5 + u, w

    t, u, z, w = f(_vec(1.0, -1.0), _vec(0.5, 0.25))
    np.testing.assert_array_equal(t.numpy(), [1.5, -0.75])
    np.testing.assert_array_equal(u.numpy(), [3.75, -0.1875])
    np.testing.assert_array_equal(w.numpy(), [3.65625, -0.375])
    np.testing.assert_array_equal(z.numpy(), [5.578125, -0.375])


# --- what an update returns -----------------------------------------------------------

@pytest.mark.parametrize("staged", [False, True])
def test_assign_add_result_is_the_value_just_written(staged):
    """A later update does not show in `r`, eagerly or returned by a graph.
    TensorFlow 2.21 differs (docs/tf_differences.md): `r` is an
    `_UnreadVariable`, read when used, so it would hold [12, 13, 14] here."""
    v = _var(1.0, 2.0, 3.0)

    def f():
        r = v.assign_add(_vec(1.0, 1.0, 1.0))
        v.assign_add(_vec(10.0, 10.0, 10.0))
        return r

    r = (tf.function(f) if staged else f)()
    np.testing.assert_array_equal(np.asarray(r), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal(v.numpy(), [12.0, 13.0, 14.0])
