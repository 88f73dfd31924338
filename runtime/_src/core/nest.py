"""Nested structures (`tf.nest`): lists, tuples, namedtuples and dicts of leaves.

Dicts flatten in sorted-key order, as TensorFlow does; `None` is a leaf.
With `expand_composites=True`, a composite value (a SparseTensor, a
RaggedTensor: see core/composite.py) is its component tensors.

    >>> flatten({"b": 2, "a": (1, [3])})
    [1, 3, 2]
    >>> pack_sequence_as(((0, 0), 0), [1, 2, 3])
    ((1, 2), 3)
"""

from runtime._src.core.composite import type_spec_of

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure",
           "is_nested"]


_NESTED = (list, tuple, dict)


def is_nested(value):
    return isinstance(value, _NESTED)


def _children(value):
    if isinstance(value, dict):
        return [value[k] for k in _sorted_keys(value)]
    return list(value)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def flatten(structure, expand_composites=False):
    """The leaves of `structure`, depth first, left to right."""
    if expand_composites:
        return _flatten_expanded(structure)
    if not isinstance(structure, _NESTED):        # is_nested, in line (here and below)
        return [structure]
    if is_flat(structure):
        return list(structure)        # the commonest structure: its items are the leaves
    out = []
    stack = [structure]
    while stack:
        v = stack.pop()
        if isinstance(v, _NESTED):
            stack.extend(reversed(_children(v)))
        else:
            out.append(v)
    return out


def is_flat(structure):
    """True for a plain tuple or list none of whose items is nested: its
    items are its leaves (`flatten` gives them as a list, and
    `pack_sequence_as` rebuilds it as `type(structure)(leaves)`)."""
    if structure.__class__ is not tuple and structure.__class__ is not list:
        return False
    for v in structure:
        if isinstance(v, _NESTED):
            return False
    return True


def _flatten_expanded(structure):
    out = []
    for leaf in flatten(structure):
        spec = type_spec_of(leaf)
        if spec is None:
            out.append(leaf)
        else:
            out.extend(_flatten_expanded(spec._to_components(leaf)))
    return out


def _rebuild(template, children):
    if isinstance(template, dict):
        return type(template)((k, c) for k, c in zip(_sorted_keys(template), children))
    if isinstance(template, tuple) and hasattr(template, "_fields"):
        return type(template)(*children)
    return type(template)(children)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """A structure shaped like `structure` with leaves from `flat_sequence`."""
    flat_sequence = list(flat_sequence)
    if expand_composites:
        return _pack_expanded(structure, flat_sequence)
    n = len(flatten(structure))
    if n != len(flat_sequence):
        raise ValueError(f"Structure had {n} elements, but flat_sequence had "
                         f"{len(flat_sequence)} elements. Structure: {structure!r}")
    if is_flat(structure):
        return structure.__class__(flat_sequence)     # what `build` below makes of it
    it = iter(flat_sequence)

    def build(s):
        if not isinstance(s, _NESTED):
            return next(it)
        return _rebuild(s, [build(c) for c in _children(s)])

    return build(structure)


def _pack_expanded(structure, flat):
    n = len(_flatten_expanded(structure))
    if n != len(flat):
        raise ValueError(f"Structure had {n} elements, but flat_sequence had {len(flat)} "
                         f"elements. Structure: {structure!r}")
    it = iter(flat)

    def build(leaf):
        spec = type_spec_of(leaf)
        if spec is None:
            return next(it)
        parts = spec._to_components(leaf)
        return spec._from_components([build(p) for p in parts])

    return pack_sequence_as(structure, [build(leaf) for leaf in flatten(structure)])


def assert_same_structure(a, b, check_types=True, expand_composites=False):
    """Raise ValueError (or TypeError for differing types) when shapes differ.
    With expand_composites, composite leaves must be composites of one kind
    and rank (a SparseTensor and a tensor differ)."""
    if expand_composites:
        _assert_same_composites(a, b)
    if is_nested(a) != is_nested(b):
        raise ValueError(f"The two structures don't have the same nested structure: "
                         f"{a!r} and {b!r}")
    if not is_nested(a):
        return
    if check_types and type(a) is not type(b) and not (
            isinstance(a, list) and isinstance(b, list)):
        raise TypeError(f"The two structures don't have the same sequence type: "
                        f"{type(a).__name__} and {type(b).__name__}")
    if isinstance(a, dict) and _sorted_keys(a) != _sorted_keys(b):
        raise ValueError(f"The two dictionaries don't have the same set of keys: "
                         f"{_sorted_keys(a)} and {_sorted_keys(b)}")
    ca, cb = _children(a), _children(b)
    if len(ca) != len(cb):
        raise ValueError(f"The two structures don't have the same number of elements: "
                         f"{a!r} ({len(ca)}) and {b!r} ({len(cb)})")
    for x, y in zip(ca, cb):
        assert_same_structure(x, y, check_types)


def _assert_same_composites(a, b):
    assert_same_structure(a, b)
    for x, y in zip(flatten(a), flatten(b)):
        sx, sy = type_spec_of(x), type_spec_of(y)
        if sx is None and sy is None:
            continue
        if sx is None or sy is None or type(sx) is not type(sy) or \
                len(sx._component_specs) != len(sy._component_specs):
            raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                             f"First structure: type={type(x).__name__} str={x!r:.80}\n\n"
                             f"Second structure: type={type(y).__name__} str={y!r:.80}")


def map_structure(func, *structures, expand_composites=False):
    """Apply `func` to corresponding leaves; the result has the first's shape."""
    if not structures:
        raise ValueError("map_structure needs at least one structure")
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(structures[0], [func(*leaves) for leaves in zip(*flats)],
                            expand_composites)
