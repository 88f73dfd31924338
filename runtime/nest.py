"""`tf.nest`: nested lists, tuples and dicts (defined in runtime/_src/core/nest.py).

    >>> import runtime as tf
    >>> tf.nest.flatten({"b": 2, "a": (1, [3])})
    [1, 3, 2]
"""

from runtime._src.core.nest import (assert_same_structure, flatten, is_nested,
                                    map_structure, pack_sequence_as)

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure", "is_nested"]
