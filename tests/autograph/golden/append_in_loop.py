from autograph import operators as ag__


def append_in_loop(n):
    out = []

    def loop_body(i, out):
        out = ag__.list_append(out, i * i)
        return (out,)
    out, = ag__.for_stmt(ag__.range(n), loop_body, (out,), ('out',))
    return out
