"""Functions whose `to_code` output is locked by golden files in golden/."""


def if_else(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def if_without_else(x):
    if x < 0:
        x = -x
    return x


def while_sum(n):
    s = 0
    i = 0
    while i < n:
        s += i
        i += 1
    return s


def for_with_break(xs):
    total = 0
    for x in xs:
        if x < 0:
            break
        total += x
    return total


def for_with_continue(n):
    s = 0
    for i in range(n):
        if i % 2:
            continue
        s += i
    return s


def return_in_loop(xs):
    for x in xs:
        if x > 10:
            return x
    return 0


def early_return(x):
    if x < 0:
        return 0
    y = x * x
    return y + 1


def logical(a, b):
    return a > 0 and b > 0 or not a


def conditional_expression(x):
    return x if x > 0 else -x


def asserts_and_builtins(xs):
    assert len(xs) > 0, "empty input"
    return max(xs) - min(xs)


def append_in_loop(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


def helper(x):
    return x + 1


def calls_helper(x):
    while x < 10:
        x = helper(x)
    return x
