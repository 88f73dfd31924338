"""Elements of datasets: nested structures (tuples, dicts, namedtuples) of
numpy values, and their specs.

    element = (np.array([1, 2]), {"y": np.int64(3)})
    spec_of(element)   # (TensorSpec((2,), int64), {'y': TensorSpec((), int64)})

Inside a pipeline elements stay numpy (no tensor objects per element); the
user sees EagerTensors (`to_tensors`) or numpy (`as_numpy_iterator`). A list
given to a source is one tensor, as in TensorFlow; tuples and dicts are
structure.

An extension type value (core/composite.py's protocol) is an element or part
of one: `flatten` gives its component tensors (of a spec: their TensorSpecs)
and `pack` rebuilds it from them with its spec, so the pipeline carries only
numpy components. These checks run only once an extension type has entered a
dataset (`_EXTENSIONS_SEEN`).
"""

import collections

import numpy as np

from runtime._src.core import nest
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import EagerTensor, Tensor, convert_to_tensor, wrap_numpy
from runtime._src.core.tensor import TensorSpec
from runtime._src.core.protocols import reads_as_tensor
from runtime._src.data import composite_rows
from runtime._src.extension.extension_type import ExtensionType, ExtensionTypeSpec
from runtime._src.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from runtime._src.sparse.sparse_tensor import SparseTensor, SparseTensorSpec

__all__ = [
    "batched_spec",
    "compatible",
    "flatten",
    "normalize",
    "pack",
    "relaxed",
    "same_structure",
    "spec_of",
    "spec_text",
    "to_numpy",
    "to_tensors",
    "unbatched_spec",
    "has_extensions",
    "has_row_composites",
    "is_extension",
    "note",
    "pack_leaves",
    "row_leaves",
]

_EXTENSIONS_SEEN = []          # non-empty once an extension type value entered a dataset


# The composite values a dataset carries as their components: extension types,
# RaggedTensors and SparseTensors (the last two slice and batch by rows:
# composite_rows.py).
_COMPOSITES = (ExtensionType, RaggedTensor, SparseTensor)
_COMPOSITE_SPECS = (ExtensionTypeSpec, RaggedTensorSpec, SparseTensorSpec)


def is_extension(v):
    return isinstance(v, _COMPOSITES + _COMPOSITE_SPECS)


def note(value):
    """Record that a structure holds composite values (flatten then expands them)."""
    _note(value)


def has_extensions(spec):
    """True when a spec structure holds extension type specs."""
    return bool(_EXTENSIONS_SEEN) and any(is_extension(v) for v in nest.flatten(spec))


def _note(value):
    if not _EXTENSIONS_SEEN and any(is_extension(v) for v in nest.flatten(value)):
        _EXTENSIONS_SEEN.append(True)


def _flatten_extensions(structure):
    out = []
    for leaf in nest.flatten(structure):
        if isinstance(leaf, _COMPOSITE_SPECS):
            out.extend(leaf._component_specs)
        elif isinstance(leaf, ExtensionType):
            out.extend(leaf._type_spec._to_components(leaf))
        elif isinstance(leaf, (RaggedTensor, SparseTensor)):
            out.extend(c._value if isinstance(c, EagerTensor) else c
                       for c in leaf._type_spec._to_components(leaf))
        else:
            out.append(leaf)
    return out


def _pack_extensions(spec, flat):
    it = iter(flat)
    leaves = []
    for leaf in nest.flatten(spec):
        if isinstance(leaf, ExtensionTypeSpec):
            leaves.append(leaf._from_components([next(it) for _ in leaf._component_specs]))
        elif isinstance(leaf, composite_rows.ROW_SPECS):
            parts = [next(it) for _ in leaf._component_specs]
            if isinstance(leaf, RaggedTensorSpec) and leaf.ragged_rank == 0:
                leaves.append(parts[0])              # a row of a 2-D RaggedTensor: dense
            else:
                leaves.append(leaf._from_components(
                    [wrap_numpy(np.asarray(c)) if not isinstance(c, Tensor) else c
                     for c in parts]))
        else:
            leaves.append(next(it))
    if not isinstance(spec, (tuple, list, dict)):
        return leaves[0]
    return nest.pack_sequence_as(spec, leaves)


def flatten(structure):
    if _EXTENSIONS_SEEN:
        return _flatten_extensions(structure)
    if type(structure) is tuple and not any(type(v) in _NESTED for v in structure):
        return list(structure)          # the common (x, y) element, without nest's walk
    if type(structure) not in _NESTED and not isinstance(structure, (tuple, list, dict)):
        return [structure]
    return nest.flatten(structure)


def pack(structure, flat):
    if _EXTENSIONS_SEEN:
        return _pack_extensions(structure, flat)
    if type(structure) is tuple and not any(type(v) in _NESTED for v in structure):
        return tuple(flat) if len(flat) == len(structure) else nest.pack_sequence_as(
            structure, flat)
    if type(structure) not in _NESTED and not isinstance(structure, (tuple, list, dict)):
        if len(flat) != 1:
            return nest.pack_sequence_as(structure, flat)    # its error
        return flat[0]
    return nest.pack_sequence_as(structure, flat)


_NESTED = (tuple, list, dict, collections.OrderedDict)


def _is_structure(value):
    return isinstance(value, (tuple, dict))


def normalize(value, what):
    """`value` with every leaf a tensor: a list, number or array becomes one
    (eager values as EagerTensors, symbolic ones kept). `what` names the op
    in errors."""
    if isinstance(value, dict):
        return type(value)((k, normalize(v, what)) for k, v in value.items())
    if isinstance(value, _COMPOSITES):
        _note(value)
        return value
    if isinstance(value, tuple):
        items = [normalize(v, what) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if reads_as_tensor(value) and not isinstance(value, Tensor):
        value = value._as_tensor()
    if isinstance(value, Tensor):
        return value
    try:
        with init_scope():          # a Python value stays eager inside a trace
            return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{what}: cannot make a tensor of {type(value).__name__} "
                        f"{value!r:.80}: {e}") from None


def spec_of(structure):
    """The element_spec of a structure of tensors (or numpy values)."""
    return nest.map_structure(_leaf_spec, structure)


def _leaf_spec(v):
    if isinstance(v, TensorSpec):
        return v
    if is_extension(v):
        _note(v)
        return v if isinstance(v, _COMPOSITE_SPECS) else v._type_spec
    if isinstance(v, Tensor):
        return TensorSpec(v.shape, v.dtype)
    t = convert_to_tensor(v)
    return TensorSpec(t.shape, t.dtype)


def to_tensors(element):
    """An element (numpy leaves) as the user sees it: EagerTensors."""
    if isinstance(element, (np.ndarray, np.generic)):
        return wrap_numpy(element)
    if isinstance(element, bytes):
        return _wrap(element)
    if type(element) is tuple:
        return tuple([wrap_numpy(v) if type(v) is np.ndarray else
                      (to_tensors(v) if type(v) in _NESTED else _wrap(v)) for v in element])
    return nest.map_structure(_wrap, element)


def _wrap(v):
    if isinstance(v, (Tensor, RaggedTensor, SparseTensor)) or hasattr(v, "_iterate"):
        return v                    # a tensor, a row composite, or a window's dataset
    if isinstance(v, ExtensionType):
        spec = v._type_spec
        return spec._from_components([_wrap(c) for c in spec._to_components(v)])
    if not isinstance(v, (np.ndarray, np.generic)):
        v = np.array(v, dtype=object)        # a string element (bytes)
    return wrap_numpy(v)


def to_numpy(element):
    """An element with numpy leaves (what `as_numpy_iterator` yields)."""
    return nest.map_structure(_np, element)


def _np(v):
    if isinstance(v, (RaggedTensor, SparseTensor)):
        return composite_rows.to_numpy(v)
    if isinstance(v, EagerTensor):
        v = v._value
    if isinstance(v, np.ndarray) and v.dtype == object:
        return v                    # strings stay object arrays of bytes
    return v


def relaxed(a, b):
    """The most specific spec compatible with both specs `a` and `b`."""
    return nest.map_structure(
        lambda x, y: TensorSpec(x.shape.most_specific_compatible_shape(y.shape), x.dtype),
        a, b)


def batched_spec(spec, size):
    """`spec` with a leading dimension `size` (None when unknown)."""
    def one(s):
        if isinstance(s, ExtensionTypeSpec):
            return _batchable(s)._batch(size)
        if composite_rows.is_row_spec(s):
            return composite_rows.batched_row_spec(s, size)
        dims = s.shape.dims
        return TensorSpec(None if dims is None else [size] + list(dims), s.dtype)
    return nest.map_structure(one, spec)


def _batchable(s):
    if not hasattr(s, "_batch"):            # TF's words (only BatchableExtensionTypes batch)
        raise AttributeError(f"'{type(s).__name__}' object has no attribute '_batch'")
    return s


def unbatched_spec(spec):
    """`spec` without its leading dimension (each element of a batch)."""
    def one(s):
        if isinstance(s, ExtensionTypeSpec):
            return _batchable(s)._unbatch()
        if composite_rows.is_row_spec(s):
            return composite_rows.unbatched_row_spec(s)
        return TensorSpec(None if s.shape.dims is None else s.shape.dims[1:], s.dtype)
    return nest.map_structure(one, spec)


def spec_text(spec):
    return repr(spec)


def same_structure(a, b):
    try:
        nest.assert_same_structure(a, b)
    except (TypeError, ValueError):
        return False
    return True


def compatible(a, b):
    """True when specs `a` and `b` have one structure and the same dtypes."""
    return same_structure(a, b) and all(
        x.dtype == y.dtype for x, y in zip(flatten(a), flatten(b)))


def has_row_composites(spec):
    """True when a spec structure holds RaggedTensorSpecs or SparseTensorSpecs,
    which slice and batch by rows (composite_rows.py)."""
    return bool(_EXTENSIONS_SEEN) and any(composite_rows.is_row_spec(v)
                                          for v in nest.flatten(spec))


def row_leaves(structure):
    """The leaves of an element or spec, composite values as single leaves."""
    return nest.flatten(structure)


def pack_leaves(spec, leaves):
    """An element from its leaves (composite values as single leaves)."""
    if not isinstance(spec, (tuple, list, dict)):
        return leaves[0]
    return nest.pack_sequence_as(spec, leaves)
