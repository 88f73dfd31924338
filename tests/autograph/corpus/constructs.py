"""Every construct the transpiler handles, nested up to three deep, with
zero-trip loops and empty lists among the inputs: the programs registered
with `tensor=True` are also run on tensors (test_equivalence.py, and the
ONNX, JAX and XLA corpus checks), the others (strings, dicts, exceptions,
prints inside branches, ...) on Python values only. Functions that
golden_targets.py also locks with golden files are registered from there,
not written twice.
"""

from tests.autograph import golden_targets
from tests.autograph.corpus.registry import case


# --- if / elif / else -----------------------------------------------------------

if_else = case((3,), (-2,), (0,), tensor=True)(golden_targets.if_else)


@case((3,), (-2,), tensor=True)
def if_no_else(x):
    y = 1
    if x > 0:
        y = x + 1
    return y


@case((5,), (1,), (-3,), (0,), tensor=True)
def if_elif(x):
    if x > 3:
        r = 1
    elif x > 0:
        r = 2
    elif x < -2:
        r = 3
    else:
        r = 4
    return r


@case((3, 4), (-1, 2), (2, -5), tensor=True)
def if_two_vars(x, y):
    if x > y:
        a = x
        b = y
    else:
        a = y
        b = x
    return a - b


@case((1,), (-1,), tensor=True)
def if_modifies_param(x):
    if x > 0:
        x = x * 10
    return x


@case((4,), (-4,), tensor=True)
def if_augassign(x):
    s = 0
    if x > 0:
        s += x
    else:
        s -= x
    return s


@case((2,), (-2,), tensor=True)
def if_temp_var(x):
    if x > 0:
        t = x * x
        x = t + 1
    return x


@case((2,), (7,), (12,), tensor=True)
def if_nested2(x):
    if x > 5:
        if x > 10:
            r = 3
        else:
            r = 2
    else:
        r = 1
    return r


@case((1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1), (-1, -1, -1), tensor=True)
def if_nested3(a, b, c):
    r = 0
    if a > 0:
        if b > 0:
            if c > 0:
                r = 7
            else:
                r = 6
        else:
            r = 5
    else:
        if c > 0:
            r = 4
    return r


@case((3,), (-3,), tensor=True)
def if_return_both(x):
    if x > 0:
        return x
    else:
        return -x


@case((3,), (-3,), tensor=True)
def if_return_early(x):
    if x > 0:
        return x * 2
    return x - 1


@case((5,), (1,), (-1,), tensor=True)
def if_return_elif(x):
    if x > 3:
        return 1
    elif x > 0:
        return 2
    return 3


@case((3,), (-3,))
def if_return_none_path(x):
    if x > 0:
        return x


@case((3,), (0,), tensor=True)
def if_pass(x):
    if x > 0:
        pass
    else:
        x = x + 1
    return x


@case((1,), (-1,))
def if_undefined_read(x):
    if x > 0:
        y = 1
    return y


@case((1,), (-1,))
def if_defined_one_branch_unused(x):
    if x > 0:
        y = 1
        x = x + y
    return x


@case((2, 3), (3, 2), tensor=True)
def if_bool_test(a, b):
    c = a < b
    if c:
        r = 1
    else:
        r = 0
    return r


@case((2,), (-2,), tensor=True)
def if_sequential(x):
    y = 0
    if x > 0:
        y = 1
    if x < 0:
        y = 2
    if y > 0:
        y = y * 10
    return y


@case((0,), (1,))
def if_on_list(n):
    items = []
    if n:
        items = [1, 2]
    if items:
        return len(items)
    return -1


@case((1,), (-1,))
def if_string_values(x):
    if x > 0:
        s = "pos"
    else:
        s = "neg"
    return s


# --- while loops -------------------------------------------------------------------

while_sum = case((5,), (0,), (1,), tensor=True)(golden_targets.while_sum)


@case((10,), (3,), (0,), tensor=True)
def while_break(n):
    i = 0
    while i < n:
        if i == 4:
            break
        i += 1
    return i


@case((10,), (0,), tensor=True)
def while_continue(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        s += i
    return s


@case((10,), (3,), (0,), tensor=True)
def while_break_continue(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 7:
            break
        s += i
    return s


@case((5,), (0,))
def while_else(n):
    i = 0
    while i < n:
        i += 1
    else:
        i = i * 100
    return i


@case((10,), (3,), tensor=True)
def while_else_break(n):
    i = 0
    found = 0
    while i < n:
        if i == 5:
            found = 1
            break
        i += 1
    else:
        found = -1
    return found * 100 + i


@case((27,), (1,), (6,), tensor=True)
def collatz(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@case((3, 4), (0, 5), (5, 0), tensor=True)
def while_nested(a, b):
    i = 0
    total = 0
    while i < a:
        j = 0
        while j < b:
            total += i * j
            j += 1
        i += 1
    return total


@case((4, 4), (6, 2), tensor=True)
def while_nested_break(a, b):
    i = 0
    total = 0
    while i < a:
        j = 0
        while j < b:
            if j > i:
                break
            total += 1
            j += 1
        i += 1
    return total


@case((20,), (5,), tensor=True)
def while_return(n):
    i = 0
    while i < n:
        if i * i > 30:
            return i
        i += 1
    return -1


@case((100,), (3,), tensor=True)
def while_true_break(n):
    i = 0
    while True:
        i += 1
        if i >= n:
            break
    return i


@case((12, 18), (7, 5), (0, 4), tensor=True)
def gcd(a, b):
    while b != 0:
        a, b = b, a % b
    return a


@case((10,), (1,), tensor=True)
def fib(n):
    a = 0
    b = 1
    i = 0
    while i < n:
        a, b = b, a + b
        i += 1
    return a


@case((3, 3, 3), (2, 0, 4), (1, 2, 0), tensor=True)
def while_nested3(a, b, c):
    t = 0
    i = 0
    while i < a:
        j = 0
        while j < b:
            k = 0
            while k < c:
                t += 1
                k += 1
            j += 1
        i += 1
    return t


@case((50,), (0,), tensor=True)
def while_compound_test(n):
    i = 0
    s = 0
    while i < n and s < 100:
        s += i
        i += 1
    return s


@case((5,), (0,), tensor=True)
def while_counts_down(n):
    out = 0
    while n > 0:
        out = out * 2 + n
        n -= 1
    return out


@case((6,), (9,), tensor=True)
def while_continue_nested_if(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i > 2:
            if i % 2 == 1:
                continue
            s += 10
        s += 1
    return s


@case((8,), (0,), tensor=True)
def while_break_in_else_branch(n):
    i = 0
    while i < n:
        if i < 3:
            i += 2
        else:
            break
    return i


# --- for loops ---------------------------------------------------------------------

@case((5,), (0,), tensor=True)
def for_range_sum(n):
    s = 0
    for i in range(n):
        s += i
    return s


@case(([1, 2, 3],), ([],), tensor=True)
def for_list_sum(xs):
    s = 0
    for x in xs:
        s += x
    return s


@case((10,), (2,), tensor=True)
def for_break(n):
    s = 0
    for i in range(n):
        if i > 4:
            break
        s += i
    return s


@case((10,), (0,), tensor=True)
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


@case((6,), (0,))
def for_else(n):
    s = 0
    for i in range(n):
        s += i
    else:
        s = -s
    return s


@case((10,), (3,), tensor=True)
def for_else_break(n):
    r = 0
    for i in range(n):
        if i == 5:
            r = i
            break
    else:
        r = -1
    return r


@case((5,), (0,))
def for_target_after_loop(n):
    i = -1
    for i in range(n):
        pass
    return i


@case(([3, 1, 2],), ([],), tensor=True)
def for_max(xs):
    best = -1000
    for x in xs:
        if x > best:
            best = x
    return best


@case((3, 4), (0, 2), tensor=True)
def for_nested(a, b):
    t = 0
    for i in range(a):
        for j in range(b):
            t += i + j
    return t


@case((3, 3, 3), (2, 0, 2), tensor=True)
def for_nested3(a, b, c):
    t = 0
    for i in range(a):
        for j in range(b):
            for k in range(c):
                if (i + j + k) % 2 == 0:
                    t += 1
    return t


@case((10,), (3,), tensor=True)
def for_return(n):
    for i in range(n):
        if i * 3 > 10:
            return i
    return -1


@case(([1, -2, 3],), ([1, 2],), ([],), tensor=True)
def for_return_negative(xs):
    for x in xs:
        if x < 0:
            return x
    return 0


@case((4,), (0,), tensor=True)
def for_range_start_stop(n):
    s = 0
    for i in range(1, n):
        s += i * i
    return s


@case((10,), (1,), tensor=True)
def for_range_step(n):
    s = 0
    for i in range(0, n, 3):
        s += i
    return s


@case((5,), (0,), tensor=True)
def for_modifies_outer_two(n):
    a = 0
    b = 1
    for i in range(n):
        a, b = b, a + b
    return a + b


@case((8,), (2,), tensor=True)
def for_break_nested_inner(n):
    t = 0
    for i in range(n):
        for j in range(n):
            if j >= i:
                break
            t += 1
    return t


@case((6,), (0,), tensor=True)
def for_continue_and_break(n):
    s = 0
    for i in range(n):
        if i == 1:
            continue
        if i == 4:
            break
        s += i
    return s


@case(([1, 2, 3, 4],), ([],), tensor=True)
def for_enumerate(xs):
    s = 0
    for i, x in enumerate(xs):
        s += i * x
    return s


@case(([1, 2, 3], [4, 5, 6]), ([], []), tensor=True)
def for_zip(xs, ys):
    s = 0
    for x, y in zip(xs, ys):
        s += x * y
    return s


@case((5,), (0,), tensor=True)
def for_while_mix(n):
    t = 0
    for i in range(n):
        j = i
        while j > 0:
            t += 1
            j -= 2
    return t


@case((7,), (0,), tensor=True)
def for_counter_in_if(n):
    evens = 0
    odds = 0
    for i in range(n):
        if i % 2 == 0:
            evens += 1
        else:
            odds += 1
    return evens * 10 + odds


@case(([5, 3, 8],), ([],))
def for_tuple_target(xs):
    s = 0
    for pair in [(x, x * 2) for x in xs]:
        a, b = pair
        s += a + b
    return s


# --- returns mixed with loops and branches ----------------------------------------

@case((3,), (0,), (-3,), tensor=True)
def return_in_nested_if(x):
    if x >= 0:
        if x == 0:
            return 100
        return x
    return -x * 2


@case((5,), (20,), tensor=True)
def return_in_loop_in_if(n):
    if n > 10:
        for i in range(n):
            if i > 12:
                return i
    return 0


@case((4,), (0,), tensor=True)
def return_after_loop_with_break(n):
    i = 0
    while i < n:
        if i == 2:
            break
        i += 1
    if i == 2:
        return 1
    return 0


@case((10,), (2,), tensor=True)
def return_in_while_nested(n):
    i = 0
    while i < n:
        j = 0
        while j < n:
            if i * j == 6:
                return i * 10 + j
            j += 1
        i += 1
    return -1


@case((3,), (-3,), tensor=True)
def return_value_expression(x):
    if x > 0:
        return x * x + 1
    else:
        return x * x - 1


@case((1,), (2,), (3,), (4,), tensor=True)
def return_chain(x):
    if x == 1:
        return 10
    if x == 2:
        return 20
    if x == 3:
        return 30
    return 40


@case((6,), (1,), tensor=True)
def return_from_else(n):
    s = 0
    for i in range(n):
        if i < 3:
            s += i
        else:
            return s * 100
    return s


@case((2,), (-2,))
def return_bare(x):
    if x > 0:
        return
    return x


@case((3,), (-3,), tensor=True)
def return_with_code_after_if(x):
    y = x
    if x < 0:
        return 0
    y = y + 1
    y = y * 2
    return y


# --- logical and conditional expressions ---------------------------------------------

@case((1, 0), (0, 1), (2, 3), (0, 0), tensor=True)
def logic_and_or(a, b):
    return a and b or a


@case((0,), (5,), tensor=True)
def logic_not(x):
    return not x


@case((3,), (-3,), (0,), tensor=True)
def cond_expr(x):
    return 1 if x > 0 else -1


@case((3,), (-3,), (0,), tensor=True)
def cond_expr_nested(x):
    return 1 if x > 0 else (0 if x == 0 else -1)


@case((2,), (5,), (9,), tensor=True)
def chained_comparison(x):
    return 0 < x < 6


@case((2,), (5,), (9,), tensor=True)
def chained_comparison_if(x):
    if 1 <= x <= 5:
        r = 1
    else:
        r = 0
    return r


@case((0,), (4,))
def short_circuit_and(x):
    return x != 0 and 10 // x > 1


@case((0,), (4,))
def short_circuit_or(x):
    return x == 0 or 10 // x > 1


@case((1, 2, 3), (3, 2, 1), tensor=True)
def logic_three_way(a, b, c):
    if a < b and b < c:
        return 1
    if a > b or b > c:
        return 2
    return 3


@case((1,), (-1,), tensor=True)
def cond_expr_in_loop(n):
    s = 0
    for i in range(4):
        s += i if n > 0 else -i
    return s


@case((5,), (0,), tensor=True)
def not_in_while(n):
    done = False
    i = 0
    while not done:
        i += 1
        if i >= n:
            done = True
    return i


@case(([],), ([1],))
def or_default_list(xs):
    ys = xs or [0]
    return len(ys)


# --- builtins ---------------------------------------------------------------------

@case(([1, 2, 3],), ([],), tensor=True)
def builtin_len(xs):
    return len(xs)


@case((-3,), (4,), tensor=True)
def builtin_abs(x):
    return abs(x)


@case((3, 5), (5, 3), tensor=True)
def builtin_min_max(a, b):
    return max(a, b) - min(a, b)


@case(([4, 1, 3],), tensor=True)
def builtin_max_list(xs):
    return max(xs)


@case((3,), (0,), tensor=True)
def builtin_range_len(n):
    return len(range(n))


@case((7,), (-7,))
def builtin_int_float(x):
    return int(x / 2) + float(x) * 0


@case(([1, 2, 3],), ([],), tensor=True)
def len_in_loop(xs):
    i = 0
    s = 0
    while i < len(xs):
        s += xs[i]
        i += 1
    return s


@case(([2, 4],), ([],))
def builtin_sum_sorted(xs):
    return sum(sorted(xs))


@case(([1, 2, 3],))
def builtin_enumerate_start(xs):
    out = 0
    for i, x in enumerate(xs, 1):
        out += i * x
    return out


# --- lists -----------------------------------------------------------------------------

list_append_loop = case((4,), (0,))(golden_targets.append_in_loop)


@case((4,), (0,))
def list_append_while(n):
    out = []
    i = 0
    while i < n:
        out.append(i)
        i += 1
    return out


@case((3,))
def list_append_nested(n):
    out = []
    for i in range(n):
        row = []
        for j in range(n):
            row.append(i * j)
        out.append(row)
    return out


@case(([1, -2, 3],), ([],))
def list_filter(xs):
    out = []
    for x in xs:
        if x > 0:
            out.append(x)
    return out


@case((3,))
def list_alias_kept(n):
    a = []
    b = a
    for i in range(n):
        a.append(i)
    return len(b)


@case(([1, 2],), ([],))
def list_index_and_slice(xs):
    if xs:
        return xs[0] + len(xs[1:])
    return 0


# --- prints, asserts, exceptions --------------------------------------------------

@case((3,), (-3,))
def print_in_branches(x):
    if x > 0:
        print("positive", x)
    else:
        print("not positive", x)
    return x


@case((3,), (0,))
def print_in_loop(n):
    for i in range(n):
        print("step", i)
    print("done")
    return n


@case((3,), (-3,))
def assert_positive(x):
    assert x > 0, "x must be positive"
    return x


@case((3,), (-3,))
def assert_no_message(x):
    assert x > 0
    return x


@case((2,), (0,))
def raises_zero_division(x):
    if x >= 0:
        y = 10 // x
    else:
        y = 0
    return y


@case((1,), (-1,))
def raises_value_error(x):
    if x < 0:
        raise ValueError("negative")
    return x


@case((3,), (0,))
def raise_in_loop(n):
    for i in range(n):
        if i == 2:
            raise KeyError(i)
    return n


@case(({"a": 1},), ({},))
def dict_key_error(d):
    if "a" in d:
        return d["a"]
    return d["missing"]


# --- functions: helpers, nested, closures, lambdas ----------------------------------

def helper_double(x):
    if x > 0:
        return x * 2
    return x


@case((3,), (-3,), tensor=True)
def calls_helper(x):
    return helper_double(x) + 1


def helper_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


@case((4,), (0,), tensor=True)
def calls_helper_loop(n):
    if n > 2:
        r = helper_loop(n)
    else:
        r = -1
    return r


@case((3,), (-3,), tensor=True)
def nested_def(x):
    def inner(y):
        if y > 0:
            return y + 1
        return y - 1
    return inner(x) * 2


@case((3,), (0,), tensor=True)
def closure_counter(n):
    base = 10

    def add_base(v):
        return v + base
    s = 0
    for i in range(n):
        s = add_base(s)
    return s


@case((3,), (-3,), tensor=True)
def lambda_call(x):
    f = lambda v: v * 3
    return f(x) if x > 0 else f(-x)


@case((4,), (1,))
def recursive_helper(n):
    return factorial(n)


def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@case(([3, 1, 2],))
def sorted_with_key(xs):
    return sorted(xs, key=lambda v: -v)


@case((2,), (5,), tensor=True)
def while_calls_helper(n):
    i = 0
    while helper_double(i) < n:
        i += 1
    return i


# --- assorted -------------------------------------------------------------------------

@case((3,), (0,), tensor=True)
def augassign_many(n):
    a = 1
    for i in range(n):
        a *= 2
        a -= 1
        a += i
    return a


@case((5,), (-5,))   # comprehensions over tensors stay Python (as in TF)
def comprehension_in_branch(n):
    if n > 0:
        vals = [i * 2 for i in range(n)]
        r = vals[-1]
    else:
        r = 0
    return r


@case((3,))
def tuple_result(n):
    a = 0
    b = 0
    for i in range(n):
        a += 1
        b += 2
    return a, b


@case((4,), (0,), tensor=True)
def float_accumulate(n):
    s = 0.5
    for i in range(n):
        s = s * 1.5
    return s


@case((10,), (4,), tensor=True)
def triangle_while_for(n):
    t = 0
    i = 0
    while i < n:
        for j in range(i):
            t += 1
        i += 3
    return t


@case((5,), (0,))
def string_building(n):
    s = ""
    for i in range(n):
        s += str(i)
    return s


@case((3,), (-3,))
def global_read(x):
    if x > 0:
        return x + GLOBAL_OFFSET
    return GLOBAL_OFFSET


GLOBAL_OFFSET = 100


@case((5,), (12,), tensor=True)
def multiple_breaks(n):
    i = 0
    while i < 20:
        i += 1
        if i == n:
            break
        if i == 10:
            break
    return i


@case((7,), (0,), tensor=True)
def continue_in_nested_loops(n):
    t = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        for j in range(i):
            if j % 2 == 0:
                continue
            t += j
    return t


@case((3, 2), (2, 3), (2, 2), tensor=True)
def if_in_while_in_for(a, b):
    t = 0
    for i in range(a):
        j = 0
        while j < b:
            if i == j:
                t += 10
            else:
                t += 1
            j += 1
    return t


@case((1,), (-1,))
def with_statement(x):
    import contextlib
    with contextlib.suppress(ZeroDivisionError):
        if x > 0:
            x = x + 1
    return x


@case((6,), (1,), tensor=True)
def prime_check(n):
    if n < 2:
        return False
    i = 2
    while i * i <= n:
        if n % i == 0:
            return False
        i += 1
    return True


@case((30,), (2,), tensor=True)
def count_primes(n):
    count = 0
    for k in range(2, n):
        is_prime = True
        d = 2
        while d * d <= k:
            if k % d == 0:
                is_prime = False
                break
            d += 1
        if is_prime:
            count += 1
    return count


@case((10,), (0,), tensor=True)
def digits_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n //= 10
    return s


@case((13,), (8,), tensor=True)
def binary_ones(n):
    ones = 0
    while n:
        ones += n % 2
        n = n // 2
    return ones


# --- more mixes of break / continue / return, nested up to three deep -------------

@case((10,), (0,), tensor=True)
def mix_break_continue_return(n):
    s = 0
    for i in range(n):
        if i == 1:
            continue
        if i == 6:
            break
        if s > 100:
            return -1
        s += i
    return s


@case((5, 5), (2, 7), (0, 3), tensor=True)
def mix_nested_return_break(a, b):
    for i in range(a):
        for j in range(b):
            if j > i:
                break
            if i * j == 6:
                return i + j
    return 0


@case((4,), (9,), tensor=True)
def mix_while_for_continue(n):
    t = 0
    i = 0
    while i < n:
        i += 1
        for j in range(i):
            if j % 2:
                continue
            t += j
    return t


@case((3,), (-3,), (0,), tensor=True)
def mix_if_in_if_in_loop(n):
    s = 0
    for i in range(4):
        if n > 0:
            if i % 2 == 0:
                s += n
            else:
                s -= 1
        else:
            if n < 0:
                s += i
    return s


@case((20,), (3,), tensor=True)
def mix_while_break_return(n):
    i = 0
    while i < n:
        i += 1
        if i == 15:
            return i * 2
        if i > 10:
            break
    return i


@case((6,), (1,), tensor=True)
def mix_three_loops_break(n):
    t = 0
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if k > j:
                    break
                t += 1
    return t


@case((7,), (0,), tensor=True)
def mix_continue_three_deep(n):
    t = 0
    for i in range(n):
        if i == 2:
            continue
        j = 0
        while j < i:
            j += 1
            if j == 3:
                continue
            for k in range(2):
                if k == 1:
                    continue
                t += 1
    return t


@case((8,), (3,), tensor=True)
def mix_return_in_else_of_loop_if(n):
    for i in range(n):
        if i < 5:
            pass
        else:
            return i
    return -n


@case((5,), (0,), tensor=True)
def mix_flag_loop(n):
    found = False
    i = 0
    while i < n and not found:
        if i * i == 9:
            found = True
        i += 1
    return i


@case((4,), (0,), tensor=True)
def mix_nested_while_return(n):
    i = 0
    while i < n:
        j = 0
        while j < n:
            k = 0
            while k < n:
                if i + j + k == 5:
                    return i * 100 + j * 10 + k
                k += 1
            j += 1
        i += 1
    return -1


@case((3,), (-1,), tensor=True)
def mix_if_returns_in_all_branches_nested(x):
    if x > 0:
        if x > 2:
            return 3
        else:
            return 2
    else:
        if x < 0:
            return -1
        return 0


@case((9,), (2,), tensor=True)
def mix_continue_then_break(n):
    s = 0
    i = 0
    while True:
        i += 1
        if i % 2 == 0:
            continue
        if i > n:
            break
        s += i
    return s


@case((10,), (1,), tensor=True)
def mix_accumulate_two_branches(n):
    a = 0
    b = 0
    for i in range(n):
        if i % 3 == 0:
            a += i
        elif i % 3 == 1:
            b += i
        else:
            a -= 1
            b -= 1
    return a * 1000 + b


@case((5,), (0,), tensor=True)
def mix_loop_var_swap(n):
    x = 1
    y = 2
    for _ in range(n):
        x, y = y, x + y
    return x


@case((6,), (2,), tensor=True)
def mix_countdown_with_continue(n):
    s = 0
    while n > 0:
        n -= 1
        if n == 3:
            continue
        s += n
    return s


@case((5,), (0,))
def mix_for_else_no_break_nested(n):
    t = 0
    for i in range(n):
        for j in range(2):
            t += 1
        else:
            t += 10
    else:
        t += 100
    return t


@case((5,), (7,))
def mix_while_else_with_break(n):
    i = 0
    while i < 6:
        if i == n:
            break
        i += 1
    else:
        return -1
    return i


# --- functions of several shapes: lambdas, closures, defaults, methods -----------

@case((2,), (-2,), tensor=True)
def lambdas_on_one_line(x):
    inc, dec = (lambda v: v + 1), (lambda v: v - 1)
    return inc(x) * 10 + dec(x)


@case((3,), (0,), tensor=True)
def lambda_as_argument(n):
    def apply(f, v):
        return f(v)
    s = 0
    for i in range(n):
        s += apply(lambda v: v * 2, i)
    return s


@case((3,), (1,), tensor=True)
def default_argument(n, step=2):
    s = 0
    for i in range(0, n * step, step):
        s += i
    return s


@case((4,), (-4,), tensor=True)
def closure_reads_outer(x):
    scale = 3

    def scaled(v):
        if v > 0:
            return v * scale
        return v
    return scaled(x) + scaled(-1)


class Counter:
    def __init__(self, start):
        self.start = start

    def count_to(self, n):
        c = self.start
        while c < n:
            c += 1
        return c


@case((5,), (0,), tensor=True)
def method_call(n):
    return Counter(1).count_to(n)


def decorate(fn):
    return fn


@decorate
def decorated_helper(x):
    if x > 0:
        return x
    return 0


@case((3,), (-3,), tensor=True)
def calls_decorated(x):
    return decorated_helper(x) + 1


@case((3,), (0,), tensor=True)
def keyword_call(n):
    return helper_kw(n, scale=3)


def helper_kw(n, scale=1):
    s = 0
    for i in range(n):
        s += i * scale
    return s


@case((4,), (1,))
def star_args(n):
    return helper_star(*list(range(n)))


def helper_star(*vals):
    total = 0
    for v in vals:
        total += v
    return total


@case((3,), (-3,), tensor=True)
def nested_def_with_loop(x):
    def inner(n):
        t = 0
        while n > 0:
            t += n
            n -= 1
        return t
    if x > 0:
        return inner(x)
    return inner(-x) * -1


@case((2,), (5,), tensor=True)
def walrus_in_branch(n):
    s = 0
    for i in range(n):
        if (j := i * 2) > 3:
            s += j
    return s


@case((3,))
def dict_accumulate(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    return d


@case((3,), (0,))
def set_accumulate(n):
    seen = set()
    for i in range(n):
        seen.add(i % 2)
    return len(seen)


@case((4,), (-4,))   # runtime's `~` on int tensors is logical_not
def unary_ops(x):
    y = -x
    if +y > 0:
        y = ~y
    return y


@case((7, 2), (9, 3), tensor=True)
def modulo_and_floordiv_loop(a, b):
    q = 0
    while a >= b:
        a -= b
        q += 1
    return q * 100 + a


class Box:
    def __init__(self):
        self.value = 0
        self.items = {"n": 0}


@case((4,), (0,))
def attribute_updates_in_loop(n):
    box = Box()
    for i in range(n):
        if i % 2:
            box.value += i
        box.items["n"] = box.items["n"] + 1
    return box.value * 100 + box.items["n"]


@case((1,), (-1,))
def attribute_created_in_branch(x):
    box = Box()
    if x > 0:
        box.extra = 5
    return hasattr(box, "extra")
