"""Datasets inside a graph: iterator ops, and the staged `for x in ds` loop.

A dataset used while tracing becomes ops whose kernels run its pipeline on
the host when the graph runs (the node holds the dataset, as a py_function
node holds its function):

    it   = DatasetIterator(<symbolic tensors the dataset was built from>)
                                    # a fresh iteration at every run
    x... = IteratorGetNext(it)      # the next element; OutOfRangeError at the end
    has, x... = IteratorGetNextIf(it, want)
                                    # (False, zeros) at the end or when not `want`

`for x in ds:` in converted code is staged by autograph as a while_loop over
IteratorGetNextIf (see `DatasetStream`, and autograph/operators/stream_loops.py):

    has, x = next_if(it, True)
    while has:
        body(x)
        has, x = next_if(it, not broke)
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import OutOfRangeError
from runtime._src.core.tensor import Tensor, VariantValue, convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.data import structure
from runtime._src.data.env import Env
from runtime._src.data.iterator import Optional
from runtime._src.graph.op_registry import apply, define_op, not_differentiable

__all__ = ["DatasetStream", "GraphIterator", "reduce_dataset"]


class _Iteration(VariantValue):
    """The run-time value of an iterator tensor: the pipeline's generator."""

    __slots__ = ("elements",)

    def __init__(self, elements):
        self.elements = elements


def _infer_iterator(inputs, attrs):
    return [(dtypes.variant, TensorShape([]))]


def _env(dataset, values):
    return Env({id(t): v for t, v in zip(dataset._symbolic(), values)})


@define_op("DatasetIterator", infer=_infer_iterator, side_effect=True)
def _make_iterator(*values, dataset):
    return _Iteration(dataset._iterate(_env(dataset, values)))


def _infer_element(inputs, attrs):
    return [(s.dtype, s.shape) for s in attrs["specs"]]


def _infer_optional(inputs, attrs):
    return [(dtypes.bool, TensorShape([]))] + _infer_element(inputs, attrs)


@define_op("IteratorGetNext", infer=_infer_element, side_effect=True, num_outputs=None)
def _get_next(iteration, *, specs):
    try:
        element = next(iteration.elements)
    except StopIteration:
        raise OutOfRangeError("End of sequence", "IteratorGetNext") from None
    return tuple(_leaf(v, s) for v, s in zip(structure.flatten(element), specs))


@define_op("IteratorGetNextIf", infer=_infer_optional, side_effect=True, num_outputs=None)
def _get_next_if(iteration, want, *, specs):
    element = next(iteration.elements, None) if want else None
    if element is None:
        return (np.bool_(False),) + tuple(_zeros(s) for s in specs)
    return (np.bool_(True),) + tuple(_leaf(v, s) for v, s in zip(structure.flatten(element),
                                                                  specs))


not_differentiable("DatasetIterator", "IteratorGetNext", "IteratorGetNextIf")


def _leaf(value, spec):
    if isinstance(value, bytes):
        return np.array(value, dtype=object)
    return value


def _zeros(spec):
    dims = spec.shape.dims or ()
    if spec.dtype.is_string:
        return np.full([d or 0 for d in dims], b"", dtype=object)
    return np.zeros([d or 0 for d in dims], spec.dtype.np_dtype)


def _check_leaves(dataset):
    for s in structure.flatten(dataset.element_spec):
        if not hasattr(s, "dtype"):
            raise TypeError("iterating a dataset of datasets (window) inside a tf.function is "
                            "not supported; use flat_map or batch on the windows")


_MAX_TRACED_NEXTS = 10000


class GraphIterator:
    """`iter(ds)` while tracing: `next(it)` stages IteratorGetNext."""

    def __init__(self, dataset):
        _check_leaves(dataset)
        self._dataset = dataset
        self.element_spec = dataset.element_spec
        self._specs = structure.flatten(self.element_spec)
        self._handle = apply("DatasetIterator", list(dataset._symbolic()), {"dataset": dataset})
        self._python_nexts = 0

    def __iter__(self):
        return self

    def __next__(self):
        # Python's iteration protocol (list(ds), a comprehension, a loop autograph
        # did not convert) never ends while tracing: stop it with a clear error.
        self._python_nexts += 1
        if self._python_nexts > _MAX_TRACED_NEXTS:
            raise TypeError(
                f"a tf.data dataset was iterated {_MAX_TRACED_NEXTS} times by Python "
                f"inside a tf.function (list(ds), a comprehension, or a loop autograph "
                f"did not convert): its end is only known when the graph runs. Use a "
                f"for loop (converted by autograph), ds.reduce, or "
                f"it.get_next_as_optional()")
        return self.get_next()

    def get_next(self):
        out = apply("IteratorGetNext", [self._handle], {"specs": self._specs})
        return structure.pack(self.element_spec, list(out))

    def get_next_as_optional(self):
        has, flat = self._next_if(True)
        return Optional(has, structure.pack(self.element_spec, flat), self.element_spec)

    def _next_if(self, want):
        want = convert_to_tensor(want, dtypes.bool) if not isinstance(want, Tensor) else want
        out = apply("IteratorGetNextIf", [self._handle, want], {"specs": self._specs})
        return out[0], tuple(out[1:])

    def _autograph_stream(self):
        return DatasetStream(self)


class DatasetStream:
    """What autograph's staged `for` over a dataset (or its iterator) needs:
    `next(want)` -> (has_value, flat element), `pack(flat)` -> the element."""

    kind = "dataset"

    def __init__(self, iterator):
        self._iterator = iterator

    def next(self, want):
        return self._iterator._next_if(want)

    def pack(self, flat):
        return structure.pack(self._iterator.element_spec, list(flat))


@define_op("DatasetReduce", infer=lambda inputs, attrs: [
    (s.dtype, s.shape) for s in attrs["specs"]], side_effect=True, num_outputs=None)
def _reduce(*values, dataset, fn, n_state, specs):
    state = structure.pack(fn.out_structure, list(values[:n_state]))
    for e in dataset._iterate(_env(dataset, values[n_state:])):
        state = fn.call((state, e))
    return tuple(structure.flatten(state))


def reduce_dataset(dataset, init, fn):
    if not structure.compatible(structure.spec_of(init), fn.out_spec):
        raise TypeError(f"Dataset.reduce: the reduce function returns {fn.out_spec!r}, which "
                        f"does not match the initial state {structure.spec_of(init)!r}")
    flat = [convert_to_tensor(t) for t in structure.flatten(init)]
    specs = structure.flatten(fn.out_spec)
    out = apply("DatasetReduce", flat + list(dataset._symbolic()),
                {"dataset": dataset, "fn": fn, "n_state": len(flat), "specs": specs})
    out = (out,) if isinstance(out, Tensor) else out
    return structure.pack(fn.out_structure, list(out))
