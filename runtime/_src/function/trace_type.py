"""`tf.types.experimental.TraceType` and `SupportsTracingProtocol`: how a class
of Python objects tells `tf.function` which of its objects share a trace.

An argument whose class defines `__tf_tracing_type__(context)` keys the
function's trace cache by the TraceType it returns (its `__eq__` and
`__hash__`), not by the object's identity: two objects of equal TraceTypes
reuse one trace. The trace itself sees the object of the call that made it.
"""

import abc
import typing

__all__ = ["TraceType", "TracingContext", "SupportsTracingProtocol", "tracing_key"]


class TraceType(metaclass=abc.ABCMeta):
    """The tracing type of a Python value: what makes two values share a trace."""

    @abc.abstractmethod
    def is_subtype_of(self, other):
        """True when every value of this type is a value of `other`."""

    @abc.abstractmethod
    def most_specific_common_supertype(self, others):
        """The narrowest type that this one and each of `others` are subtypes of,
        or None."""

    @abc.abstractmethod
    def placeholder_value(self, placeholder_context):
        """The value a trace of this type is made with."""

    def to_tensors(self, value):
        """The tensors a value of this type is made of (none by default)."""
        del value
        return []

    def from_tensors(self, tensors):
        del tensors
        return self.placeholder_value(None)

    def flatten(self):
        return []

    def cast(self, value, cast_context):
        del cast_context
        return value

    @abc.abstractmethod
    def __hash__(self):
        """Types equal under `__eq__` hash equally."""

    @abc.abstractmethod
    def __eq__(self, other):
        """True for types whose values share a trace."""


class TracingContext(metaclass=abc.ABCMeta):    # noqa: B024 - TF's empty base
    """What `__tf_tracing_type__(context)` is given (flags scoped to one call)."""


class _CallContext(TracingContext):
    pass


@typing.runtime_checkable
class SupportsTracingProtocol(typing.Protocol):
    """A class whose objects give `tf.function` their own TraceType."""

    @abc.abstractmethod
    def __tf_tracing_type__(self, context):
        """This object's TraceType."""


def tracing_key(value):
    """The cache key part of an object whose class defines `__tf_tracing_type__`,
    or None for other objects."""
    method = getattr(type(value), "__tf_tracing_type__", None)
    if method is None:
        return None
    return ("trace_type", method(value, _CallContext()))
