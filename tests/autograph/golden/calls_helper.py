from autograph import operators as ag__


def calls_helper(x):

    def loop_test(x):
        return x < 10

    def loop_body(x):
        x = ag__.call(helper, x)
        return (x,)
    x, = ag__.while_stmt(loop_test, loop_body, (x,), ('x',))
    return x
