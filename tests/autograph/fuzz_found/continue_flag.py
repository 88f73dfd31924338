"""A composites-mode program of a differential fuzz (tools/fuzz.py
--composites), verbatim. Python and TF 2.21 (`tf.function(f)(tf.constant(9),
tf.constant(-72))`) both return (0, {'k0': -3, 'k1': -2}, {'a0': 9,
'a1': -9, 'a3': 7}) for f(9, -72); the staged run here raised "the loop
must iterate at least once to define 'continue_'": `vars(o)` made every
local live, so the `continue_` flag of the `for j0` loop became state of
the `while i0` loop around it, which runs zero times."""


class Obj:
    def __init__(self, p0, p1):
        self.a0 = p0
        self.a1 = p1


def g(u, v):
    t0 = u % 3
    t1 = v // 9 * (u % 3)
    jj0 = 0
    ii0 = 0
    t0, t1 = (t1 % 5 - u % 2) * (v % 2) * v, u
    for jj0 in range(3):
        ii0 = 0
        while (t1 - v) % 6 != 5 and ii0 < 4:
            ii0 += 1
            if not (not (t0 % 8 + t1 % (v % 8 + 1) == u)):
                t1 = jj0
                if t1 % 7 != 6:
                    continue
            elif u != (t1 % 3 + jj0) * v:
                t0 = u
            t0 = u % (v % 7 + 1) // 6 % (t0 % 3 + 1)
        if not (jj0 // (5 % 3 + 1) < jj0):
            break
    t1 -= t0 % 3
    t1 %= 100
    return t1 % 3 + t0 % 7


def f(a, b):
    x0 = 6
    x1 = -1
    x2 = -a
    i0 = 0
    i1 = 0
    j0 = 0
    j1 = 0
    d = {"k0": -3, "k1": -2}
    o = Obj(a, -9)
    x2 = 6
    i0 = 6
    while i0 > 0 and not (a > -x2):
        i0 = i0 - 1
        i1 = 3
        while (b <= g(a * (x2 % 2), b) and x0 >= a % 3 * o.a0) and i1 > 0:
            i1 -= 1
            d["k0"] -= o.a1 % 2 - d["k1"] % 10
            d["k0"] = d["k0"] % 2001 - 1000
        for j0 in range(a % 2):
            if x2 < a % 3 * (b % (x0 % 8 + 1)):
                x1 += b + -d["k0"] % 9
                x1 %= 997
                if (x1 % 3 * x0 < 10 or b % (x2 % 9 + 1) == x2 // (x2 % 9 + 1)) or x0 < 6:
                    continue
                x1 += g(j0 + a % 10, a % 7 * (a % 3)) % 6 // 8
                x1 %= 1000
            else:
                d["k0"] *= x0
                d["k0"] %= 997
                if d["k0"] >= abs(x2 // (g(a * j0, -(d["k1"] % 97) * (a % 2)) % 7 + 1)) or 4 == x0:
                    continue
                continue
            for j1 in range(2, 5):
                o.a1, d["k1"] = o.a1, a
        o.a0 -= -b % 4 - a // (x1 % 7 + 1) * (b % 3)
        o.a0 %= 100
    x1 += x2 % 3 - x2 % 50
    x1 = x1 % 2001 - 1000
    o.a3 = abs(7)
    return x0 * (b % 2), d, vars(o)
