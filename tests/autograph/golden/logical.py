from autograph import operators as ag__


def logical(a, b):
    return ag__.or_(ag__.and_(a > 0, lambda: b > 0), lambda: ag__.not_(a))
