from autograph import operators as ag__


def while_sum(n):
    s = 0
    i = 0

    def loop_test(i, s):
        return i < n

    def loop_body(i, s):
        s += i
        i += 1
        return (i, s)
    i, s = ag__.while_stmt(loop_test, loop_body, (i, s), ('i', 's'))
    return s
