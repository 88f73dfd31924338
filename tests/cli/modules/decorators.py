"""Decorated functions: wrappers, arguments, stacking, functools."""

import functools

CALL_LOG = []


def logged(fn):
    """Record every call's function name in CALL_LOG."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        CALL_LOG.append(fn.__name__)
        return fn(*args, **kwargs)
    return wrapper


def repeat(times):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(x):
            for _ in range(times):
                x = fn(x)
            return x
        return wrapper
    return decorate


@logged
def absolute(x):
    if x < 0:
        x = -x
    return x


@repeat(3)
def halve_if_even(x):
    if x % 2 == 0:
        return x // 2
    return x


@logged
@repeat(2)
def step(x):
    return x + 1 if x < 10 else x


@functools.lru_cache(maxsize=None)
def partitions(n, largest=None):
    """Number of integer partitions of n with parts <= largest."""
    if largest is None:
        largest = n
    if n == 0:
        return 1
    total = 0
    k = min(n, largest)
    while k > 0:
        total += partitions(n - k, k)
        k -= 1
    return total

