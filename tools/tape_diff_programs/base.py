"""The registry of tools/tape_diff.py's programs.

A program is `fn(tf) -> run`: it creates what must exist before a
`tf.function` is traced (Variables) with the library `tf` it is given and
returns `run()`, whose result (a nested structure of tensors, None and
Python values) is compared. `@program` registers such a function;
`@gradient_of(value, dtype)` registers `fn(tf, x) -> y` as the gradient of y
for x, a watched constant. A module per family registers its programs; the
package imports them all, in the order the runner reports them.
"""

import numpy as np

PROGRAMS = {}


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
