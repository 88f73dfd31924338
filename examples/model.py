"""A tiny model: the file the README's `autograph` CLI examples run on.

    autograph check examples/model.py
    autograph convert examples/model.py --function clip --function total
    autograph graph examples/model.py::total --signature "int32[]"
"""
import runtime as tf


def clip(x, limit):
    if x > limit:
        x = limit
    return x


def total(n):
    s = 0
    while n > 0:
        s += n
        n -= 1
    return s


def gen(n):
    yield n


def main():
    print(clip(7, 5), total(4), list(gen(3)))
    print(tf.function(clip)(tf.constant(7), tf.constant(5)).numpy(),
          tf.function(total)(tf.constant(4)).numpy())


if __name__ == "__main__":
    main()
