from autograph import operators as ag__


def asserts_and_builtins(xs):
    ag__.assert_stmt(ag__.len(xs) > 0, lambda: 'empty input')
    return ag__.max(xs) - ag__.min(xs)
