from autograph import operators as ag__


def for_with_break(xs):
    total = 0
    break_ = False

    def loop_body(x, break_, total):

        def if_body(break_):
            break_ = True
            return (break_,)
        break_, = ag__.if_stmt(x < 0, if_body, None, (break_,), ('break_',))

        def if_body_1(total):
            total += x
            return (total,)
        total, = ag__.if_stmt(ag__.not_(break_), if_body_1, None, (total,), ('total',))
        return (break_, total)

    def loop_test(break_, total):
        return ag__.not_(break_)
    break_, total = ag__.for_stmt(xs, loop_body, (break_, total), ('break_', 'total'), extra_test=loop_test)
    return total
