"""Cases from TensorFlow's own AutoGraph reference tests
(tensorflow/python/autograph/tests/) that once failed here: generator functions, `print` of tensors with
Feature.BUILTIN_FUNCTIONS, a dict-valued variable created in a `while`
loop, `set_element_type`, a subscript as a `for` target, and TensorFlow's
error phrases at the start of our messages. Every expected value or message
marked "TF 2.21" was printed by TensorFlow 2.21 running the same code.
"""

import re
import warnings

import pytest

import autograph
import runtime as tf

Feature = tf.autograph.experimental.Feature


# --- generators run unconverted ----------------------------------------------------

def basic_generator():
    yield 1


def squares(x):
    for i in range(3):
        yield x * i


def sums_a_generator(x):
    s = 0
    for v in squares(x):
        s += v
    return s


def test_generator_function_runs_unconverted_with_one_warning():
    # TF 2.21: "AutoGraph could not transform <function basic_generator> and will
    # run it as-is. Cause: generators are not supported".
    with pytest.warns(autograph.AutoGraphWarning, match="generators are not supported"):
        tf.function(basic_generator)()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert int(tf.function(sums_a_generator)(tf.constant(2))) == 6   # TF 2.21: 6
    assert [str(w.message) for w in caught
            if w.category is autograph.AutoGraphWarning][0].startswith(
        "autograph could not convert squares, so it runs unconverted: generators are not "
        "supported")


def test_generator_conversion_error_is_tensorflows():
    # TF 2.21: tf.autograph.to_graph(generator) raises UnsupportedLanguageElementError
    # (a NotImplementedError) "generators are not supported"; so does tf.function
    # with AUTOGRAPH_STRICT_CONVERSION=1 (here: autograph.set_strict).
    with pytest.raises(NotImplementedError, match="generators are not supported"):
        autograph.to_graph(basic_generator)
    autograph.set_strict(True)
    try:
        with pytest.raises(autograph.UnsupportedLanguageElementError,
                           match="generators are not supported"):
            tf.function(basic_generator)()
    finally:
        autograph.set_strict(False)


# --- print of tensors with Feature.BUILTIN_FUNCTIONS --------------------------------

def prints_everywhere(x):
    print("f", x)
    if x > 0:
        print("branch", x, 2.5, sep="|")
    for i in tf.range(2):
        print("loop", i)
    print("plain", 1)
    return x


def prints_values_of_each_dtype():
    print(tf.constant([[1, 2], [3, 4]]), tf.constant("s"), tf.constant(1 / 3),
          tf.constant(True), {"foo": "bar"})


def test_print_of_tensors_prints_values_when_the_graph_runs(capsys):
    f = tf.function(prints_everywhere, experimental_autograph_options=Feature.BUILTIN_FUNCTIONS)
    f(tf.constant(3))
    f(tf.constant(-4))
    tf.function(prints_values_of_each_dtype, experimental_autograph_options=Feature.ALL)()
    # TF 2.21 prints exactly this: "plain 1" once while tracing, the rest at
    # every run, in program order.
    assert capsys.readouterr().out == (
        "plain 1\nf 3\nbranch|3|2.5\nloop 0\nloop 1\n"
        "f -4\nloop 0\nloop 1\n"
        "[[1 2]\n [3 4]] s 0.33333334 True {'foo': 'bar'}\n")


def test_print_without_the_feature_runs_while_tracing(capsys):
    tf.function(prints_everywhere)(tf.constant(3))
    # TF 2.21: f Tensor("x:0", shape=(), dtype=int32) / branch|Tensor("x:0", ...)|2.5 /
    # loop Tensor("while/Placeholder:0", ...) / plain 1, all while tracing.
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == 'f Tensor("x:0", shape=(), dtype=int32)'
    assert lines[1] == 'branch|Tensor("x:0", shape=(), dtype=int32)|2.5'
    assert lines[2].startswith("loop Tensor(") and lines[3] == "plain 1" and len(lines) == 4


# --- a dict-valued variable created inside a while loop ------------------------------

def while_creates_nested_var(n):
    i = 0
    while i < n:
        v = {"a": tf.zeros([1, 2, 3]), "b": tf.ones([1, 2, 3])}
        i += 1
    return v["a"], v["b"]


def test_dict_valued_variable_created_in_a_while_loop():
    f = tf.function(while_creates_nested_var)
    a, b = f(tf.constant(2))
    assert a.shape == (1, 2, 3) and b.shape == (1, 2, 3)       # TF 2.21: [1, 2, 3] twice
    assert float(tf.reduce_sum(b)) == 6.0
    # TF 2.21: InvalidArgumentError "loop must iterate at least once to initialize v"
    with pytest.raises(tf.errors.InvalidArgumentError, match="must iterate at least once"):
        f(tf.constant(0))


# --- set_element_type ----------------------------------------------------------------

def simple_fill(n):
    lst = []
    autograph.set_element_type(lst, tf.int32)
    for i in range(n):
        lst.append(i)
    return tf.stack(lst)


def test_set_element_type_exists_and_does_nothing():
    assert autograph.set_element_type([], tf.int32) is None          # TF 2.21: None
    out = tf.function(simple_fill)(5)
    assert out.numpy().tolist() == [0, 1, 2, 3, 4]                   # TF 2.21: [0 1 2 3 4]


# --- a subscript or attribute as the for target --------------------------------------

def subscript_target(n):
    x = [0, 0]
    for x[0] in range(n):
        pass
    return x[0]


class Box:
    pass


def attribute_target(n):
    o = Box()
    o.a = 7
    for o.a in range(n):
        pass
    return o.a


@pytest.mark.parametrize("n, want", [(3, 2), (0, 0)])
def test_subscript_as_for_target_over_a_tensor_range(n, want):
    assert subscript_target(n) == want
    assert int(tf.function(subscript_target)(tf.constant(n))) == want   # TF 2.21: 2, 0
    want = 7 if n == 0 else want                                        # TF 2.21: 2, 7
    assert int(tf.function(attribute_target)(tf.constant(n))) == want


def slot_target_in_branch(a):
    o = Box()
    o.a = a
    if a > 1:
        for o.a in range(a % 4):
            pass
    return o.a


@pytest.mark.parametrize("a, want", [(5, 0), (0, 0), (3, 2), (4, 4)])   # TF 2.21: 0, 0, 2, 4
def test_slot_for_target_inside_a_tensor_if(a, want):
    """Found by tools/fuzz.py --composites: the if must carry the slot the
    inner loop's target assigns."""
    assert slot_target_in_branch(a) == want
    assert int(tf.function(slot_target_in_branch)(tf.constant(a))) == want


# --- TensorFlow's error phrases first ------------------------------------------------

def one_branch(x):
    if x > 0:
        y = x
    return y


def else_only(x):
    if x > 0:
        pass
    else:
        y = x
    return y


def different_returns(x):
    if x > 0:
        return x, x
    return x


def different_structures(x):
    if x > 0:
        s = {"a": x}
    else:
        s = x
    return s


def while_creates_var(n):
    i = 0
    while i < n:
        i = n + 1
        j = i + 1
    return i, j


def test_tensorflows_phrases_start_our_messages():
    # TF 2.21: ValueError "'y' must also be initialized in the else branch"
    with pytest.raises(ValueError, match=r"^'y' must also be initialized in the else branch: "
                                         r"it is defined in the if branch"):
        tf.function(one_branch)(tf.constant(1))
    # TF 2.21: ValueError "'y' must also be initialized in the main branch"
    with pytest.raises(ValueError, match=re.escape("'y' must also be initialized in the main "
                                                   "branch (the if branch): it is defined in "
                                                   "the else branch")):
        tf.function(else_only)(tf.constant(1))
    # TF 2.21: TypeError "'retval_' must have the same nested structure in the main
    # and else branches"; "'s' must have the same nested structure ..."
    with pytest.raises(TypeError, match=r"^'the return value' must have the same nested "
                                        r"structure in the main and else branches: a tuple "
                                        r"of 2 in the if branch, a single value in the else"):
        tf.function(different_returns)(tf.constant(1))
    with pytest.raises(TypeError, match=r"^'s' must have the same nested structure in the "
                                        r"main and else branches: a dict with keys \['a'\]"):
        tf.function(different_structures)(tf.constant(1))
    # TF 2.21: UnboundLocalError "'j' is used before assignment"
    with pytest.raises(UnboundLocalError, match=r"^'j' is used before assignment: cannot access "
                                                r"local variable 'j'"):
        tf.function(while_creates_var)(0)
