"""List, dict and set comprehensions and generator expressions inside
converted functions, including ones that read loop variables, late-bound
generators, and walrus targets inside comprehensions."""

from tests.autograph.corpus.registry import case


@case((5,), (0,))
def comprehension_reads_loop_var(n):
    rows = []
    for i in range(n):
        if i % 2:
            continue
        rows.append([i * j for j in range(i)])
    return rows


@case(([1, 2, 3],), ([-1, 5],), ([1],))
def genexpr_in_condition(xs):
    if sum(v for v in xs if v > 0) > 5:
        label = "big"
    elif any(v < 0 for v in xs):
        label = "has negative"
    else:
        label = "small"
    while len(label) < 8:
        label += "!"
    return label


@case((["apple", "kiwi", "fig"],), ([],))
def dict_comp_lengths(words):
    lengths = {w: len(w) for w in words if w}
    longest = None
    for w, n in lengths.items():
        if longest is None or n > lengths[longest]:
            longest = w
    return lengths, longest


@case(([1, -1, 2, -2, 4],),)
def set_comp_abs(xs):
    mags = {abs(v) for v in xs}
    missing = []
    k = 1
    while k <= max(mags):
        if k not in mags:
            missing.append(k)
        k += 1
    return sorted(mags), missing


@case((3, True), (3, False))
def nested_comp_branch_var(n, upper):
    if upper:
        cond = lambda i, j: j >= i
    else:
        cond = lambda i, j: j < i
    pairs = [(i, j) for i in range(n) for j in range(n) if cond(i, j)]
    for p in pairs:
        if p[0] == p[1]:
            return pairs, p
    return pairs, None


@case((3,),)
def lazy_genexpr_late_binding(n):
    k = 1
    gen = (v * k for v in range(n))
    for k in range(10, 13):
        if k == 11:
            break
    return list(gen)


@case((3,),)
def comprehension_does_not_leak(n):
    x = "outer"
    squares = [x * x for x in range(n)]
    for i in range(n):
        if squares[i] > 1:
            break
    return x, squares, i


@case(([1, 5, 2, 8],), ([],))
def walrus_in_comprehension(xs):
    total = 0
    running = [total := total + v for v in xs]
    if total > 10:
        return running, "big"
    return running, total


@case(([3, 8, 12],), ([1, 3],))
def first_even(xs):
    found = next((v for v in xs if v % 2 == 0), None)
    if found is None:
        for v in xs:
            found = -v
    return found


@case((4,), (1,))
def triangle_rows(n):
    rows = []
    r = 1
    while r <= n:
        rows.append([c for c in range(r) if c != r // 2])
        r += 1
    return rows


@case(({"a": 3, "b": 1, "c": 2},), ({},))
def top_keys(d):
    ranked = sorted(((v, k) for k, v in d.items()), reverse=True)
    out = []
    for v, k in ranked:
        if v < 2:
            break
        out.append(k)
    else:
        out.append("all")
    return out


@case(([1, 2, 3],),)
def comprehension_then_mutate(xs):
    doubled = [v * 2 for v in xs]
    for i, v in enumerate(doubled):
        if v > 2:
            xs[i] = v
    return doubled == xs


@case(({"a": 1, "b": 2, "c": 1},), ({"a": 1},))
def invert_dict(d):
    inv = {v: k for k, v in d.items()}
    clashes = [k for k in d if inv[d[k]] != k]
    if clashes:
        print("clashes", clashes)
    for k in clashes:
        d[k] = None
    return inv


@case(([2, 4, 5, 6],), ([2, 4],))
def all_with_side_effects(xs):
    seen = []

    def even(v):
        seen.append(v)
        return v % 2 == 0
    if all(even(v) for v in xs):
        result = "all even"
    else:
        result = "stopped"
    return result, seen


@case(([[1, 2], [], [3]],),)
def flatten_comp(rows):
    flat = [v for row in rows for v in row]
    i = 0
    while i < len(flat):
        if flat[i] == 2:
            flat[i:i + 1] = [2, 2]
            i += 2
            continue
        i += 1
    return flat


@case(([1, 2, 3], [3, 2, 1]), ([1], [1]))
def dot_and_matches(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    matches = [i for i, (x, y) in enumerate(zip(a, b)) if x == y]
    if matches:
        print("match at", matches)
    return dot


@case((6,), (0,))
def comp_with_ternary(n):
    labels = ["even" if i % 2 == 0 else "odd" for i in range(n)]
    counts = {}
    for lbl in labels:
        counts[lbl] = counts.get(lbl, 0) + 1
    return counts


@case(([3, -1, 7],), ([],), ([-12],))
def max_negative_or_default(xs):
    worst = max((v for v in xs if v < 0), default=None)
    if worst is None:
        return max(xs, default=0)
    while worst < 0:
        worst += 5
    return worst


@case((3,), (0,))
def multiplication_table(n):
    table = {}
    for i in range(1, n + 1):
        table[i] = [i * j for j in range(1, n + 1) if j != i]
    return table


@case((6,), (2,))
def consume_generator_in_chunks(n):
    gen = (i * i for i in range(n))
    chunks = []
    while True:
        chunk = [v for _, v in zip(range(2), gen)]
        if not chunk:
            break
        chunks.append(chunk)
    return chunks


@case(("a1b2c3",), ("abc",))
def digits_via_walrus(s):
    digits = [d for ch in s if (d := ch).isdigit()]
    if digits:
        last = d
    else:
        last = None
    return digits, last


@case(({"x": 1, "y": 2},), ({},))
def format_pairs(d):
    text = ", ".join(f"{k}={v}" for k, v in sorted(d.items()))
    if not text:
        text = "<empty>"
    for ch in text:
        if ch == "=":
            print("has pairs")
            break
    return text


@case((1,), (-1,))
def comp_range_from_branch(x):
    if x > 0:
        stop = 4
    else:
        stop = 2
    vals = [v * x for v in range(stop)]
    for v in vals:
        if v < 0:
            return vals
    return vals[::-1]


@case((["ab", "cd", "ef"],),)
def comp_over_loop_built_list(words):
    built = []
    for w in words:
        if w == "cd":
            continue
        built.append(w)
    upper = {w: w.upper() for w in built}
    pairs = [(a, b) for a in built for b in built if a < b]
    return upper, pairs


@case((4,), (0,))
def genexpr_reads_while_counter(n):
    i = 0
    sums = []
    while i < n:
        sums.append(sum(j for j in range(i) if j != i - 1))
        i += 1
    return sums


@case(([5, 3, 9],), ([],))
def generator_consumed_in_branches(xs):
    gen = (v - 1 for v in xs)
    if xs and xs[0] > 4:
        first = next(gen)
    else:
        first = None
    rest = [v for v in gen]
    return first, rest


@case(([1, 2, 3, 4],), ([2],))
def set_and_dict_comp_mutating_arg(xs):
    odd = {v for v in xs if v % 2}
    index = {v: i for i, v in enumerate(xs)}
    for v in odd:
        xs[index[v]] = 0
    return sorted(odd)


@case((3,), (0,))
def nested_genexpr_closure(n):
    grid = [[r * 10 + c for c in range(n)] for r in range(n)]
    best = max((max(row) for row in grid), default=-1)
    for row in grid:
        if best in row:
            return row
    return best


@case(([3, 1, 2],),)
def comprehension_calls_method_on_objects(xs):
    class W:
        def __init__(self, v):
            self.v = v

        def double(self):
            return self.v * 2
    ws = [W(v) for v in xs if v != 1]
    doubled = [w.double() for w in ws]
    for w in ws:
        w.v = -w.v
    return doubled, [w.v for w in ws]
