"""`del` of locals, items, slices and attributes, in branches and loops,
and what reading a deleted name does afterwards."""

from tests.autograph.corpus.registry import Box, case


@case((1,), (-1,))
def del_local_in_branch(x):
    y = 0
    for i in range(3):
        y += i * x
    if x > 0:
        del y
    try:
        return y
    except UnboundLocalError:
        return "deleted"


@case((3,), (0,))
def del_and_rebind_in_loop(n):
    out = []
    for i in range(n):
        tmp = i * i
        out.append(tmp)
        del tmp
    return out, "tmp" in locals()


@case(([1, 2, 3, 4, 5, 6],), ([],))
def del_even_items(xs):
    i = 0
    while i < len(xs):
        if xs[i] % 2 == 0:
            del xs[i]
        else:
            i += 1
    return xs


@case(({"a": 1, "tmp": 2},), ({"a": 1},))
def del_dict_key(d):
    if "tmp" in d:
        del d["tmp"]
    else:
        d["added"] = True
    for k in d:
        d[k] = str(d[k])
    return d


@case((Box(1),), (Box(-1),))
def del_attribute(b):
    b.extra = 5
    if b.v < 0:
        del b.extra
    total = 0
    for name in ("v", "extra"):
        if hasattr(b, name):
            total += getattr(b, name)
    return total


@case((3,), (0,))
def del_loop_variable(n):
    for i in range(n):
        if i > 5:
            break
    try:
        del i
        return "deleted"
    except UnboundLocalError:
        return "never bound"


@case((2,), (5,))
def del_multiple(x):
    a, b, c = x, x + 1, x + 2
    if x > 3:
        del a, b
    else:
        del c
    found = []
    for name in ("a", "b", "c"):
        if name in locals():
            found.append(name)
    return found


@case((list(range(8)),), ([1, 2],))
def del_slices(xs):
    while len(xs) > 3:
        del xs[1:3]
    if xs:
        del xs[:1]
    return xs


@case(("12",), ("ab",))
def del_in_except(s):
    value = None
    try:
        value = int(s)
    except ValueError as err:
        msg = str(err)[:7]
        del value
    else:
        msg = "ok"
    return msg, "value" in locals()


@case((1,), (0,))
def read_after_del_raises(flag):
    x = [1, 2]
    for v in x:
        if v == 2 and flag:
            del x
            break
    return x


@case((4,))
def del_every_other_iteration(n):
    log = []
    i = 0
    while i < n:
        marker = i
        if i % 2:
            del marker
        log.append("marker" in locals())
        i += 1
    return log


@case(({"a": 1, "b": -1},), ({"a": 1},))
def del_negative_values(d):
    for k, v in list(d.items()):
        if v < 0:
            del d[k]
            break
    else:
        d["clean"] = True
    return sorted(d)


@case(({"x": [1, 2, 3]},), ({"x": []},))
def del_nested_item(d):
    if d["x"]:
        del d["x"][0]
    else:
        del d["x"]
    for k in ("x", "y"):
        d.setdefault(k, "fresh")
    return d


@case((1,), (0,))
def del_captured_variable(flag):
    v = 10
    get = lambda: v
    for _ in range(2):
        if flag:
            del v
            break
    try:
        return get()
    except NameError as e:
        return type(e).__name__


@case((0,), (1,), (2,))
def del_in_elif(k):
    a, b, c = "a", "b", "c"
    if k == 0:
        del a
    elif k == 1:
        del b
    else:
        del c
    remaining = []
    for name in "abc":
        try:
            remaining.append(eval(name))
        except NameError:
            remaining.append(None)
    return remaining


@case(([5, 1, 4, 2],), ([7],))
def del_min_each_round(xs):
    removed = []
    while len(xs) > 1:
        i = xs.index(min(xs))
        removed.append(xs[i])
        del xs[i]
    return removed


@case(({"a": 1}, ["a", "b"]), ({"a": 1, "b": 2}, ["b"]))
def del_keys_report(d, keys):
    missing = []
    for k in keys:
        try:
            del d[k]
        except KeyError:
            missing.append(k)
            continue
        print("deleted", k)
    return missing


@case((3,), (2,))
def del_attrs_in_loop(n):
    class O:
        pass
    o = O()
    for i in range(n):
        setattr(o, f"a{i}", i)
    for i in range(n):
        if i % 2 == 0:
            delattr(o, f"a{i}")
        else:
            del o.a1
    return sorted(vars(o))


@case(([1, -2, 3],), ([1, 2],))
def del_conditionally_bound(xs):
    for v in xs:
        if v < 0:
            bad = v
    try:
        del bad
        return "had bad"
    except NameError:
        return "no bad"


@case((3,), (0,))
def del_dict_and_rebuild(n):
    d = {i: i * i for i in range(n)}
    total = 0
    while d:
        k = next(iter(d))
        total += d[k]
        del d[k]
    del d
    d = "rebuilt"
    return total, d


@case((1,), (0,))
def del_in_finally(x):
    tmp = [x]
    try:
        if x:
            return tmp[0] * 2
        tmp.append(5)
    finally:
        del tmp[0]
        print("left", tmp)
    return tmp


@case(([1, 2, 3], 2), ([1, 2, 3], 9))
def del_found(xs, target):
    for i, v in enumerate(xs):
        if v == target:
            del xs[i]
            break
    else:
        xs.append(target)
    return xs


@case(([1, 2],), ([],))
def del_argument(xs):
    n = len(xs)
    if n:
        ys = xs
        del xs
        ys.append(n)
    else:
        ys = [0]
    return ys, "xs" in locals()


@case(({1, 2, 3},), (set(),))
def shrink_set(s):
    removed = []
    while len(s) > 1:
        v = max(s)
        s.remove(v)
        removed.append(v)
        if v == 2:
            break
    return removed


@case((2,), (-2,))
def del_then_assign_in_other_branch(x):
    result = "start"
    for i in range(abs(x)):
        if x > 0:
            del result
            result = i
        else:
            result = f"{result}-{i}"
    return result


@case(([3, 0, 4],), ([1],))
def del_last_item_each_loop(xs):
    total = 0
    while xs:
        if xs[-1] == 0:
            del xs[-1]
            continue
        total += xs[-1]
        del xs[-1:]
    else:
        print("drained")
    return total
