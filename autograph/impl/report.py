"""Conversion report: for each statement of a function, what autograph did
with it.

    print(report(f))
    # f (user.py)
    #   line 3  if x > 0:            converted; staged 1x (tensor condition)
    #   line 5  y = helper(x)        call converted
"""

def report(fn):
    raise NotImplementedError
