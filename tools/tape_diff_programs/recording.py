"""tools/tape_diff.py's tape programs for recording: stop_recording, reset, persistent tapes, gradients taken
inside the block, integer targets."""

from tape_diff_programs.base import _f64, program


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
