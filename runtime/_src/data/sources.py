"""Dataset sources: tensors, ranges, generators, and zip / concatenate.

    Dataset.from_tensor_slices((x, y))   # rows of x with rows of y
    Dataset.from_tensors(x)              # one element: x
    Dataset.range(2, 10, 3)              # 2, 5, 8 (int64)
    Dataset.from_generator(gen, output_signature=TensorSpec((), int32))
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.tensor import EagerTensor
from runtime._src.data import composite_rows, structure
from runtime._src.data.batching import Plan
from runtime._src.data.node import (
    INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY,
    DatasetNode,
    static_int,
)

__all__ = ["Concatenate", "FromGenerator", "FromTensors", "Range", "TensorSlices", "Zip"]


class TensorSlices(DatasetNode):
    """One element per row of the given tensors (all with one first dimension)."""
    _tf_class = "_TensorSliceDataset"   # TensorFlow's repr

    def __init__(self, tensors):
        value = structure.normalize(tensors, "Dataset.from_tensor_slices")
        by_rows = structure.has_row_composites(structure.spec_of(value))
        leaves = structure.row_leaves(value) if by_rows else structure.flatten(value)
        if not leaves:
            raise ValueError("Dataset.from_tensor_slices: the structure has no tensors")
        n = None
        for t in leaves:
            dims = t.shape.dims
            if dims is not None and not dims:
                raise ValueError(f"Dataset.from_tensor_slices: cannot slice a scalar tensor "
                                 f"({t!r:.80}): every component needs a first dimension")
            first = None if dims is None else dims[0]
            if n is not None and first is not None and first != n:
                raise ValueError(f"Dataset.from_tensor_slices: Dimensions {n} and {first} are "
                                 f"not compatible: every component must have the same first "
                                 f"dimension (the number of elements)")
            n = first if n is None else n
        self._value, self._params, self._n, self._by_rows = value, leaves, n, by_rows
        super().__init__(structure.unbatched_spec(structure.spec_of(value)))

    def _cardinality(self):
        return UNKNOWN_CARDINALITY if self._n is None else self._n

    def _arrays(self, env):
        arrays = [env.value(t) for t in self._params]
        if len({len(a) for a in arrays}) > 1:
            raise InvalidArgumentError("Dataset.from_tensor_slices: the components have "
                                       f"different first dimensions {[len(a) for a in arrays]}")
        return arrays

    def _iterate(self, env):
        if self._by_rows:
            yield from self._rows()
            return
        arrays = self._arrays(env)
        spec = self._spec
        if isinstance(spec, TensorSpec):
            yield from arrays[0]
            return
        for i in range(len(arrays[0])):
            yield structure.pack(spec, [a[i] for a in arrays])

    def _rows(self):
        """Elements sliced leaf by leaf (RaggedTensor and SparseTensor rows)."""
        columns = [composite_rows.rows(t if not isinstance(t, EagerTensor) else t._value)
                   for t in self._params]
        if len({len(c) for c in columns}) > 1:
            raise InvalidArgumentError("Dataset.from_tensor_slices: the components have "
                                       f"different first dimensions {[len(c) for c in columns]}")
        for row in zip(*columns):
            yield structure.pack_leaves(self._spec, list(row))

    def _plan(self, env):
        if self._by_rows:
            return None
        return Plan.all_rows(self._arrays(env), self._spec)


class FromTensors(DatasetNode):
    """A single element: the given structure."""
    _tf_class = "_TensorDataset"   # TensorFlow's repr

    def __init__(self, tensors):
        self._value = structure.normalize(tensors, "Dataset.from_tensors")
        self._params = structure.flatten(self._value)
        super().__init__(structure.spec_of(self._value))

    def _cardinality(self):
        return 1

    def _iterate(self, env):
        yield structure.pack(self._spec, [env.value(t) for t in self._params])


class Range(DatasetNode):
    """`range(start, stop, step)` as int64 scalars (or `output_type`)."""

    def __init__(self, args, output_type):
        if not 1 <= len(args) <= 3:
            raise TypeError(f"Dataset.range takes 1 to 3 positional arguments (start, stop, "
                            f"step), got {len(args)}")
        values = [static_int(a, "each argument", "Dataset.range") for a in args]
        self._range = range(*values)
        self._dtype = dtypes.as_dtype(output_type or dtypes.int64)
        super().__init__(TensorSpec([], self._dtype))

    def _cardinality(self):
        return len(self._range)

    def _iterate(self, env):
        kind = self._dtype.np_dtype.type
        for v in self._range:
            yield kind(v)

    def _plan(self, env):
        column = np.arange(self._range.start, self._range.stop, self._range.step,
                           dtype=self._dtype.np_dtype)
        return Plan.all_rows([column], self._spec)


class FromGenerator(DatasetNode):
    """Elements from calling a Python generator function (again per iteration)."""
    _tf_class = "_FlatMapDataset"   # TensorFlow's repr

    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError(f"Dataset.from_generator: generator must be a callable returning "
                            f"an iterator, got {type(generator).__name__}")
        if output_signature is None:
            if output_types is None:
                raise TypeError("Dataset.from_generator: give output_signature (a structure "
                                "of tf.TensorSpec)")
            shapes = output_shapes
            if shapes is None:
                shapes = _map(lambda _: None, output_types)
            output_signature = _map2(lambda t, s: TensorSpec(s, t), output_types, shapes)
        structure.spec_of(output_signature)          # notes extension type specs
        for s in structure.flatten(output_signature):
            if not isinstance(s, TensorSpec):
                raise TypeError(f"Dataset.from_generator: output_signature must hold "
                                f"tf.TensorSpec leaves, got {type(s).__name__}")
        self._generator, self._args = generator, tuple(args or ())
        super().__init__(output_signature)

    def _iterate(self, env):
        leaves = structure.flatten(self._spec)
        for item in self._generator(*self._args):
            flat = structure.flatten(item) if isinstance(item, (tuple, dict)) or \
                structure.is_extension(item) else [item]
            if len(flat) != len(leaves):
                raise InvalidArgumentError(
                    f"Dataset.from_generator: the generator yielded {item!r:.80}, whose "
                    f"structure does not match output_signature {self._spec!r}")
            yield structure.pack(self._spec, [_checked(v, s) for v, s in zip(flat, leaves)])


def _checked(value, spec):
    array = np.asarray(value, dtype=spec.dtype.np_dtype) if not spec.dtype.is_string else \
        np.asarray(value, dtype=object)
    if not spec.shape.is_compatible_with(TensorShape(array.shape)):
        raise InvalidArgumentError(
            f"Dataset.from_generator: `generator` yielded an element of shape {array.shape} "
            f"where an element of shape {spec.shape} was expected")
    return array if array.ndim else array[()]


def _map(fn, s):
    return structure.pack(s, [fn(x) for x in structure.flatten(s)])


def _map2(fn, a, b):
    """`fn` of each leaf of `a` and the part of `b` at its place: `b` may end
    in shapes where `a` has leaves (output_types=tf.int32, output_shapes=())."""
    leaves = []

    def walk(x, y):
        if isinstance(x, dict):
            for k in sorted(x):
                walk(x[k], y[k])
        elif isinstance(x, (tuple, list)):
            if not isinstance(y, (tuple, list)) or len(x) != len(y):
                raise ValueError(f"Dataset.from_generator: output_shapes {b!r} does not "
                                 f"match the structure of output_types {a!r}")
            for xi, yi in zip(x, y):
                walk(xi, yi)
        else:
            leaves.append(fn(x, y))
    walk(a, b)
    return structure.pack(a, leaves)


class Zip(DatasetNode):
    """Tuples (or the given structure) of elements of several datasets, until
    the shortest ends."""

    def __init__(self, datasets):
        for d in structure.flatten(datasets):
            if not isinstance(d, DatasetNode):
                raise TypeError(f"Dataset.zip: expected datasets, got {type(d).__name__}")
        self._structure = datasets
        self._inputs = tuple(structure.flatten(datasets))
        super().__init__(structure.pack(datasets, [d.element_spec for d in self._inputs]))

    def _cardinality(self):
        cards = [d._cardinality() for d in self._inputs]
        finite = [c for c in cards if c >= 0]
        if finite:
            return min(finite)
        return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in cards else INFINITE_CARDINALITY

    def _iterate(self, env):
        iterators = [d._iterate(env) for d in self._inputs]
        for items in zip(*iterators):
            yield structure.pack(self._structure, list(items))


class Concatenate(DatasetNode):
    """The elements of one dataset, then those of another."""

    def __init__(self, first, second):
        if not isinstance(second, DatasetNode):
            raise TypeError(f"Dataset.concatenate: expected a Dataset, got "
                            f"{type(second).__name__}")
        if not structure.compatible(first.element_spec, second.element_spec):
            raise TypeError(f"Incompatible dataset elements:\n  {first.element_spec!r} vs.\n"
                            f"  {second.element_spec!r}")
        self._inputs = (first, second)
        super().__init__(structure.relaxed(first.element_spec, second.element_spec))

    def _cardinality(self):
        a, b = (d._cardinality() for d in self._inputs)
        if INFINITE_CARDINALITY in (a, b):
            return INFINITE_CARDINALITY
        if UNKNOWN_CARDINALITY in (a, b):
            return UNKNOWN_CARDINALITY
        return a + b

    def _iterate(self, env):
        for d in self._inputs:
            yield from d._iterate(env)
