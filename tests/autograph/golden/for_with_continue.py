from autograph import operators as ag__


def for_with_continue(n):
    s = 0

    def loop_body(i, s):
        continue_ = False

        def if_body(continue_):
            continue_ = True
            return (continue_,)
        continue_, = ag__.if_stmt(i % 2, if_body, None, (continue_,), ('continue_',))

        def if_body_1(s):
            s += i
            return (s,)
        s, = ag__.if_stmt(ag__.not_(continue_), if_body_1, None, (s,), ('s',))
        return (s,)
    s, = ag__.for_stmt(ag__.range(n), loop_body, (s,), ('s',))
    return s
