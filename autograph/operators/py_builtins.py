"""Builtins that also work on tensors.

Each behaves exactly like the builtin of the same name on Python values; on a
backend's tensors it calls the backend:

    len(t)          # a Python int when the first dimension is known
    range(n)        # a 1-D tensor when n is a tensor
    int(t), float(t)    # cast to int32 (truncating) / float32
    abs(t), min(t), max(a, b), sum(t)
    enumerate(t), zip(t, u)   # iterated by a staged for loop
    print(*objects)     # with Feature.BUILTIN_FUNCTIONS, tensors print their
                        # values when the graph runs (TensorFlow's converted
                        # print); otherwise Python's print, while tracing
"""

import builtins

from ..backend import backend_of
from . import options
from .loops import IndexedIterable

__all__ = ["len_", "range_", "int_", "float_", "abs_", "min_", "max_", "sum_", "enumerate_",
           "zip_", "print_"]


def len_(x):
    backend = backend_of(x)
    if backend is None:
        return builtins.len(x)
    return backend.len(x)


def range_(*args):
    backend = backend_of(*args)
    if backend is None:
        return builtins.range(*args)
    if builtins.len(args) == 1:
        start, limit, delta = 0, args[0], 1
    else:
        start, limit, delta = (tuple(args) + (1,))[:3]
    return backend.range(start, limit, delta)


def int_(x=0, *args):
    backend = backend_of(x)
    if backend is None or args:
        return builtins.int(x, *args)
    return backend.cast(x, "int")


def float_(x=0.0):
    backend = backend_of(x)
    if backend is None:
        return builtins.float(x)
    return backend.cast(x, "float")


def abs_(x):
    return builtins.abs(x)


def _extreme(kind, builtin, args, kwargs):
    backend = backend_of(*args)
    if backend is None or kwargs:
        return builtin(*args, **kwargs)
    if builtins.len(args) == 1:
        return backend.reduce(kind, args[0])
    result = args[0]
    for a in args[1:]:
        result = backend.elementwise(kind, result, a)
    return result


def min_(*args, **kwargs):
    return _extreme("min", builtins.min, args, kwargs)


def max_(*args, **kwargs):
    return _extreme("max", builtins.max, args, kwargs)


def sum_(iterable, start=0):
    """`sum(t)` of a tensor adds along its first dimension (as iterating it
    would); a list appended to in a staged loop is stacked first."""
    backend = backend_of(iterable)
    if backend is None:
        return builtins.sum(iterable, start)
    total = backend.sum0(iterable)
    return total if isinstance(start, int) and start == 0 else total + start


def enumerate_(iterable, start=0):
    if isinstance(iterable, IndexedIterable):      # enumerate(zip(t, u))
        inner = iterable.item
        return IndexedIterable(iterable.backend, iterable.length,
                               lambda i: (i + start, inner(i)))
    backend = backend_of(iterable)
    if backend is None:
        return builtins.enumerate(iterable, start)
    return IndexedIterable(backend, backend.size0(iterable),
                           lambda i: (i + start, backend.getitem(iterable, i)))


def zip_(*iterables):
    backend = backend_of(*iterables)
    indexed = [it for it in iterables if isinstance(it, IndexedIterable)]
    if backend is None and indexed:                # zip(enumerate(t), u)
        backend = indexed[0].backend
    if backend is None:
        return builtins.zip(*iterables)

    def size(it):
        if isinstance(it, IndexedIterable):
            return it.length
        return backend.size0(it) if backend.is_tensor(it) else builtins.len(it)

    def get(it, i):
        if isinstance(it, IndexedIterable):
            return it.item(i)
        return backend.getitem(it, i) if backend.is_tensor(it) else it[i]

    sizes = [size(it) for it in iterables]
    length = sizes[0]
    for s in sizes[1:]:
        length = backend.elementwise("min", length, s)

    def item(i):
        return tuple(get(it, i) for it in iterables)
    return IndexedIterable(backend, length, item)


def print_(*objects, **kwargs):
    """`print`: as Python's, except that with Feature.BUILTIN_FUNCTIONS a
    call with a staged tensor among `objects` becomes a graph operation
    printing them as Python prints numpy values, at every run, in program
    order (TensorFlow's converted print: a py_func around print)."""
    backend = backend_of(*objects) if options.enabled("builtin_functions") else None
    if backend is not None:
        try:
            return backend.print_(objects, kwargs)
        except NotImplementedError:
            pass
    return builtins.print(*objects, **kwargs)
