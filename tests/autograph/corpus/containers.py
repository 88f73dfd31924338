"""Dicts, lists and sets mutated in branches and loops: item assignment,
slots created in one branch only, append/pop/extend/insert/update/setdefault,
slice assignment, aliasing, and mutation of the arguments."""

import collections

from tests.autograph.corpus.registry import case


@case(([1, 2, 3],), ([],))
def append_in_branches(xs):
    out = []
    for v in xs:
        if v % 2:
            out.append(v)
        else:
            out.insert(0, v)
    xs.append(len(out))
    return out


@case(({"a": 1},), ({},))
def mutate_dict_arg(d):
    if "a" in d:
        d["a"] += 1
    else:
        d["a"] = 0
    for k in ("b", "c"):
        d.setdefault(k, len(d))
    return len(d)


@case(([5, 3, 8, 1],), ([],), ([6, 7],))
def pop_until_small(xs):
    popped = []
    while xs:
        v = xs.pop()
        if v > 4:
            popped.append(v)
            continue
        if v == 1:
            break
    return popped


@case(([1, 2],),)
def alias_mutation(xs):
    m = xs
    for i in range(3):
        if i == 1:
            m = m + [i]
        else:
            m.append(i)
    return xs, m


@case(([1, 2, 3, 4, 5],), ([1],))
def slice_assign(xs):
    if len(xs) > 3:
        xs[1:3] = [0]
    else:
        xs[:] = xs * 2
    i = 0
    while i < len(xs):
        xs[i] *= 10
        i += 2
    return xs


@case((["a", "b", "a", "c"],), ([],))
def count_words(words):
    counts = {}
    for w in words:
        if w in counts:
            counts[w] += 1
        else:
            counts[w] = 1
    counts.update({"total": len(words)})
    return counts


@case(([1, 2, 2, 3, 1],), ([],))
def dedupe_with_set(xs):
    seen = set()
    out = []
    for v in xs:
        if v in seen:
            continue
        seen.add(v)
        out.append(v)
    seen.discard(2)
    return out, sorted(seen)


@case(([4, 5, 6],), ([1],))
def extend_and_del(xs):
    ys = list(xs)
    ys.extend(range(2))
    if len(ys) > 3:
        del ys[0]
    elif ys:
        del ys[-1]
    return ys, xs


@case((3,), (0,))
def build_grid(n):
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            if c > r:
                break
            row.append(r * c)
        grid.append(row)
    if grid:
        grid[-1][0] = -1
    return grid


@case(([1, 2, 3, 4, 5, 6],), ([],))
def group_by_mod(xs):
    groups = {}
    for v in xs:
        key = "even" if v % 2 == 0 else "odd"
        groups.setdefault(key, []).append(v)
    if "odd" in groups:
        groups["odd"].reverse()
    return groups


@case(([3, 1, 2],), ([],))
def bubble_sort_in_place(xs):
    n = len(xs)
    swapped = True
    while swapped:
        swapped = False
        for i in range(1, n):
            if xs[i - 1] > xs[i]:
                xs[i - 1], xs[i] = xs[i], xs[i - 1]
                swapped = True
    return None


@case((2,), (-2,))
def dict_slot_one_branch(x):
    d = {"x": x}
    if x > 0:
        d["pos"] = True
    for k in list(d):
        if k == "pos":
            d["count"] = d.get("count", 0) + 1
    return d


@case(({"a": 1, "b": 2},), ({"b": 3},))
def pop_key_from_arg(d):
    v = d.pop("a", None)
    if v is None:
        d["missing"] = True
    else:
        while v < 3:
            v += 1
        d["v"] = v
    return sorted(d.items())


@case(("(()())",), ("(()",), ("())",))
def balanced_parens(s):
    stack = []
    for ch in s:
        if ch == "(":
            stack.append(ch)
        elif ch == ")":
            if not stack:
                return False
            stack.pop()
    return not stack


@case(([1, 2, 3], 2), ([1, 3], 2))
def remove_value(xs, v):
    xs.remove(v)
    for i, x in enumerate(xs):
        if x > v:
            xs[i] = x - v
    return xs


@case(({"a": 3, "b": -1, "c": 0},),)
def split_by_sign(d):
    pos, neg = {}, {}
    for k, v in d.items():
        if v > 0:
            pos[k] = v
        elif v < 0:
            neg[k] = v
        else:
            continue
    d.clear()
    return pos, neg


@case(({"a": 1},), ({},))
def mutate_while_iterating(d):
    for k in d:
        if d[k] > 0:
            d[k + "2"] = 0
    return d


@case(([1, 2, 3], [2, 3, 4]), ([], [1]))
def set_intersections(a, b):
    sa, sb = set(a), set(b)
    common = sa & sb
    if not common:
        sa.update(sb)
        return sorted(sa)
    for v in sorted(common):
        a.remove(v)
    return sorted(common)


@case(([10, 20, 30],), ([],))
def insert_markers(xs):
    i = 0
    while i <= len(xs):
        xs.insert(i, "|")
        i += 2
        if i > 6:
            break
    return len(xs)


@case(("hello world",), ("",))
def most_common_char(s):
    counts = {}
    for ch in s:
        if ch == " ":
            continue
        counts[ch] = counts.get(ch, 0) + 1
    if not counts:
        return None
    best = max(counts, key=counts.get)
    return best, counts[best]


@case(([1, 2, 3, 4],), ([1, 2, 3],))
def swap_pairs(xs):
    for i in range(0, len(xs) - 1, 2):
        xs[i], xs[i + 1] = xs[i + 1], xs[i]
    else:
        xs.append(0)
    return xs[:]


@case(({"cfg": {"a": 1}},), ({},))
def nested_dict_update(d):
    cfg = d.setdefault("cfg", {})
    for key in ("a", "b"):
        if key in cfg:
            cfg[key] *= 2
        else:
            cfg[key] = -1
    return d


@case((2,), (3,))
def shared_rows(n):
    rows = [[0] * n] * n
    fresh = [[0] * n for _ in range(n)]
    for i in range(n):
        rows[i][i] = i + 1
        fresh[i][i] = i + 1
    return rows, fresh


@case(([1, 2, 3, 4, 5],), ([],))
def process_queue(queue):
    done = []
    while queue:
        item = queue.pop(0)
        if item % 2 == 0:
            if item > 2:
                queue.append(item // 2)
            continue
        done.append(item)
    return done


@case(({"a": 1, "b": 0, "c": 2},),)
def drop_zero_values(d):
    for k in list(d.keys()):
        if d[k] == 0:
            del d[k]
        elif d[k] > 1:
            d[k] -= 1
    return list(d)


@case(([3, 1, 2], True), ([3, 1, 2], False))
def sort_arg(xs, desc):
    if desc:
        xs.sort(reverse=True)
    else:
        xs.sort()
    total = 0
    for i, v in enumerate(xs):
        if i == 2:
            break
        total += v * (i + 1)
    return total


@case((5,), (15,), (0,))
def fizz_list(n):
    parts = []
    for i in range(1, n + 1):
        if i % 15 == 0:
            parts.append("FizzBuzz")
        elif i % 3 == 0:
            parts.append("Fizz")
        elif i % 5 == 0:
            parts.append("Buzz")
        else:
            parts.append(str(i))
    return ",".join(parts)


@case(([[1, 2], [3, 4]],), ([[1, 2, 3]],))
def transpose_arg(m):
    rows, cols = len(m), len(m[0])
    t = [[None] * rows for _ in range(cols)]
    for r in range(rows):
        for c in range(cols):
            t[c][r] = m[r][c]
    if rows == cols:
        m[0][0] = "changed"
    return t


@case(([(1, 2), (2, 1), (3, 4)],), ([],))
def undirected_edges(edges):
    seen = {}
    for a, b in edges:
        key = frozenset((a, b))
        if key in seen:
            seen[key] += 1
        else:
            seen[key] = 1
    return sorted(tuple(sorted(k)) + (v,) for k, v in seen.items())


@case(([1, 2, 3], 1), ([1], 5))
def rotate_then_index(xs, k):
    while k > 0:
        xs.append(xs.pop(0))
        k -= 1
    return xs[2]


@case(({"a": 1}, ["a", "b"]), ({"a": 1, "b": 2}, ["b"]))
def lookup_all(d, keys):
    total = 0
    for k in keys:
        total += d[k]
        d[k] = 0
    return total


@case(([3, 7, 2, 9],), ([],))
def running_max(xs):
    out = []
    best = None
    for v in xs:
        if best is None or v > best:
            best = v
        out.append(best)
    xs[:] = out
    return best


@case(({"a": 1}, {"b": 2}), ({"a": 1}, {"a": 5}))
def merge_dicts(a, b):
    merged = a | b
    for k in b:
        if k in a:
            merged[k] = (a[k], b[k])
    a |= {"seen": len(merged)}
    return merged


@case(([1, 2, 1, 3],), ([4],))
def index_of_second(xs):
    if xs.count(xs[0]) < 2:
        return -1
    first = xs.index(xs[0])
    i = first + 1
    while xs[i] != xs[0]:
        i += 1
    return i


@case(([{"n": "a", "v": 1}, {"n": "b", "v": -2}],), ([],))
def records_update(rows):
    bad = []
    for row in rows:
        if row["v"] < 0:
            row["v"] = 0
            row["fixed"] = True
            bad.append(row["n"])
    return bad


@case(([1, 2, 3, 4],), ([],))
def rotate_deque(xs):
    dq = collections.deque(xs)
    steps = 0
    while dq and dq[0] != 3:
        dq.rotate(-1)
        steps += 1
        if steps > 10:
            break
    return list(dq), steps


@case(("abracadabra",), ("",))
def counter_top(s):
    c = collections.Counter(s)
    out = []
    for ch, n in c.most_common():
        if n < 2:
            break
        out.append(ch * n)
    return out


@case(([("a", 1), ("b", 2), ("a", 3)],),)
def defaultdict_groups(pairs):
    groups = collections.defaultdict(list)
    for k, v in pairs:
        if v > 2:
            groups[k].insert(0, v)
        else:
            groups[k].append(v)
    return dict(groups)


@case(([1, -1, 2],), ([1, 2],))
def clear_on_negative(xs):
    for v in xs:
        if v < 0:
            xs.clear()
            break
    else:
        xs.append(sum(xs))
    return len(xs)


@case(([1, [2, [3, 4]], 5],), ([],))
def flatten_iterative(xs):
    out = []
    stack = [xs]
    while stack:
        top = stack.pop()
        if isinstance(top, list):
            stack.extend(reversed(top))
        else:
            out.append(top)
    return out


@case((list(range(10)),), ([1, 2],))
def thin_out(xs):
    while len(xs) > 4:
        del xs[::2]
    if xs:
        xs[-1:] = [xs[-1], xs[-1]]
    return xs


@case(([1, 2, 3],), ([],))
def list_slot_grows_in_one_branch(xs):
    out = [0, 0]
    for v in xs:
        if v == 2:
            out.append(v)
        elif v > 2:
            out[-1] += v
        else:
            out[0] = v
    return out


@case(({"x": 1, "y": 2}, "x"), ({"x": 1}, "z"))
def rename_key(d, key):
    if key not in d:
        return False
    value = d.pop(key)
    new = key.upper()
    while new in d:
        new += "_"
    d[new] = value
    return True
