"""Staging a `for` over a stream: an iterable a backend cannot index (a
dataset, an iterator), only ask for its next item.

    for item in ds:              n, (has, item) = 0, stream.next(True)
        s = body(item, s)   ->   while has:
                                     s = body(item, s); n += 1
                                     has, item = stream.next(extra_test(s))

The next item is fetched at the end of each iteration, and only while the
loop goes on (`extra_test`: no break or return yet), so an iterator the user
holds loses no item to a `break`. Items are carried flat (tensors) as loop
variables; `n` counts iterations (for "must iterate at least once").
"""

from . import loops

__all__ = ["staged_stream"]


def staged_stream(backend, stream, body, state, names, extra_test, where, opts=None):
    has, flat = stream.next(True if extra_test is None else extra_test(*state))
    flat = tuple(flat)
    k = len(flat)

    def test(n, has, *rest):
        return has

    def step(n, has, *rest):
        out = body(stream.pack(rest[:k]), *rest[k:])
        out = () if out is None else tuple(out)
        has, item = stream.next(True if extra_test is None else extra_test(*out))
        return (n + 1, has) + tuple(item) + out

    item_names = tuple(f"<item {i}>" for i in range(k))
    out = loops._stage(backend, test, step, (0, has) + flat + tuple(state),
                       ("iteration", "<has item>") + item_names + tuple(names), where, "for",
                       opts)
    return out[2 + k:]
