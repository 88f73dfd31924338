"""The three protocols by which values defined in higher layers take part in
the lower ones, written down as `typing.Protocol`s.

A class joins a protocol by defining its members; nothing registers it and no
base class is needed (tests/runtime/test_protocols.py checks each protocol
with a class written in the test itself). The layers below never import the
classes that implement these protocols: they only ask for the members.

- `TensorLike`: a value that reads as a Tensor wherever an op takes one
  (`Variable`, a Keras variable; `KerasTensor` joins to refuse with Keras's
  error). `convert_to_tensor`, the operators and every op read it through
  `_as_tensor()`. A Tensor itself is not a TensorLike: it *is* the tensor.
- `CompositeValue`: one Python value made of tensors (`SparseTensor`,
  `RaggedTensor`, `Dataset`, `ExtensionType` values), described by its
  `_type_spec`, a `CompositeSpec` (core/composite.py says what the spec does).
  tf.function passes such values in and out of traces, `nest` expands them.
- `Streamable`: an iterable that autograph's staged `for` runs as a graph
  loop (`Dataset`, its iterators): `_autograph_stream()` gives a `Stream`.

`reads_as_tensor` and `is_streamable` are the checks the layers use (a
TensorLike is read with `core.tensor.unwrap_variable` or `convert_to_tensor`);
composite values are found with `core.composite.type_spec_of`.
"""

from typing import Any, Protocol, Sequence, Tuple, runtime_checkable

__all__ = ["CompositeValue", "Stream", "Streamable", "TensorLike", "is_streamable",
           "reads_as_tensor"]


@runtime_checkable
class TensorLike(Protocol):
    """A value that reads as a Tensor: `_as_tensor()` returns its current value
    as a Tensor (a Variable's read, recorded on the tape and in a traced graph),
    or raises the error that says why it cannot be one."""

    def _as_tensor(self):
        ...


@runtime_checkable
class CompositeValue(Protocol):
    """A value made of tensors: `_type_spec` is a `CompositeSpec` whose
    `_to_components(value)` gives the tensors and `_from_components(tensors)`
    the value again (core/composite.py)."""

    @property
    def _type_spec(self):
        ...


class Stream(Protocol):
    """What a staged `for` loop over a Streamable reads each step.

    `next(want)` returns (has_value, flat element): `has_value` a bool tensor,
    the element a tuple of tensors, read only where `want` (a bool tensor) is
    true; `pack(flat)` builds the element's structure from those tensors;
    `kind` names the source in messages ("dataset")."""

    kind: str

    def next(self, want) -> Tuple[Any, Sequence[Any]]:
        ...

    def pack(self, flat: Sequence[Any]) -> Any:
        ...


@runtime_checkable
class Streamable(Protocol):
    """An iterable that a staged `for` loop reads as a `Stream` (a graph
    loop reading one element a step) rather than unrolling it."""

    def _autograph_stream(self) -> "Stream":
        ...


def reads_as_tensor(value) -> bool:
    """True when `value` is a TensorLike (has `_as_tensor`)."""
    return hasattr(value, "_as_tensor")


def is_streamable(value) -> bool:
    """True when a staged `for` can read `value` as a Stream."""
    return hasattr(value, "_autograph_stream")
