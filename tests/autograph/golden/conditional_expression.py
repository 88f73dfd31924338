from autograph import operators as ag__


def conditional_expression(x):
    return ag__.if_exp(x > 0, lambda: x, lambda: -x)
