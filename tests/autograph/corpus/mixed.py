"""Small realistic programs that combine the constructs of the other corpus
files: argument mutation with closures, exceptions inside loops over
objects, `with` around container updates, comprehensions over state built
in branches."""

from tests.autograph.corpus.registry import Box, Noisy, case


@case(([3, 1, 2],), ([],))
def insertion_sort_logged(xs):
    for i in range(1, len(xs)):
        key = xs[i]
        j = i - 1
        while j >= 0 and xs[j] > key:
            xs[j + 1] = xs[j]
            j -= 1
        xs[j + 1] = key
        print(f"step {i}: {xs}")
    return xs


@case(([1, 3, 5, 7], 5), ([1, 3], 4), ([], 1))
def binary_search(xs, target):
    lo, hi = 0, len(xs) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if xs[mid] == target:
            return mid
        elif xs[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -(lo + 1)


@case(({"a": ["b"], "b": ["c"], "c": []}, "a"), ({"a": ["a"]}, "a"))
def depth_first_order(graph, start):
    seen = set()
    order = []
    stack = [start]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        for nxt in reversed(graph.get(node, [])):
            if nxt not in seen:
                stack.append(nxt)
    return order


@case(([("deposit", 5), ("withdraw", 3), ("withdraw", 9)],), ([],))
def bank_account(ops):
    class Overdraft(Exception):
        pass

    class Account:
        def __init__(self):
            self.balance = 0
            self.history = []

        def apply(self, kind, amount):
            if kind == "withdraw" and amount > self.balance:
                raise Overdraft(amount)
            self.balance += amount if kind == "deposit" else -amount
            self.history.append((kind, amount))
    acct = Account()
    for kind, amount in ops:
        try:
            acct.apply(kind, amount)
        except Overdraft as e:
            print("refused", e.args[0])
            break
    return acct.balance, acct.history


@case(("aaabccdd",), ("",), ("x",))
def run_length_encode(s):
    out = []
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        count = j - i
        out.append(f"{s[i]}{count}" if count > 1 else s[i])
        i = j
    return "".join(out)


@case(([4, 1, 3, 2],), ([1],))
def memoized_fib_over_list(xs):
    memo = {}

    def fib(k):
        if k in memo:
            return memo[k]
        result = k if k < 2 else fib(k - 1) + fib(k - 2)
        memo[k] = result
        return result
    out = []
    for v in xs:
        out.append(fib(v))
    return out, sorted(memo)


@case(({"b": 2, "a": 1},), ({},))
def config_with_defaults(cfg):
    defaults = {"a": 0, "b": 0, "c": 3}
    for k, v in defaults.items():
        if k not in cfg:
            cfg[k] = v
            print(f"default {k}={v}")
        elif cfg[k] == v:
            del cfg[k]
    return sorted(cfg.items())


@case(([1, 2, 3, 4, 5, 6], 2), ([1, 2], 5), ([1], 0))
def chunk_list(xs, size):
    if size <= 0:
        raise ValueError("size must be positive")
    chunks = []
    cur = []
    for v in xs:
        cur.append(v)
        if len(cur) == size:
            chunks.append(cur)
            cur = []
    if cur:
        chunks.append(cur)
    return chunks


@case((["3", "x", "5", ""],), ([],))
def parse_ints_with_report(items):
    good, bad = [], {}
    for i, s in enumerate(items):
        if not s:
            continue
        try:
            good.append(int(s))
        except ValueError as e:
            bad[i] = type(e).__name__
    summary = lambda: f"{len(good)} ok, {len(bad)} bad"
    print(summary())
    return good, bad


@case(([Box(3), Box(-1), Box(0)],), ([],))
def normalize_boxes(boxes):
    total = sum(b.v for b in boxes)
    for b in boxes:
        if total == 0:
            b.share = None
            continue
        b.share = b.v / total
    else:
        boxes.append(Box(total))
    return [b.v for b in boxes]


@case(([5, 1, 4],), ([],))
def min_heap_push_pop(xs):
    import heapq
    heap = []
    for v in xs:
        heapq.heappush(heap, v)
    out = []
    while heap:
        v = heapq.heappop(heap)
        if v == 4:
            out.append("four")
            continue
        out.append(v)
    return out


@case(("the cat the dog",), ("",))
def word_index(text):
    index = {}
    for pos, word in enumerate(text.split()):
        index.setdefault(word, []).append(pos)
    repeated = {w: p for w, p in index.items() if len(p) > 1}
    if repeated:
        print("repeated:", ", ".join(sorted(repeated)))
    return index


@case((3,), (0,))
def event_log_with_context(n):
    log = []
    with Noisy("log"):
        for i in range(n):
            entry = {"i": i}
            if i % 2:
                entry["odd"] = True
            log.append(entry)
    return [sorted(e) for e in log]


@case(([1, 2, 3, 4],), ([],))
def partition_in_place(xs):
    i = 0
    for j in range(len(xs)):
        if xs[j] % 2 == 0:
            xs[i], xs[j] = xs[j], xs[i]
            i += 1
    evens = xs[:i]
    del xs[:i]
    return evens


@case(([["a", 1], ["b", 2]],), ([["a", 1], ["a", 2]],))
def build_unique_map(pairs):
    result = {}
    for k, v in pairs:
        if k in result:
            raise KeyError(f"duplicate {k}")
        result[k] = v
    return result


@case((5,), (1,))
def state_machine(n):
    state = "start"
    trace = []
    i = 0
    while state != "end":
        trace.append(state)
        if state == "start":
            state = "run"
        elif state == "run":
            i += 1
            if i >= n:
                state = "stop"
        elif state == "stop":
            state = "end"
    return trace[-3:], i


@case(([1, 2, 3],), ([7],))
def accumulate_with_nonlocal_and_try(xs):
    errors = 0

    def safe_div(a, b):
        nonlocal errors
        try:
            return a // b
        except ZeroDivisionError:
            errors += 1
            return 0
    out = [safe_div(10, v - 2) for v in xs]
    return out, errors


@case(("hello",), ("",))
def char_frequencies_sorted(s):
    freq = {}
    for ch in s:
        freq[ch] = freq.get(ch, 0) + 1
    ordered = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))
    for ch, n in ordered:
        if n > 1:
            return ch, n
    return ordered[0] if ordered else None


@case(([[1, 2], [3, 4]],), ([],))
def matrix_sum_rows_cols(m):
    rows = [sum(r) for r in m]
    cols = []
    for c in range(len(m[0]) if m else 0):
        total = 0
        for r in m:
            total += r[c]
        cols.append(total)
    if rows and rows[0] > 2:
        m.append(cols)
    return rows, cols


@case((["push 1", "push 2", "add", "print"],), (["add"],))
def tiny_stack_machine(program):
    stack = []
    for line in program:
        op, *args = line.split()
        if op == "push":
            stack.append(int(args[0]))
        elif op == "add":
            b, a = stack.pop(), stack.pop()
            stack.append(a + b)
        elif op == "print":
            print(stack[-1])
        else:
            raise SyntaxError(op)
    return stack


@case((10,), (1,))
def sieve(n):
    is_prime = [True] * (n + 1)
    primes = []
    for p in range(2, n + 1):
        if not is_prime[p]:
            continue
        primes.append(p)
        for q in range(p * p, n + 1, p):
            is_prime[q] = False
    return primes


@case(([3, 4, 5],), ([1, 2],))
def triangle_check(sides):
    try:
        a, b, c = sorted(sides)
    except ValueError:
        return "need three sides"
    if a + b <= c:
        kind = "impossible"
    elif a * a + b * b == c * c:
        kind = "right"
    else:
        kind = "other"
    return kind


@case(({"x": 1, "y": {"z": 2}},), ({},))
def flatten_dict(d):
    out = {}
    stack = [("", d)]
    while stack:
        prefix, cur = stack.pop()
        for k, v in cur.items():
            key = f"{prefix}.{k}" if prefix else k
            if isinstance(v, dict):
                stack.append((key, v))
            else:
                out[key] = v
    return out


@case(([1, 1, 2, 3, 3, 3],), ([],))
def longest_run(xs):
    best = cur = 0
    prev = object()
    for v in xs:
        if v == prev:
            cur += 1
        else:
            cur = 1
            prev = v
        best = max(best, cur)
    return best


@case(([2, 7, 11, 15], 9), ([1, 2], 7))
def two_sum(nums, target):
    seen = {}
    for i, v in enumerate(nums):
        need = target - v
        if need in seen:
            return seen[need], i
        seen[v] = i
    raise LookupError(f"no pair sums to {target}")


@case((3,), (0,))
def counters_per_key(n):
    def make_counter():
        count = 0

        def inc():
            nonlocal count
            count += 1
            return count
        return inc
    counters = {}
    for i in range(n):
        key = "even" if i % 2 == 0 else "odd"
        if key not in counters:
            counters[key] = make_counter()
        counters[key]()
    return {k: c() for k, c in counters.items()}


@case(([1, 2, 3, 4, 5],), ([5, 4],))
def moving_average(xs):
    window = []
    out = []
    for v in xs:
        window.append(v)
        if len(window) > 3:
            window.pop(0)
        if len(window) < 2:
            continue
        out.append(sum(window) / len(window))
    return out


@case(("{[()]}",), ("{[(])}",), ("((",))
def bracket_matcher(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for i, ch in enumerate(s):
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                print(f"bad close at {i}")
                return False
    return not stack


@case(([5, 3, 8],), ([],))
def mutate_and_restore_on_error(xs):
    backup = list(xs)
    try:
        for i in range(len(xs)):
            xs[i] -= 4
            if xs[i] < 0:
                raise ArithmeticError(i)
    except ArithmeticError:
        xs[:] = backup
        return "restored"
    return "applied"


@case((4,), (0,))
def pascal_triangle(n):
    rows = []
    for r in range(n):
        row = [1] * (r + 1)
        for c in range(1, r):
            row[c] = rows[r - 1][c - 1] + rows[r - 1][c]
        rows.append(row)
    return rows


@case(([("a", 3), ("b", 1)],), ([],))
def inventory_updates(updates):
    class Inventory:
        def __init__(self):
            self.items = {}

        def add(self, name, qty):
            self.items[name] = self.items.get(name, 0) + qty

        def take(self, name):
            if self.items.get(name, 0) <= 0:
                raise KeyError(name)
            self.items[name] -= 1
    inv = Inventory()
    for name, qty in updates:
        inv.add(name, qty)
    taken = []
    for name in ("a", "b", "b"):
        try:
            inv.take(name)
            taken.append(name)
        except KeyError:
            taken.append(f"no {name}")
    return inv.items, taken


@case((1234,), (0,), (-56,))
def digit_sum_and_reverse(n):
    sign = -1 if n < 0 else 1
    n = abs(n)
    digits = []
    while n:
        n, d = divmod(n, 10)
        digits.append(d)
    rev = 0
    for d in digits:
        rev = rev * 10 + d
    return sum(digits), sign * rev


@case(([3, 5, 1],), ([],))
def selection_with_generator(xs):
    def ascending(values):
        remaining = list(values)
        while remaining:
            m = min(remaining)
            remaining.remove(m)
            yield m
    out = []
    for v in ascending(xs):
        if v > 4:
            break
        out.append(v)
    return out, xs


@case(("abc", 1), ("xyz", -1), ("a", 0))
def caesar(text, shift):
    out = []
    for ch in text:
        if not ch.isalpha():
            out.append(ch)
            continue
        code = (ord(ch) - ord("a") + shift) % 26
        out.append(chr(code + ord("a")))
    return "".join(out)


@case(([1, 2, 3],), ([],))
def undo_stack(xs):
    undo = []
    for i in range(len(xs)):
        old = xs[i]
        xs[i] = old * old
        undo.append(lambda i=i, old=old: xs.__setitem__(i, old))
    while len(undo) > 1:
        undo.pop()()
    return xs


@case(([[0, 1], [1, 0]],), ([[1, 1], [1, 1]],))
def count_islands(grid):
    rows = len(grid)
    cols = len(grid[0]) if rows else 0
    count = 0
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != 1:
                continue
            count += 1
            stack = [(r, c)]
            while stack:
                y, x = stack.pop()
                if 0 <= y < rows and 0 <= x < cols and grid[y][x] == 1:
                    grid[y][x] = 0
                    stack.extend([(y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)])
    return count


@case((["b", "a", "c"], "a"), (["x"], "y"))
def move_to_front(items, key):
    try:
        idx = items.index(key)
    except ValueError:
        items.insert(0, key)
        return None
    if idx:
        items.insert(0, items.pop(idx))
    return idx


@case((Box([1, 2]),), (Box([]),))
def box_holding_list(b):
    if not b.v:
        b.v = None
        return "emptied"
    for i in range(len(b.v)):
        b.v[i] += 10
    b.total = sum(b.v)
    return b.total


@case((3,), (0,))
def attribute_set_in_loop_only(n):
    o = Box(0)
    for i in range(n):
        o.last = i
        if i == 1:
            o.seen_one = True
    return sorted(vars(o))


@case((2,), (5,))
def method_with_early_return_in_while(n):
    class Walker:
        def __init__(self):
            self.pos = 0

        def walk(self, limit):
            while True:
                self.pos += 1
                if self.pos >= limit:
                    return self.pos
    w = Walker()
    steps = [w.walk(n) for _ in range(2)]
    if steps[0] == steps[1]:
        print("same")
    return steps
