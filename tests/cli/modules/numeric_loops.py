"""Numeric loops: the kind of small integer algorithms people convert first.

Every function here is pure and takes plain Python numbers or lists, so the
converted module can be compared with this one call by call.
"""

import math

TOLERANCE = 1e-9  # shared by the iterative solvers below


def collatz_steps(n):
    """Number of Collatz steps from n down to 1."""
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def gcd(a, b):
    # Euclid, iterative.
    while b:
        a, b = b, a % b
    return a


def is_prime(n):
    if n < 2:
        return False
    for d in range(2, int(math.sqrt(n)) + 1):
        if n % d == 0:
            break
    else:
        return True
    return False


def sum_of_odd_squares(n):
    total = 0
    for i in range(n):
        if i % 2 == 0:
            continue  # even numbers do not count
        total += i * i
    return total


def first_index_above(values, limit):
    """Index of the first value above `limit`, or -1."""
    index = -1
    for i, v in enumerate(values):
        if v > limit:
            index = i
            break
    return index


def fibonacci(n):
    a, b = 0, 1
    i = 0
    while i < n:
        a, b = b, a + b
        i += 1
    return a


def newton_sqrt(x, max_iter=50):
    if x == 0:
        return 0.0
    guess = x / 2 if x > 1 else 1.0
    for _ in range(max_iter):
        nxt = 0.5 * (guess + x / guess)
        if abs(nxt - guess) < TOLERANCE:
            return nxt
        guess = nxt
    return guess


def clipped_sum(values, low, high):
    total = 0
    for v in values:
        total += low if v < low else (high if v > high else v)
    return total


def count_in_range(values, low, high):
    count = 0
    for v in values:
        if low <= v < high and not v == 0:
            count += 1
    return count


def digits_reversed(n):
    out = 0
    while n > 0:
        out = out * 10 + n % 10
        n //= 10
    return out


def mean(values):
    return sum(values) / len(values)
