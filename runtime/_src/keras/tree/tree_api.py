"""`keras.tree`: Keras 3's nested-structure utilities.

    flatten({"b": 2, "a": (1, [3])})              # [1, 3, 2]: dict keys sorted
    flatten_with_path({"a": [5]})                # [(("a", 0), 5)]
    map_structure(lambda a, b: a + b, [1, (2,)], [10, (20,)])    # [11, (22,)]
    traverse(fn, structure, top_down=True)       # fn on every subtree
    lists_to_tuples([1, [2]])                    # (1, (2,))

The nodes are lists, tuples, namedtuples, deques and dicts (OrderedDict and
defaultdict too); everything else, None included, is a leaf. A dict's
children go in sorted-key order, an OrderedDict's in its own order, and a
rebuilt dict keeps the key order of the one it copies. Unlike `tf.nest`
(runtime/_src/core/nest.py), the structure checks compare node types
strictly (a list never matches a tuple) and the errors are Keras's words.
"""

import collections

__all__ = ["MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten",
           "flatten_with_path", "is_nested", "lists_to_tuples", "map_shape_structure",
           "map_structure", "map_structure_up_to", "pack_sequence_as", "traverse"]


class MAP_TO_NONE:  # noqa: N801 - Keras's name
    """Returned by a `traverse` function to put None in place of a subtree."""


def is_nested(structure):
    """True for a list, tuple, namedtuple, deque or dict (of any kind)."""
    return isinstance(structure, (list, tuple, dict, collections.deque))


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _keys(node):
    """The child keys of a node, in flattening order."""
    if isinstance(node, dict):
        if isinstance(node, collections.OrderedDict):
            return list(node)
        try:
            return sorted(node)
        except TypeError:
            raise ValueError(f"keras.tree: the keys of {node!r} cannot be sorted; a dict's "
                             "keys must be comparable to flatten it") from None
    return list(range(len(node)))


def _children(node):
    if isinstance(node, dict):
        return [node[k] for k in _keys(node)]
    return list(node)


def _rebuild(node, values):
    """A node like `node` holding `values` (in flattening order)."""
    if isinstance(node, dict):
        by_key = dict(zip(_keys(node), values))
        pairs = [(k, by_key[k]) for k in node]
        if isinstance(node, collections.defaultdict):
            return collections.defaultdict(node.default_factory, pairs)
        return type(node)(pairs) if type(node) in (dict, collections.OrderedDict) \
            else dict(pairs)
    if _is_namedtuple(node):
        return type(node)(*values)
    if isinstance(node, collections.deque):
        return collections.deque(values, maxlen=node.maxlen)
    return list(values) if isinstance(node, list) else tuple(values)


def flatten(structure):
    """The leaves of `structure`, depth first (a dict's in sorted-key order)."""
    if not is_nested(structure):
        return [structure]
    out = []
    for child in _children(structure):
        out.extend(flatten(child))
    return out


def flatten_with_path(structure):
    """[(path, leaf)]: each path a tuple of indices and keys from the root."""
    if not is_nested(structure):
        return [((), structure)]
    out = []
    for key, child in zip(_keys(structure), _children(structure)):
        out.extend(((key,) + path, leaf) for path, leaf in flatten_with_path(child))
    return out


def _kind(node):
    if _is_namedtuple(node):
        return "collections.namedtuple"
    if isinstance(node, collections.deque):
        return "collections.deque"
    if isinstance(node, dict):
        return "dict"
    return type(node).__name__


def _check_node(expected, got):
    """ValueError, in Keras's words, unless `got` is a node like `expected`."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            raise ValueError(f"Expected an instance of dict, got {got!r}.")
        if set(expected) != set(got):
            want, have = sorted(expected, key=repr), sorted(got, key=repr)
            missing = [k for k in want if k not in got]
            extra = [k for k in have if k not in expected]
            raise ValueError(f"dictionary key mismatch; expected key(s): {want}, got key(s): "
                             f"{have}, missing key(s): {missing}, extra key(s): {extra}; "
                             f"dict: {got!r}.")
        return
    same = type(got) is type(expected) if _is_namedtuple(expected) or _is_namedtuple(got) \
        else (is_nested(got) and _kind(got) == _kind(expected))
    if not same:
        raise ValueError(f"Expected an instance of {_kind(expected)}, got {got!r}.")
    if len(got) != len(expected):
        raise ValueError(f"{_kind(expected)} arity mismatch; expected: {len(expected)}, "
                         f"got: {len(got)}; {_kind(expected)}: {got!r}.")


def _up_to(shallow, structure, keep_none=True):
    """The subtrees of `structure` at the leaves of `shallow` (checked)."""
    if not is_nested(shallow):
        return [structure]
    _check_node(shallow, structure)
    got = _children(structure) if not isinstance(shallow, dict) else \
        [structure[k] for k in _keys(shallow)]
    out = []
    for s, child in zip(_children(shallow), got):
        out.extend(_up_to(s, child, keep_none))
    return out


def assert_same_structure(a, b, check_types=None):
    """ValueError unless `a` and `b` have the same nodes (types, lengths, keys)."""
    for part in _up_to(a, b):
        if is_nested(part):
            raise ValueError("Structures don't have the same nested structure.")


def assert_same_paths(a, b):
    """ValueError unless `a` and `b` have the same leaf paths (node types aside)."""
    a_paths = {p for p, _ in flatten_with_path(a)}
    b_paths = {p for p, _ in flatten_with_path(b)}
    if a_paths == b_paths:
        return
    message = "`a` and `b` don't have the same paths."
    if a_paths - b_paths:
        message += f"\nPaths in `a` missing in `b`:\n{a_paths - b_paths}"
    if b_paths - a_paths:
        message += f"\nPaths in `b` missing in `a`:\n{b_paths - a_paths}"
    raise ValueError(message)


def pack_sequence_as(structure, flat_sequence):
    """The leaves of `flat_sequence` placed in the layout of `structure`."""
    try:
        leaves = list(flat_sequence)
    except TypeError:
        raise TypeError(f"pack_sequence_as: flat_sequence must be a list of leaves; got "
                        f"{flat_sequence!r}") from None
    expected = len(flatten(structure))
    if len(leaves) < expected:
        raise ValueError(f"Too few leaves for PyTreeSpec; expected: {expected}, "
                         f"got: {len(leaves)}.")
    if len(leaves) > expected:
        raise ValueError(f"Too many leaves for PyTreeSpec; expected: {expected}.")
    it = iter(leaves)

    def fill(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [fill(c) for c in _children(node)])
    return fill(structure)


def map_structure(func, *structures, none_is_leaf=True):
    """`func` over the leaves of `structures` (all of the same layout), in the
    first one's layout; with `none_is_leaf=False` a None stays None."""
    if not callable(func):
        raise TypeError(f"map_structure: func must be callable; got {func!r}")
    if not structures:
        raise ValueError("Must provide at least one structure")
    first = structures[0]
    columns = [flatten(first)]
    for other in structures[1:]:
        parts = _up_to(first, other)
        if any(is_nested(p) for p in parts):
            raise ValueError("Structures don't have the same nested structure.")
        columns.append(parts)
    results = [None if (not none_is_leaf and args[0] is None) else func(*args)
               for args in zip(*columns)]
    return pack_sequence_as(first, results)


def map_structure_up_to(shallow_structure, func, *structures):
    """`func` over the subtrees of `structures` found at the leaves of
    `shallow_structure`, in its layout (deeper parts are passed whole)."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    columns = [_up_to(shallow_structure, s) for s in structures]
    return pack_sequence_as(shallow_structure, [func(*args) for args in zip(*columns)])


def traverse(func, structure, top_down=True):
    """`func` on every subtree. Top-down, a non-None result replaces the
    subtree without visiting its children; bottom-up, `func` sees the subtree
    with its children already replaced and a non-None result replaces it.
    `MAP_TO_NONE` as a result puts None there."""
    def children():
        if not is_nested(structure):
            return structure
        return _rebuild(structure, [traverse(func, c, top_down) for c in
                                    _children(structure)])
    if top_down:
        result = func(structure)
        if result is None:
            return children()
    else:
        done = children()
        result = func(done)
        if result is None:
            return done
    return None if result is MAP_TO_NONE else result


def lists_to_tuples(structure):
    """`structure` with every list turned into a tuple."""
    return traverse(lambda node: tuple(node) if isinstance(node, list) else None,
                    structure, top_down=False)


def _is_shape(value):
    return isinstance(value, (list, tuple)) and all(
        isinstance(e, (int, type(None))) for e in value)


def map_shape_structure(func, structure):
    """`func` over the shapes in `structure`: lists and tuples of ints and Nones
    are passed whole, as leaves."""
    if _is_shape(structure) or not is_nested(structure):
        return func(structure)
    return _rebuild(structure, [map_shape_structure(func, c) for c in _children(structure)])
