"""tools/tape_diff.py's tape programs for the API's corners: Python lists and numbers as sources and targets,
re-entered tapes, batch jacobians, cond and switch_case, mixed precision, second
order through cond and map_fn."""

import numpy as np

from tape_diff_programs.base import _f64, gradient_of, program


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
