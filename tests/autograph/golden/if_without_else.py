from autograph import operators as ag__


def if_without_else(x):

    def if_body(x):
        x = -x
        return (x,)
    x, = ag__.if_stmt(x < 0, if_body, None, (x,), ('x',))
    return x
