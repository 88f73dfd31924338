"""Walrus, `global` reads, `locals()` and `eval()` after branches, printing
and f-strings, `match`, raising exceptions, and early returns from nested
loops."""

from tests.autograph.corpus.registry import case

LIMIT = 10
NAMES = ["first", "last"]
TABLE = {"a": 1, "b": 2}


@case(([1, 2, 3, 0, 5],), ([],))
def walrus_while(xs):
    it = iter(xs)
    out = []
    while (v := next(it, None)) is not None:
        if v == 0:
            break
        out.append(v)
    return out, v


@case(("hello",), ("hi",))
def walrus_if(s):
    if (n := len(s)) > 3:
        msg = f"long {n}"
    else:
        msg = f"short {n}"
    for i in range(n):
        if s[i] == "l":
            return msg, i
    return msg, n


@case((3,), (20,))
def global_limit(x):
    steps = 0
    while x < LIMIT:
        x *= 2
        steps += 1
    if steps > 2:
        return NAMES[0], steps
    return NAMES[-1], steps


@case((2,), (12,))
def global_declared_read(n):
    global LIMIT
    total = 0
    for i in range(n):
        if i < LIMIT:
            total += LIMIT
        else:
            break
    return total


@case((1,), (-1,))
def locals_after_branch(x):
    if x > 0:
        pos = x
    else:
        neg = x
    for i in range(2):
        x += i
    loc = locals()
    return [k for k in ("pos", "neg", "i") if k in loc]


@case((2,), (-2,))
def eval_after_branch(x):
    if x > 0:
        y = x * 10
    else:
        y = -x
    for i in range(2):
        y += i
    return eval("y + x")


@case((3.14159,), (-2.5,))
def fstring_formats(v):
    parts = []
    for width in (6, 8):
        if v < 0:
            parts.append(f"{v:>{width}.1f}")
        else:
            parts.append(f"{v:<{width}.3f}|")
    print(*parts, sep=";")
    return f"{v!r}"


@case((4,), (0,))
def print_sep_end(n):
    for i in range(n):
        if i == n - 1:
            print(i)
        else:
            print(i, end=",")
    else:
        print("done", n, sep="-")
    return n


@case((3,), (12,))
def raise_when_too_big(n):
    acc = 1
    for i in range(1, n + 1):
        acc *= i
        if acc > 1000:
            raise OverflowError(f"too big at {i}")
    return acc


@case((5,), (15,), (-3,), (7,))
def chained_comparison(x):
    if 0 < x < 7:
        kind = "small"
    elif x >= 10 and x % 5 == 0:
        kind = "round"
    elif not x > 0:
        kind = "nonpos"
    else:
        kind = "other"
    while len(kind) < 6:
        kind = kind + "_"
    return kind


@case(((1, 2),), ([1],), ("s",), ({"k": 3},))
def match_shapes(v):
    for _ in range(1):
        match v:
            case (a, b):
                return a + b
            case [a]:
                return a
            case {"k": k}:
                return k * 2
            case _:
                pass
    return None


@case((3,), (0,))
def eval_loop_var(n):
    found = []
    for i in range(n):
        if eval("i % 2 == 0"):
            found.append(i)
    return found


@case((5,), (0,))
def recursive_sum(n):
    if n <= 0:
        return 0
    total = n
    for _ in range(1):
        total += recursive_sum(n - 1)
    return total


@case(([1, 2, 3],), ([],))
def short_circuit_in_while(xs):
    calls = []

    def nonempty():
        calls.append("check")
        return bool(xs)
    while nonempty() and xs[-1] > 1:
        xs.pop()
    return calls, xs


@case(([1, 2, 5, 4],), ([1],))
def star_unpack(xs):
    first, *rest = xs
    while rest:
        if rest[0] > first * 2:
            break
        first, *rest = rest
    return first, rest


@case((2,), (1,))
def print_locals_keys(n):
    a = n
    if n > 1:
        b = n * 2
    for i in range(n):
        c = i
    print(sorted(k for k in locals().keys() if len(k) == 1))
    return a


@case(([[1, 2], [3, 4]], 3), ([[1]], 5), ([[9, 1]], 1))
def find_in_grid(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
            if v > target:
                break
    return None


@case((7,), (8,), (1,))
def is_prime(n):
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            print("divisor", d)
            break
        d += 1
    else:
        return True
    return False


@case((3,), (-3,), (1,))
def eval_with_namespace(x):
    ns = {"x": x}
    for k in range(3):
        if k == x:
            ns["hit"] = k
    expr = "hit * 10" if "hit" in ns else "x - 1"
    return eval(expr, {}, ns)


@case(([3, 2, 0, 5],), ([5],))
def iter_sentinel(xs):
    it = iter(xs)
    seen = []
    for v in iter(lambda: next(it), 0):
        if v == 5:
            break
        seen.append(v)
    return seen


@case(("a",), ("c",))
def global_dict_lookup(key):
    value = TABLE.get(key)
    if value is None:
        print(f"{key!r} missing from {sorted(TABLE)}")
        return -1
    while value < 5:
        value *= 2
    return value


@case((["x", "y"],), ([],))
def enumerate_print_fstring(items):
    for i, item in enumerate(items, start=1):
        print(f"{i:02d}. {item:>3}")
    else:
        print(f"{len(items)} item{'s' if len(items) != 1 else ''}")
    return None


@case((10,), (0,))
def collatz_steps(n):
    if n < 1:
        raise ValueError(f"n must be positive, got {n}")
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case(("racecar",), ("abca",), ("",))
def palindrome_two_pointers(s):
    i, j = 0, len(s) - 1
    while i < j:
        if s[i] != s[j]:
            print(f"mismatch {s[i]}!={s[j]}")
            return False
        i += 1
        j -= 1
    return True


@case((3,), (-1,))
def locals_in_loop_after_assign(n):
    snapshots = []
    for i in range(max(n, 0)):
        if i == 1:
            special = i
        snapshots.append("special" in locals())
    return snapshots


@case((2,), (0,))
def walrus_in_loop_condition_and_body(n):
    out = []
    i = 0
    while (sq := i * i) < n * n:
        if (half := sq // 2) > 0:
            out.append(half)
        i += 1
    return out, sq


@case((12,), (7,))
def divisors_with_continue(n):
    divs = []
    for d in range(1, n + 1):
        if n % d:
            continue
        if d == n:
            print("self")
            break
        divs.append(d)
    return divs


@case(("3+4",), ("2*5",), ("1/0",))
def eval_expression_string(expr):
    ops = []
    for ch in expr:
        if ch in "+-*/":
            ops.append(ch)
    if not ops:
        return None
    return ops[0], eval(expr)


@case((5,), (0,))
def string_builder(n):
    s = ""
    i = 0
    while True:
        if i >= n:
            break
        s += str(i) if i % 2 else "-"
        i += 1
    print(repr(s))
    return s


@case((3, 4), (0, 0), (-1, 2))
def raise_type_depending_on_branch(a, b):
    for _ in range(2):
        if a < 0:
            raise ValueError("a negative")
        elif a == 0 and b == 0:
            raise ZeroDivisionError("both zero")
        a, b = b, a
    return (a * a + b * b) ** 0.5


@case(({"k": [1, 2]}, "k"), ({"k": [1, 2]}, "z"))
def match_mapping_pattern(d, key):
    match d:
        case {"k": [first, *rest]} if key == "k":
            for r in rest:
                first += r
            return first
        case {"k": _}:
            return "other key"
    return None


@case((4,), (0,))
def nested_loops_with_labels(n):
    found = None
    for i in range(n):
        for j in range(n):
            if i + j == 3 and i != j:
                found = (i, j)
                break
        else:
            continue
        break
    return found


@case((3,), (1,))
def print_in_nested_branches(n):
    for i in range(n):
        if i == 0:
            print("zero")
        elif i % 2:
            print("odd", i, sep=":")
        else:
            print(f"{i=}")
    return n


@case(([1, 2, 3, 4, 5],), ([2],))
def early_return_inside_while_for(xs):
    i = 0
    while i < len(xs):
        for j in range(i):
            if xs[i] == 2 * xs[j]:
                return i, j
        i += 1
    return None


@case((5,), (3,))
def global_names_in_loop(n):
    chosen = []
    for i in range(n):
        name = NAMES[i % len(NAMES)]
        if name in chosen:
            continue
        chosen.append(name)
    else:
        chosen.append(LIMIT)
    return chosen


@case(("a,b;c",), ("",))
def tokenize(s):
    tokens = []
    cur = ""
    for ch in s:
        if ch in ",;":
            tokens.append(cur)
            cur = ""
        else:
            cur += ch
    if cur or tokens:
        tokens.append(cur)
    return tokens
