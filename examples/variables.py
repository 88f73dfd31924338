"""Variables: captured by reference, so every graph run reads and writes them.

The counter `c` grows on every call of `f` (the `assign_add` is a side effect
that always runs). Methods decorated with `function` are bound per instance:
`d1` and `d2` each trace their own graph over their own variables.

    python examples/variables.py
"""

import runtime as tf

c = tf.Variable(0)


@tf.function
def f(x):
    c.assign_add(1)
    return x + tf.cast(c, tf.float32)


class Dense:
    def __init__(self):
        self.W = tf.Variable(tf.random.uniform((10, 10)))
        self.b = tf.Variable(tf.zeros(10))

    @tf.function
    def compute(self, x):
        return tf.matmul(x, self.W) + self.b


def main():
    print("c =", int(c))
    print("f(1.0) =", f(1.0).numpy(), " c =", int(c))
    print("f(1.0) =", f(1.0).numpy(), " c =", int(c))

    d1 = Dense()
    d2 = Dense()
    x = tf.random.uniform((10, 10))
    same = (d1.compute(x).numpy() == d2.compute(x).numpy()).all()
    print("d1 and d2 give the same result:", same)


if __name__ == "__main__":
    main()
