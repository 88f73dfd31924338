"""One analysis of a call's arguments: the road of a `Function` call.

    values  = call_sig.bind(args, kwargs)        # one value per parameter
    feeds   = []
    key     = signature.call_key(values, feeds)  # the one walk over the values
    concrete = cache.get(key)                    # hit: run concrete._call_flat(feeds)
    call = CallArguments(values, key, feeds)     # miss: everything else, from these
    call.skeleton, call.shapes                   # the key without shapes; leaf shapes
    call.template(names, kinds, shapes)          # the placeholders to trace

A cached call walks its arguments once (`call_key`, which also collects the
feeds). A cache miss keeps that key and those feeds in a `CallArguments` and
derives the rest from them: the *skeleton* (the key with every tensor
shape taken out, which groups traces that differ only in shapes) and the
leaf shapes come from the key itself, without walking the values again; the
template is built once, when a trace is needed.
"""

from runtime._src.core.dtypes import DType
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.function import signature as _sig

__all__ = ["CallArguments", "split_shapes"]


class CallArguments:
    """A call's parameter values with the key and feeds `call_key` made of them."""

    __slots__ = ("values", "key", "feeds", "skeleton", "shapes")

    def __init__(self, values, key, feeds):
        self.values = values
        self.key = key
        self.feeds = feeds
        specs = []
        self.skeleton = split_shapes(key, specs)
        self.shapes = [TensorShape(dims) for dims in specs]

    def template(self, call_sig, shapes, on_dead):
        """The values with tensor leaves as TensorSpecs of `shapes` (the
        call's own, or relaxed ones), named after the parameters."""
        specs = _leaf_dtypes(self.key)
        return _sig.make_template(self.values, call_sig.names,
                                  list(zip(specs, shapes)), on_dead, call_sig.kinds)

    def numeric_feeds(self):
        """The feeds without the Variables (the values of the placeholders)."""
        return _sig.feed_variables(self.feeds)[0]


def _is_tensor_key(k):
    # call_key's tensor entry: (dtype, shape); a TensorSpec's: (dtype, dims or None)
    return type(k) is tuple and len(k) == 2 and type(k[0]) is DType


def _is_composite_of_key(k):
    # call_key's entry of a composite value (a SparseTensor): ("composite_of", spec)
    return type(k) is tuple and len(k) == 2 and k[0] == "composite_of"


def split_shapes(key, specs):
    """The key with each tensor entry's shape replaced by a marker; the shapes
    are appended to `specs` in leaf order (the order of the feeds). A
    composite contributes its spec's shapes (so reduce_retracing relaxes a
    SparseTensor's dense shape as a tensor's shape)."""
    if _is_tensor_key(key):
        specs.append(key[1])
        return (key[0], _sig.ANY_SHAPE)
    if _is_composite_of_key(key):            # the spec's shapes (a SparseTensor's dense shape)
        specs.extend(s.dims for s in _sig.spec_shapes(key[1]))
        return ("composite_of", _sig.spec_skeleton(key[1]))
    if type(key) is tuple and key and key[0] != "variable":
        return tuple([split_shapes(k, specs) for k in key])
    return key


def _leaf_dtypes(key):
    out = []
    _collect_dtypes(key, out)
    return out


def _collect_dtypes(key, out):
    if _is_tensor_key(key):
        out.append(key[0])
    elif _is_composite_of_key(key):
        out.extend(None for _ in _sig.spec_shapes(key[1]))
    elif type(key) is tuple and key and key[0] != "variable":
        for k in key:
            _collect_dtypes(k, out)
