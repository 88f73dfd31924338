from autograph import operators as ag__


def return_in_loop(xs):
    retval_ = ag__.Undefined('retval_')
    do_return = False

    def loop_body(x, do_return, retval_):

        def if_body(do_return, retval_):
            do_return = True
            retval_ = x
            return (do_return, retval_)
        do_return, retval_ = ag__.if_stmt(x > 10, if_body, None, (do_return, retval_), ('do_return', 'retval_'))
        return (do_return, retval_)

    def loop_test(do_return, retval_):
        return ag__.not_(do_return)
    do_return, retval_ = ag__.for_stmt(xs, loop_body, (do_return, retval_), ('do_return', 'retval_'), extra_test=loop_test)

    def if_body_1(retval_):
        retval_ = 0
        return (retval_,)
    retval_, = ag__.if_stmt(ag__.not_(do_return), if_body_1, None, (retval_,), ('retval_',))
    return retval_
