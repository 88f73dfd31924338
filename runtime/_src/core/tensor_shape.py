"""Static shapes: `TensorShape`, with `None` for unknown dimensions (the
spec of a tensor, `TensorSpec`, is in core/tensor.py).

    >>> s = TensorShape([None, 3])
    >>> s.is_compatible_with([5, 3])
    True
    >>> s.most_specific_compatible_shape(TensorShape([2, 4]))
    TensorShape([None, None])
"""

from __future__ import annotations

from typing import Any, Sequence

from runtime._src.core import dtypes as _dtypes

__all__ = ["TensorShape", "as_shape"]


class TensorShape:
    """A possibly partial shape. `dims` is None when even the rank is unknown."""

    __slots__ = ("dims",)

    def __init__(self, dims):
        if dims.__class__ is tuple and not dims:     # a scalar's: the commonest shape
            self.dims = ()
            return
        if isinstance(dims, TensorShape):
            dims = dims.dims
        elif dims is not None:
            if isinstance(dims, int):
                dims = (dims,)
            dims = tuple(None if d is None else int(d) for d in dims)
        self.dims = dims

    @property
    def rank(self):
        return None if self.dims is None else len(self.dims)

    ndims = rank

    def as_list(self):
        if self.dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self.dims)

    def is_fully_defined(self):
        return self.dims is not None and None not in self.dims

    def is_compatible_with(self, other):
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return True
        if len(self.dims) != len(other.dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self.dims, other.dims))

    def assert_is_compatible_with(self, other):
        """Raise ValueError unless `other` is compatible with this shape."""
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def concatenate(self, other):
        """This shape's dimensions followed by `other`'s (unknown rank when
        either rank is unknown), as TF's TensorShape.concatenate."""
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return TensorShape(None)
        return TensorShape(self.dims + other.dims)

    def merge_with(self, other):
        """The most specific shape compatible with both (raises if none)."""
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self.dims is None:
            return other
        if other.dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self.dims, other.dims)])

    def num_elements(self):
        """The number of elements (None unless the shape is fully defined)."""
        if not self.is_fully_defined():
            return None
        count = 1
        for d in self.dims:
            count *= d
        return count

    def assert_has_rank(self, rank):
        if self.dims is not None and len(self.dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.dims is not None and other.dims is not None and \
                len(self.dims) != len(other.dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def with_rank(self, rank):
        """This shape, of `rank` dimensions when its rank is unknown."""
        self.assert_has_rank(rank)
        return TensorShape([None] * rank) if self.dims is None else self

    def with_rank_at_least(self, rank):
        if self.dims is not None and len(self.dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.dims is not None and len(self.dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def most_specific_compatible_shape(self, other):
        """The least relaxed shape that both shapes are compatible with."""
        if other.__class__ is not TensorShape:
            other = as_shape(other)
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return TensorShape(None)
        if self.dims == other.dims:     # the commonest case (a cond's two branches, a
            return self                 # loop's stable shapes): nothing relaxed, and a
                                        # shape is never changed in place
        return TensorShape([a if a == b else None for a, b in zip(self.dims, other.dims)])

    def __len__(self):
        if self.dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self.dims)

    def __iter__(self):
        if self.dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self.dims)

    def __getitem__(self, key):
        if self.dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self.dims[key])
        return self.dims[key]

    def __eq__(self, other):
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self.dims == other.dims

    def __hash__(self):
        return hash(self.dims)

    def __repr__(self):
        if self.dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self.dims)})"

    def __str__(self):
        if self.dims is None:
            return "<unknown>"
        if len(self.dims) == 1:
            return f"({self.dims[0]},)"
        return "(" + ", ".join(str(d) for d in self.dims) + ")"


def as_shape(value):
    if isinstance(value, TensorShape):
        return value
    return TensorShape(value)
