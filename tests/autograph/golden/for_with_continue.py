from autograph import operators as ag__


def for_with_continue(n):
    s = 0

    def loop_body(i, s):

        def if_body(s):
            s += i
            return (s,)
        s, = ag__.if_stmt(ag__.not_(i % 2), if_body, None, (s,), ('s',))
        return (s,)
    s, = ag__.for_stmt(ag__.range(n), loop_body, (s,), ('s',))
    return s
