from autograph import operators as ag__


def early_return(x):

    def if_body():
        retval_ = 0
        return (retval_,)

    def else_body():
        y = x * x
        retval_ = y + 1
        return (retval_,)
    retval_, = ag__.if_stmt(x < 0, if_body, else_body, names=('retval_',))
    return retval_
