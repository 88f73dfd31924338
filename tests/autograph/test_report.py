"""The conversion report: per statement, staged / ran as Python / fell back,
and why."""

import warnings


import autograph

import runtime as tf  # an import error must fail the module loudly


def generator(n):
    yield n


def mixed(x, n):
    s = 0
    for i in range(n):
        if x > i:
            s += i
    while s < 100:
        s = s * 2 + 1
    t = sum(generator(3))
    return s + t


def test_report_says_what_was_staged_and_what_ran_as_python():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", autograph.AutoGraphWarning)
        tf.function(mixed)(tf.constant(2), 3)
    rows = {text: status for _, text, _, status in autograph.report(mixed).rows}
    assert rows["for i in range(n):"] == \
        "ran as Python (unrolled loop over a Python iterable) (1x)"
    assert rows["if x > i:"] == "staged as a graph cond (3x)"
    assert rows["s += i"] == "inside a staged if (line %d)" % (mixed.__code__.co_firstlineno + 3)
    assert rows["while s < 100:"] == "staged as a graph while_loop (1x)"
    assert rows["t = sum(generator(3))"].startswith(
        "runs as Python; call of generator fell back to Python: generators are not supported "
        "(a function with yield)")
    text = str(autograph.report(mixed))
    assert text.splitlines()[0] == (f"conversion report for mixed ({__file__}:"
                                    f"{mixed.__code__.co_firstlineno})")


def not_run(x):
    if x:
        return 1
    return 2


def test_report_before_any_run():
    rows = autograph.report(not_run).rows
    assert rows[0][3] == "converted to if_stmt (not run yet)"
    assert tf.autograph.report is autograph.report
