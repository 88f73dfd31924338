from autograph import operators as ag__


def if_else(x):

    def if_body():
        y = x * 2
        return (y,)

    def else_body():
        y = -x
        return (y,)
    y, = ag__.if_stmt(x > 0, if_body, else_body, names=('y',))
    return y
