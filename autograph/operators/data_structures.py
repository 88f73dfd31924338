"""Lists built by appending, inside or outside staged loops.

    lst = list_append(lst, x)    # means: lst.append(x)
    lst = list_extend(lst, xs)   # means: lst.extend(xs)

A Python list stays a Python list (appended in place, same object). In a
staged loop the list is a backend tensor list (a TensorArray): the append
becomes a write at the end, and the loop stacks it into one tensor after.
Appending to that tensor after the loop gives a tensor one row longer (the
backend decides; a backend may refuse).
"""

from .. import source_map
from ..backend import backend_of

__all__ = ["list_append", "list_extend"]


def list_append(lst, x):
    backend = backend_of(lst)
    if backend is not None and (backend.is_list(lst) or backend.is_tensor(lst)):
        try:
            return backend.list_append(lst, x)
        except (TypeError, ValueError) as e:
            where = source_map.current_location()
            if not where or where[0] in str(e):
                raise
            raise type(e)(f"{e}{source_map.describe(where)}") from None
    lst.append(x)
    return lst


def list_extend(lst, items):
    """`lst.extend(items)`: on a tensor list (or a stacked one), one append per
    item of the Python sequence `items`."""
    backend = backend_of(lst)
    if backend is not None and (backend.is_list(lst) or backend.is_tensor(lst)):
        if backend_of(items) is not None or not isinstance(items, (list, tuple)):
            raise TypeError(
                f"extending a list that a tensor loop appends to takes a Python list or "
                f"tuple of elements, got {type(items).__name__}"
                f"{source_map.describe(source_map.current_location())}; append the "
                f"elements one by one instead")
        for x in items:
            lst = list_append(lst, x)
        return lst
    lst.extend(items)
    return lst
