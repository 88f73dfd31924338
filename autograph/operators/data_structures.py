"""Lists built by appending, inside or outside staged loops.

    lst = list_append(lst, x)    # means: lst.append(x)

A Python list stays a Python list (appended in place, same object). In a
staged loop the list is a backend tensor list (a TensorArray): the append
becomes a write at the end, and the loop stacks it into one tensor after.
"""

from ..backend import backend_of

__all__ = ["list_append"]


def list_append(lst, x):
    backend = backend_of(lst)
    if backend is not None and backend.is_list(lst):
        return backend.list_append(lst, x)
    lst.append(x)
    return lst
