"""Nested functions, closures and lambdas inside converted functions."""


def make_scaler(factor):
    def scale(values):
        out = []
        for v in values:
            out.append(v * factor if v > 0 else 0)
        return out
    return scale


def double(v):
    return v * 2


def apply_n_times(fn, x, n):
    i = 0
    while i < n:
        x = fn(x)
        i += 1
    return x


def polynomial_root(coeffs, lo, hi):
    """Bisection on a polynomial given by coefficients (lowest first)."""
    def evaluate(x):
        total = 0
        for c in reversed(coeffs):
            total = total * x + c
        return total

    for _ in range(60):
        mid = (lo + hi) / 2
        if evaluate(lo) * evaluate(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return round((lo + hi) / 2, 6)


def counter_totals(steps):
    count = 0

    def bump(by):
        nonlocal count
        count += by
        return count

    history = []
    for s in steps:
        if s:
            history.append(bump(s))
    return count, history


def sort_by_distance(points, origin):
    key = lambda p: abs(p - origin) if p >= origin else abs(p - origin) + 0.5
    return sorted(points, key=key)


def outer_sum(matrix):
    def row_sum(row):
        total = 0
        for x in row:
            if x < 0:
                continue
            total += x
        return total
    return [row_sum(r) for r in matrix]
