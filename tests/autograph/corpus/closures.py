"""Closures: lambdas and nested defs reading variables assigned in branches
and loops, closures created in loops (late binding), `nonlocal` writes."""

from tests.autograph.corpus.registry import case

SCALE = 3


@case((3,), (-2,), (0,))
def lambda_reads_branch_var(x):
    if x > 0:
        k = 2
    elif x < 0:
        k = -1
    else:
        k = 0
    f = lambda v: v * k
    total = 0
    for i in range(3):
        total += f(i)
    return total


@case((4,), (0,))
def nested_def_reads_loop_result(n):
    acc = 0
    i = 0
    while i < n:
        acc += i
        i += 1

    def report(scale):
        return acc * scale + i
    if acc > 3:
        return report(2)
    return report(1)


@case((3,), (0,))
def late_binding_lambdas(n):
    fns = []
    for i in range(n):
        if i % 2:
            fns.append(lambda: i * 10)
        else:
            fns.append(lambda: i)
    return [f() for f in fns]


@case((4,), (1,))
def early_binding_default(n):
    fns = []
    for i in range(n):
        if i == 2:
            continue
        fns.append(lambda i=i: i * i)
    else:
        fns.append(lambda: -1)
    return [f() for f in fns]


@case((5,), (0,))
def nonlocal_counter(n):
    count = 0

    def bump(by):
        nonlocal count
        count += by
    for i in range(n):
        if i % 2 == 0:
            bump(1)
        else:
            bump(10)
    return count


@case((10,), (3,))
def nonlocal_while_break(limit):
    total = 0

    def add(v):
        nonlocal total
        total += v
        return total
    i = 0
    while True:
        if add(i) > limit:
            break
        i += 1
    return total, i


@case((2,), (-2,))
def closure_sees_later_assignment(x):
    y = 1
    g = lambda: y * 100
    if x > 0:
        y = x
    else:
        y = -x + 5
    return g()


@case((1,), (-1,))
def def_in_branch(x):
    if x > 0:
        def f(v):
            return v + 1
    else:
        def f(v):
            return v - 1
    out = []
    for i in range(3):
        out.append(f(i))
    return out


@case((3,), (0,))
def adders_from_factory(n):
    def make(k):
        return lambda v: v + k
    adders = []
    i = 0
    while i < n:
        adders.append(make(i * 2))
        i += 1
    return [a(1) for a in adders]


@case((5,), (0,), (-1,))
def recursive_inner(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    if n < 0:
        return None
    results = []
    for i in range(n):
        results.append(fact(i))
    return results


@case((4,), (0,))
def closure_appends_to_outer(n):
    log = []

    def note(msg):
        log.append(msg)
    for i in range(n):
        if i == 2:
            note("two")
            continue
        note(i)
    else:
        note("done")
    return log


@case((3,), (1,))
def nonlocal_two_levels(n):
    total = 0

    def outer():
        def inner(v):
            nonlocal total
            total += v
        for i in range(n):
            inner(i)
    if n > 1:
        outer()
    outer()
    return total


@case(([3, -1, 2],), ([],))
def sort_key_from_branch(xs):
    if len(xs) > 2:
        sign = -1
    else:
        sign = 1
    ordered = sorted(xs, key=lambda v: sign * v)
    for v in ordered:
        if v < 0:
            break
    else:
        return ordered
    return ordered + [v]


@case((4,), (0,))
def nested_generator(n):
    def evens(limit):
        for i in range(limit):
            if i % 2 == 0:
                yield i
    out = []
    for e in evens(n * 2):
        if e > 4:
            break
        out.append(e)
    return out


@case((4,), (1,))
def closure_reads_final_loop_value(n):
    last = None
    show = lambda: f"last={last}"
    for last in range(n):
        if last == 2:
            break
    print(show())
    return last


@case(([1, 2, -3, 4],), ([1, 2],))
def nonlocal_flag(xs):
    seen_negative = False

    def visit(v):
        nonlocal seen_negative
        if v < 0:
            seen_negative = True
        return v * 2
    doubled = []
    for v in xs:
        doubled.append(visit(v))
        if seen_negative:
            break
    return doubled, seen_negative


@case((5,), (2,))
def map_filter_lambdas(n):
    threshold = 1
    if n > 3:
        threshold = 3
    vals = list(filter(lambda v: v >= threshold, map(lambda v: v * v, range(n))))
    while vals and vals[-1] > 10:
        vals.pop()
    return vals


@case((3,), (0,))
def closure_over_dict(n):
    state = {"calls": 0}

    def tick():
        state["calls"] += 1
        return state["calls"]
    i = 0
    while i < n:
        if tick() >= 2:
            state["late"] = True
        i += 1
    return state


@case((7,), (-7,))
def closure_reads_modified_param(x):
    if x < 0:
        x = -x
    scaled = lambda k: x * k
    out = 0
    for k in range(1, 4):
        if scaled(k) > 15:
            return out
        out += scaled(k)
    return out


@case((3,), (0,))
def nonlocal_rebinds_container(n):
    items = []

    def reset_if_long():
        nonlocal items
        if len(items) >= 2:
            items = [sum(items)]
    for i in range(n):
        items.append(i + 1)
        reset_if_long()
    return items


@case((3,), (1,))
def comprehension_of_lambdas(n):
    fns = [lambda v, k=k: v * k for k in range(n)]
    late = [lambda v: v * k for k in range(n)]
    total = 0
    for f, g in zip(fns, late):
        if f(1) == g(1):
            continue
        total += f(2) + g(2)
    return total


@case((1,), (0,))
def default_from_branch(flag):
    if flag:
        base = 10
    else:
        base = 20

    def add(v, b=base):
        return v + b
    base = 99
    return [add(i) for i in range(2)] + [add(0, base)]


@case((3,), (-1,))
def closure_raises(n):
    def check(v):
        if v == 0:
            raise ZeroDivisionError("zero")
        return 10 // v
    total = 0
    i = n
    while i > 0:
        total += check(i)
        i -= 1
    if n < 0:
        check(0)
    return total


@case((4,), (0,))
def nonlocal_from_comprehension(n):
    calls = 0

    def f(v):
        nonlocal calls
        calls += 1
        return v % 3
    vals = [f(i) for i in range(n) if i != 1]
    if calls > 2:
        vals.append(-calls)
    return vals


@case((2,), (5,))
def compose_in_loop(x):
    f = lambda v: v
    for step in range(3):
        if step == 1:
            f = (lambda g, s: lambda v: g(v) * s)(f, 2)
        else:
            f = (lambda g, s: lambda v: g(v) + s)(f, step)
    return f(x)


@case((3,), (0,))
def nested_def_sets_attribute(n):
    class Counter:
        pass
    c = Counter()
    c.hits = 0

    def hit():
        c.hits += 1
    for i in range(n):
        if i % 2 == 0:
            hit()
    return c.hits


@case(("add", 3), ("mul", 3), ("neg", 3), ("bad", 1))
def dispatch_table(op, x):
    table = {"add": lambda v: v + 1, "mul": lambda v: v * 2}
    if op == "neg":
        table[op] = lambda v: -v
    elif op not in table:
        return None
    result = x
    for _ in range(2):
        result = table[op](result)
    return result


@case((20,), (1,))
def nonlocal_used_in_condition(limit):
    n = 1

    def grow():
        nonlocal n
        n *= 3
        return n
    steps = 0
    while grow() < limit:
        steps += 1
        if steps > 5:
            break
    return n, steps


@case(([2, 4, 6],), ([2, 3],))
def all_even_via_closure(xs):
    is_even = lambda v: v % 2 == 0
    for v in xs:
        if not is_even(v):
            print("odd", v)
            break
    else:
        print("all even")
        return True
    return False


@case((1,), (-1,))
def closure_reads_maybe_undefined(x):
    if x > 0:
        y = 5
    f = lambda: y + 1
    try:
        return f()
    except NameError:
        return "undefined"


@case((3,), (0,))
def nonlocal_in_finally(n):
    cleanups = 0

    def work(i):
        nonlocal cleanups
        try:
            if i == 1:
                return "one"
            return i
        finally:
            cleanups += 1
    out = [work(i) for i in range(n)]
    return out, cleanups


@case((6,), (0,))
def closures_in_while(n):
    fns = []
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        fns.append(lambda i=i: i)
    return [f() for f in fns], i


@case((4,), (0,))
def global_in_lambda(n):
    f = lambda v: v * SCALE
    out = []
    for i in range(n):
        if f(i) > 6:
            break
        out.append(f(i))
    return out


@case(([1, 3, 5],), ([1, 4],))
def closure_after_for_else(xs):
    for idx, v in enumerate(xs):
        if v % 2 == 0:
            found = v
            break
    else:
        found = None
        idx = -1
    describe = lambda: f"{idx}:{found}"
    return describe()


@case((2,), (0,))
def nested_varargs(n):
    def collect(*args, **kw):
        return len(args), sorted(kw)
    calls = []
    for i in range(n + 1):
        if i == 0:
            calls.append(collect())
        else:
            calls.append(collect(*range(i), k=i))
    return calls


@case((3,), (1,))
def defs_created_in_loop_share_nonlocal(n):
    total = 0
    bumpers = []
    for i in range(n):
        def bump(by=i):
            nonlocal total
            total += by + 1
        bumpers.append(bump)
    for b in reversed(bumpers):
        b()
    return total


@case((4,), (-1,))
def cell_in_list(n):
    cell = [0]
    inc = lambda: cell.__setitem__(0, cell[0] + 1)
    if n < 0:
        return cell
    while cell[0] < n:
        inc()
    return cell


@case((2,), (3,))
def printing_closure(n):
    prefix = "even" if n % 2 == 0 else "odd"

    def say(v):
        print(f"{prefix}: {v}")
    for i in range(n):
        say(i)
    else:
        say("end")
    return prefix


@case(("5",), ("x",))
def lambda_after_try(s):
    try:
        v = int(s)
    except ValueError:
        v = -1
    g = lambda k: v + k
    for k in range(3):
        if g(k) == 0:
            return k
    return g(10)


@case((3,), (0,))
def nonlocal_written_in_loop_closure(n):
    last = None

    def remember(v):
        nonlocal last
        if last is None or v > last:
            last = v
    i = n
    while i > 0:
        remember(i % 2)
        i -= 1
    return last


@case(([1, 2, 3],), ([],))
def closure_mutates_argument(xs):
    def double_at(i):
        xs[i] *= 2
    for i in range(len(xs)):
        if i == 1:
            continue
        double_at(i)
    else:
        xs.append("end")
    return len(xs)
