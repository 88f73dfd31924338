"""try/except/else/finally inside converted functions: `except E as e`,
re-raise, raise from, return/break/continue inside try/finally, and
exceptions escaping loops (their types are compared)."""

from tests.autograph.corpus.registry import Stop, case


@case(([1, 2, 0, 4],), ([1, 2],))
def reciprocal_sum(xs):
    total = 0
    for v in xs:
        try:
            total += 12 // v
        except ZeroDivisionError:
            print("skip zero")
            continue
        else:
            print("ok", v)
    return total


@case((3,), (0,))
def return_in_try_finally(n):
    log = []
    for i in range(n + 1):
        try:
            if i == 2:
                return log
            log.append(i)
        finally:
            log.append("f")
    return log


@case((1,), (0,))
def finally_return_overrides(x):
    try:
        if x:
            return "try"
        raise ValueError("bad")
    except ValueError:
        return "except"
    finally:
        if x:
            return "finally"


@case((7,), (5,), (-1,))
def reraise_after_logging(x):
    results = []
    try:
        for i in range(3):
            if x - i * 3 < 0:
                raise ValueError(i)
            results.append(x - i * 3)
    except ValueError:
        print("failed at", results)
        raise
    return results


@case(("7",), ("q",))
def exception_var_unbound_after(s):
    try:
        v = int(s)
    except ValueError as e:
        v = None
    try:
        e
        return "e still bound"
    except NameError:
        return v


@case((0,), (1,), (2,), (3,))
def which_exception(k):
    try:
        if k == 0:
            [][1]
        elif k == 1:
            {}["x"]
        elif k == 2:
            int("x")
        return "none"
    except IndexError:
        return "index"
    except (KeyError, ValueError) as e:
        return type(e).__name__


@case(([1, 2, 3],), ([1, "a", 3],), ([1],))
def add_all_or_raise(xs):
    total = 0
    for v in xs:
        if v == 3:
            break
        total = total + v
    else:
        raise RuntimeError("no three")
    return total


@case((["x", "y", "3"],), (["a"],))
def first_parsable(items):
    i = 0
    while i < len(items):
        try:
            return int(items[i])
        except ValueError:
            i += 1
    raise LookupError("nothing parsable")


@case((2,), (0,))
def all_clauses(x):
    order = []
    for d in (x, 0):
        try:
            order.append(10 // d)
        except ZeroDivisionError as e:
            order.append(type(e).__name__)
        else:
            order.append("else")
        finally:
            order.append("fin")
    return order


@case(({"a": 1}, "a"), ({"a": 1}, "b"))
def raise_from(d, key):
    try:
        v = d[key]
    except KeyError as e:
        raise ValueError(f"no {key}") from e
    while v < 10:
        v *= 3
    return v


@case((10,), (3,))
def stop_via_exception(n):
    found = []
    try:
        for i in range(n):
            for j in range(n):
                if i * j > 6:
                    raise Stop
                if (i + j) % 3 == 0:
                    found.append((i, j))
    except Stop:
        print("stopped")
    return len(found)


@case((1,), (0,), (5,))
def finally_raises(x):
    try:
        for i in range(3):
            if i == x:
                raise KeyError(i)
    finally:
        if x == 1:
            raise IndexError("from finally")
    return "done"


@case((5,), (1,))
def break_in_try_finally(n):
    log = []
    for i in range(n):
        try:
            if i == 2:
                break
            log.append(i)
        finally:
            log.append(-i)
    return log


@case((4,))
def continue_in_try_finally(n):
    log = []
    i = 0
    while i < n:
        i += 1
        try:
            if i % 2:
                continue
            log.append(i)
        finally:
            log.append("f")
    return log


@case(("3",), ("0",), ("x",))
def nested_try(s):
    try:
        v = int(s)
        try:
            r = 6 // v
        except ZeroDivisionError:
            r = None
            raise
        finally:
            print("inner finally")
    except ZeroDivisionError:
        return "zero"
    except ValueError:
        return "not a number"
    return r


@case((["a", 1],), ([2, 3],))
def exception_args(items):
    errors = []
    for it in items:
        try:
            it + 1
        except TypeError as e:
            errors.append(len(e.args))
    if errors:
        return errors
    return None


@case((3,), (-1,))
def assert_in_loop(n):
    out = []
    i = n
    while i != 0:
        assert i > 0, "negative"
        out.append(i)
        i -= 1
    return out


@case(([1, 2],), ([],))
def next_with_default(xs):
    it = iter(xs)
    first = next(it, None)
    if first is None:
        try:
            next(it)
        except StopIteration:
            return "empty"
    rest = []
    for v in it:
        rest.append(v)
    return first, rest


@case(([1, 2, 4],), ([1, 0],), ([8, 4],))
def comprehension_raises(xs):
    try:
        inv = [8 // v for v in xs]
    except ZeroDivisionError:
        inv = []
    if not inv:
        return None
    for v in inv:
        if v < 3:
            return v
    return inv


@case(({"n": 3},), ({},))
def exception_in_condition(d):
    steps = 0
    try:
        while d["n"] > 0:
            d["n"] -= 1
            steps += 1
    except KeyError:
        steps = -1
    return steps


@case((["1", "2", "x", "4"],), (["5"],))
def parse_until_bad(items):
    total = 0
    for idx, s in enumerate(items):
        try:
            total += int(s)
        except ValueError:
            print("bad at", idx)
            return total, idx
    return total, None


@case((0,), (1,))
def bare_except(k):
    out = []
    for i in range(3):
        try:
            if i == k:
                raise OSError("x")
            out.append(i)
        except:  # the bare form is what is tested
            out.append("err")
    return out


@case(([0, "a", None, 2],),)
def classify_errors(values):
    kinds = []
    for v in values:
        try:
            1 / v
        except Exception as e:
            if isinstance(e, ZeroDivisionError):
                kinds.append("zero")
            elif isinstance(e, TypeError):
                kinds.append("type")
            else:
                kinds.append("other")
        else:
            kinds.append("fine")
    return kinds


@case(([1, 2, "3", 4],), ([1],))
def partial_mutation(xs):
    for i in range(len(xs)):
        if xs[i] == 4:
            continue
        xs[i] = xs[i] * 2 + 1
    return xs


@case(([1, 2],), ([1, -2],))
def raise_in_for_else(xs):
    for v in xs:
        if v < 0:
            break
    else:
        raise ValueError("all positive")
    return v


@case(([3, 2, 1],), ([],))
def drain_until_error(xs):
    taken = []
    while True:
        try:
            taken.append(xs.pop())
        except IndexError:
            break
    return taken


@case((3,), (5,))
def var_from_partial_try(n):
    try:
        stage = 1
        for i in range(n):
            stage += 1
            if stage > 4:
                raise OverflowError
        stage = "complete"
    except OverflowError:
        return f"overflow at {stage}"
    return stage


@case((1,), (0,))
def else_skipped_by_return(x):
    log = []
    for i in range(2):
        try:
            if x and i:
                return "early", log
            log.append("try")
        except Exception:
            log.append("exc")
        else:
            log.append("else")
    return log


@case((0,), (2,))
def exception_context(x):
    for _ in range(1):
        try:
            try:
                1 // x
            except ZeroDivisionError:
                raise KeyError("k")
        except KeyError as e:
            return type(e.__context__).__name__
    return "fine"


@case(([1, 2, 3],), ([1, -1],))
def validate_all(xs):
    def validate(v):
        if v < 0:
            raise ValueError(v)
    count = 0
    for v in xs:
        validate(v)
        count += 1
    return count


@case((3,))
def print_in_finally_each_iter(n):
    for i in range(n):
        try:
            if i == 1:
                continue
            print("body", i)
        finally:
            print("finally", i)
    return i


@case((4,), (0,))
def while_else_with_raise(n):
    i = 0
    while i < n:
        if i == 10:
            break
        i += 1
    else:
        if n == 0:
            raise ValueError("empty")
        return i
    return -1


@case((["a", "b", "a"],),)
def count_with_keyerror(words):
    counts = {}
    for w in words:
        try:
            counts[w] += 1
        except KeyError:
            counts[w] = 1
    return counts


@case((1,), (-1,))
def translate_error(x):
    for attempt in range(2):
        try:
            if x < 0:
                raise ValueError("neg")
            return attempt
        except ValueError:
            if attempt == 1:
                raise TypeError("gave up")
    return None


@case(([4, 2, 0],), ([4, 2],))
def try_wraps_whole_loop_with_else(xs):
    out = []
    try:
        for v in xs:
            out.append(8 // v)
    except ZeroDivisionError:
        out.append("div0")
    else:
        out.append("clean")
    finally:
        print(len(out))
    return out


@case((2,), (0,))
def exception_var_in_loop(n):
    messages = []
    for i in range(n + 1):
        try:
            if i % 2 == 0:
                raise KeyError(f"k{i}")
        except KeyError as err:
            messages.append(err.args[0])
    return messages
