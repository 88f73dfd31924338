"""Tensor contractions: `einsum` (the `Einsum` op) and `tensordot` (an einsum
whose equation is built from `axes`).

    >>> einsum("ij,jk->ik", ones([2, 3]), ones([3, 4])).shape
    TensorShape([2, 4])

Equations follow TF: letters label dimensions, `...` stands for broadcast
leading dimensions, no `->` means the output is the labels used once, in
alphabetical order. Unlike numpy, a labelled dimension never broadcasts: every
dimension with one label has one size.
"""

import string

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op
from runtime._src.graph.op_registry import define_grad  # gradients
from runtime._src.ops.array_ops import fill, range as _range, reshape, shape as _shape
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.manipulation_ops import convert_all
from runtime._src.ops.math_ops import cast, equal
from runtime._src.ops.shape_ops import kernel_error, op_error

__all__ = ["einsum", "tensordot"]

_EINSUM_DTYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)


def parse_equation(equation, count):
    """(input subscripts, output subscripts) with `...` kept, the output made explicit."""
    if not isinstance(equation, str):
        raise TypeError(f"einsum: equation must be a string, got {equation!r}")
    eq = "".join(equation.split())
    lhs, arrow, rhs = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) != count:
        raise ValueError(f'Got {count} inputs for equation "{equation}", expecting '
                         f"{len(inputs)}")
    for sub in inputs + ([rhs] if arrow else []):
        rest = sub.replace("...", "", 1)
        if any(c not in string.ascii_letters for c in rest):
            raise ValueError(f'einsum: invalid subscripts "{sub}" in equation "{equation}": '
                             "only letters and one ellipsis (...) are allowed")
    labels = [c for sub in inputs for c in sub.replace("...", "")]
    if not arrow:
        once = sorted(c for c in set(labels) if labels.count(c) == 1)
        rhs = ("..." if any("..." in s for s in inputs) else "") + "".join(once)
    for c in rhs.replace("...", ""):
        if c not in labels:
            raise ValueError(f"Output subscripts contain the label {c} not present in the "
                             "input subscripts.")
        if rhs.count(c) > 1:
            raise ValueError(f"Output subscripts contain the label {c} more than once.")
    return inputs, rhs


def _split_dims(sub, dims, error):
    """(labelled dims as {label: size}, ellipsis dims) of one operand."""
    letters = sub.replace("...", "")
    if dims is None:
        return None, None
    if ("..." in sub and len(letters) > len(dims)) or ("..." not in sub
                                                        and len(letters) != len(dims)):
        raise error(f"Input subscripts {sub} do not match the rank {len(dims)} of the input "
                    f"shaped [{','.join('?' if d is None else str(d) for d in dims)}]")
    if "..." in sub:
        head = sub.index("...")
        n_ell = len(dims) - len(letters)
        ell = list(dims[head:head + n_ell])
        dims = list(dims[:head]) + list(dims[head + n_ell:])
    else:
        ell = []
    return list(zip(letters, dims)), ell


def _label_sizes(inputs, shapes, error):
    """{label: size} over all operands and the broadcast ellipsis shape (or None)."""
    sizes, ellipsis = {}, TensorShape([])
    for sub, dims in zip(inputs, shapes):
        pairs, ell = _split_dims(sub, dims, error)
        if pairs is None:
            ellipsis = None if "..." in sub else ellipsis
            continue
        for label, d in pairs:
            known = sizes.get(label)
            if known is not None and d is not None and known != d:
                raise error(f"Expected dimension {known} for label {label} but got dimension "
                            f"{d} in the input shaped "
                            f"[{','.join('?' if x is None else str(x) for x in dims)}]")
            if known is None:
                sizes[label] = d
        if ellipsis is not None:
            try:
                ellipsis = rules.broadcast_shapes(ellipsis, TensorShape(ell))
            except ValueError as e:
                raise error(f"ellipsis dimensions do not broadcast: {e}") from None
    return sizes, ellipsis


def _infer_einsum(inputs, attrs):
    for t in inputs[1:]:
        rules.check_same_dtype(inputs[0], t)
    if inputs[0].dtype not in _EINSUM_DTYPES:
        raise TypeError(f"inputs must be float16, float32, float64, int32 or int64, got "
                        f"{inputs[0].dtype.name}")
    subs, rhs = parse_equation(attrs["equation"], len(inputs))
    shapes = [t.shape.dims for t in inputs]
    sizes, ellipsis = _label_sizes(subs, shapes, ValueError)
    if "..." in rhs and (ellipsis is None or ellipsis.dims is None):
        return [(inputs[0].dtype, TensorShape(None))]
    head = rhs.index("...") if "..." in rhs else len(rhs)
    letters = rhs.replace("...", "")
    out = [sizes.get(c) for c in letters[:head]]
    if "..." in rhs:
        out += list(ellipsis.dims)
    out += [sizes.get(c) for c in letters[head:]]
    return [(inputs[0].dtype, TensorShape(out))]


@define_op("Einsum", infer=_infer_einsum)
def _einsum(*operands, equation):
    subs, rhs = parse_equation(equation, len(operands))
    _label_sizes(subs, [np.shape(x) for x in operands], kernel_error("Einsum"))
    out = np.einsum(",".join(subs) + "->" + rhs, *operands)
    return np.asarray(out, dtype=operands[0].dtype)


@define_grad("Einsum")
def _einsum_grad(op, grad):
    # Each operand's gradient is an einsum of the output gradient with the other
    # operands, into the operand's subscripts. An ellipsis is first spelled out
    # as letters; a label only this operand has comes back through a ones
    # vector, and a label it repeats (a diagonal) through an identity matrix.
    subs, rhs = _explicit(op.inputs, *parse_equation(op.attrs["equation"], len(op.inputs)))
    spare = iter(c for c in string.ascii_letters if c not in "".join(subs))
    grads = []
    for i, s in enumerate(subs):
        others = [j for j in range(len(subs)) if j != i]
        present = set(rhs).union(*(subs[j] for j in others))
        terms, operands, out = [rhs] + [subs[j] for j in others], [grad], ""
        operands += [op.inputs[j] for j in others]
        for position, c in enumerate(s):
            n = _dim(op.inputs[i], position)
            if c in out:                     # again: a fresh label on the diagonal
                fresh = next(spare)
                terms.append(c + fresh)
                operands.append(_identity(n, grad.dtype))
                c = fresh
            elif c not in present:           # summed away in the forward op
                terms.append(c)
                operands.append(fill(reshape(n, [1]), convert_to_tensor(1, grad.dtype)))
            out += c
        equation = ",".join(terms) + "->" + out
        grads.append(apply("Einsum", tuple(operands), {"equation": equation}))
    return grads


def _explicit(inputs, subs, rhs):
    """The subscripts with each ellipsis spelled out as letters (right-aligned, as
    it broadcasts); an operand's dimension of size 1 that broadcasts against a
    larger one gets a letter of its own."""
    if "..." not in rhs and not any("..." in s for s in subs):
        return subs, rhs
    ranks = [t.shape.rank for t in inputs]
    if None in ranks:
        raise LookupError("No gradient defined for operation 'Einsum' with an ellipsis over "
                          "inputs of unknown rank")
    counts = [r - len(s.replace("...", "")) if "..." in s else 0 for s, r in zip(subs, ranks)]
    width = max(counts)
    used = set("".join(subs) + rhs)
    spare = iter(c for c in string.ascii_letters if c not in used)
    shared = [next(spare) for _ in range(width)]
    sizes = [1] * width
    for s, t, k in zip(subs, inputs, counts):
        head = s.index("...") if "..." in s else 0
        for e in range(k):
            d = t.shape.dims[head + e]
            sizes[width - k + e] = max(sizes[width - k + e], 1 if d is None else d)
    spelled = []
    for s, t, k in zip(subs, inputs, counts):
        head = s.index("...") if "..." in s else 0
        letters = ""
        for e in range(k):
            broadcast = t.shape.dims[head + e] == 1 and sizes[width - k + e] > 1
            letters += next(spare) if broadcast else shared[width - k + e]
        spelled.append(s.replace("...", letters))
    return spelled, rhs.replace("...", "".join(shared))


def _dim(x, axis):
    """x's size along `axis`: an int when known while tracing, else a scalar tensor."""
    d = x.shape.dims[axis] if x.shape.dims is not None else None
    return d if d is not None else _shape(x)[axis]


def _identity(n, dtype):
    """The n x n identity matrix of `dtype` (n an int or a scalar int tensor)."""
    positions = _range(0, n, 1)
    return cast(equal(reshape(positions, [-1, 1]), reshape(positions, [1, -1])), dtype)


def einsum(equation, *inputs, **kwargs):
    """The contraction `equation` ("ij,jk->ik") of `inputs` (same dtype)."""
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}")
    if not inputs:
        parse_equation(equation, 0)
    tensors = [convert_to_tensor(t) for t in inputs]
    for t in tensors[1:]:
        if t.dtype != tensors[0].dtype:
            raise op_error("Einsum", f"all inputs must have the same dtype, got "
                                     f"{tensors[0].dtype.name} and {t.dtype.name}")
    if tensors and tensors[0].dtype not in _EINSUM_DTYPES:
        raise TypeError(f"Einsum: inputs must be float16, float32, float64, int32 or int64, "
                        f"got {tensors[0].dtype.name}")
    parse_equation(equation, len(tensors))
    return apply("Einsum", tuple(tensors), {"equation": equation})


def tensordot(a, b, axes, name=None):
    """Sum of products of `a` and `b` over `axes`: an int n (a's last n dims with
    b's first n) or a pair of lists ([a's axes], [b's axes])."""
    a, b = convert_all([a, b], "Tensordot")
    ra, rb = a.shape.rank, b.shape.rank
    if ra is None or rb is None:
        raise ValueError("tensordot: the ranks of a and b must be known, got shapes "
                         f"{a.shape} and {b.shape}")
    if isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an int or have length 2. Received {axes}.")
        a_axes = rules.static_ints(axes[0], "Tensordot", "axes[0]")
        b_axes = rules.static_ints(axes[1], "Tensordot", "axes[1]")
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes `a` and `b`, "
                             f"{len(a_axes)} != {len(b_axes)}.")
    else:
        n = rules.static_int(axes, "Tensordot", "axes")
        if n < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {n}.")
        for t, r in ((a, ra), (b, rb)):
            if n > r:
                raise ValueError(f"`axes` must not be larger than the number of dimensions of "
                                 f"tensor {t}.  Received {n}, vs tensor dimensions {r}.")
        a_axes, b_axes = tuple(range(ra - n, ra)), tuple(range(n))
    a_axes = [rules.normalize_axis(x, ra, "axes") for x in a_axes]
    b_axes = [rules.normalize_axis(x, rb, "axes") for x in b_axes]
    letters = iter(string.ascii_letters)
    sa = [next(letters) for _ in range(ra)]
    sb = [next(letters) for _ in range(rb)]
    for i, j in zip(a_axes, b_axes):
        sb[j] = sa[i]
    out = [c for i, c in enumerate(sa) if i not in a_axes] + [
        c for j, c in enumerate(sb) if j not in b_axes]
    return einsum(f"{''.join(sa)},{''.join(sb)}->{''.join(out)}", a, b)
