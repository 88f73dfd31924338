"""`with` inside converted functions: a context manager that prints its
enter and exit, exceptions it sees or swallows, and return/break/continue
from inside the block."""

import contextlib
import io

from tests.autograph.corpus.registry import Box, Failing, Noisy, Stop, case


@contextlib.contextmanager
def tag(name):
    print(f"<{name}>")
    try:
        yield name.upper()
    finally:
        print(f"</{name}>")


@case((3,), (0,))
def with_in_loop(n):
    total = 0
    for i in range(n):
        with Noisy(f"it{i}"):
            if i == 1:
                continue
            total += i
    return total


@case((1,), (0,))
def with_swallows(x):
    result = "start"
    for i in range(2):
        with Noisy(f"outer{i}", swallow=True):
            if x:
                raise ValueError("boom")
            result = f"no error {i}"
    return result


@case((2,), (-1,))
def with_propagates(x):
    with Noisy("ctx") as ctx:
        while x > 0:
            x -= 1
        if x < 0:
            raise KeyError(x)
    return ctx.name


@case(([1, 2, 3], 2), ([1], 5))
def return_from_with(xs, target):
    with Noisy("search"):
        for i, v in enumerate(xs):
            if v == target:
                return i
    print("not found")
    return -1


@case((5,), (1,))
def break_inside_with(n):
    for i in range(n):
        with Noisy(str(i)):
            if i == 2:
                break
    return i


@case((1,), (0,))
def multiple_contexts(flag):
    with Noisy("a") as a, Noisy("b") as b:
        if flag:
            name = a.name + b.name
        else:
            name = b.name
        for _ in range(2):
            name += "."
    return name


@case((3,), (0,))
def with_value_in_loop(n):
    log = []
    with Noisy("cm") as cm:
        i = 0
        while i < n:
            log.append(f"{cm.name}{i}")
            i += 1
        else:
            log.append("done")
    return log


@case((2,), (0,))
def contextmanager_generator(n):
    out = []
    for i in range(n + 1):
        with tag(f"t{i}") as t:
            if i == n:
                out.append(t)
                break
            out.append(i)
    return out


@case(({"a": 1},), ({},))
def suppress_keyerror(d):
    with contextlib.suppress(KeyError):
        for k in ("a", "b"):
            d[k] += 1
    if "a" in d:
        d["a"] *= 10
    return d


@case((0,), (3,))
def with_then_except(x):
    try:
        with Noisy("inner"):
            for i in range(x):
                if i == 2:
                    raise IndexError(i)
    except IndexError as e:
        return e.args
    return None


@case((2,), (0,))
def local_context_manager(n):
    events = []

    class Tracker:
        def __enter__(self):
            events.append("in")
            return len(events)

        def __exit__(self, *exc):
            events.append("out")
            return False
    for i in range(n):
        with Tracker() as depth:
            if depth > 2:
                events.append("deep")
    return events


@case((["a", "b", "c"],), ([],))
def stringio_with(lines):
    with io.StringIO() as buf:
        for ln in lines:
            if ln == "b":
                buf.write("B")
                continue
            buf.write(ln)
        text = buf.getvalue()
    return text


@case((3,), (0,))
def with_in_while_else(n):
    i = 0
    while i < n:
        with Noisy(f"w{i}"):
            i += 1
    else:
        with Noisy("else"):
            return i


@case((1,), (0,))
def enter_fails(x):
    log = []
    for i in range(2):
        try:
            with (Failing() if x and i else Noisy("ok")):
                log.append(i)
        except RuntimeError:
            log.append("enter failed")
    return log


@case((2,))
def with_as_attribute(n):
    holder = Box(None)
    for i in range(n):
        with Noisy(f"h{i}") as holder.v:
            if i == 0:
                continue
    return holder.v.name


@case((2,),)
def with_as_item(n):
    slots = {}
    for i in range(n):
        with Noisy(f"s{i}") as slots[i]:
            if i:
                slots[i].name += "!"
    return sorted(v.name for v in slots.values())


@case((1,), (0,))
def nested_with_swallow(x):
    with Noisy("outer"):
        for i in range(2):
            with Noisy(f"inner{i}", swallow=True):
                if x:
                    raise ValueError(i)
                print("no raise", i)
        print("after inner")
    return x


@case((3,), (0,))
def exit_stack(n):
    with contextlib.ExitStack() as stack:
        for i in range(n):
            if i == 1:
                continue
            stack.enter_context(Noisy(f"e{i}"))
        print("body")
    return n


@case(([1, 2],), ([],))
def with_mutates_argument(xs):
    with Noisy("m"):
        if xs:
            xs.append(xs[-1] + 1)
        else:
            xs.extend([0, 0])
    while len(xs) < 4:
        xs.insert(0, -1)
    return xs


@case((2,), (4,))
def with_in_closure(n):
    def guarded(v):
        with Noisy(f"g{v}"):
            if v % 2:
                return "odd"
            return v * 10
    out = []
    for i in range(n):
        out.append(guarded(i))
    return out


@case((3,), (1,))
def with_return_in_finally_order(n):
    log = []
    try:
        with Noisy("t"):
            for i in range(n):
                if i == 2:
                    raise Stop(i)
                log.append(i)
    except Stop:
        log.append("stopped")
    finally:
        log.append("finally")
    return log

