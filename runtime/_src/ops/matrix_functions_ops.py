"""Matrix functions: `tf.linalg.expm`, `sqrtm` and `logm`, on the last two
dimensions, batching over the leading ones.

- `expm`: scaling and squaring with the degree-13 Pade approximant (Higham
  2005: scale A by 2^-s until its 1-norm is below 5.37, solve (V - U) R = V + U,
  square s times), in float64. Its gradient is the Frechet derivative at A^T,
  read off the top-right block of expm([[A^T, G], [0, A^T]]) (Mathias 1996),
  itself an `expm`, so it has gradients too.
- `sqrtm`: symmetric matrices through `eigh`; others by the Denman-Beavers
  iteration with determinant scaling. Its gradient solves the Sylvester
  equation S^T X + X S^T = G (S = sqrtm(A)) in S's eigenbasis.
- `logm` (complex matrices only, as TF): V diag(log w) V^-1 from `eig`.

    expm(constant([[0.0, 1.0], [-1.0, 0.0]]))   # [[cos 1, sin 1], [-sin 1, cos 1]]
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.graph.op_registry import apply, define_grad, define_op, not_differentiable
from runtime._src.ops.base_ops import FLOATS, dtype_error
from runtime._src.ops.linalg_ops import _matrix_rule, _same
from runtime._src.ops.manipulation_ops import concat
from runtime._src.ops.array_ops import zeros_like
from runtime._src.ops.matrix_diag_ops import adjoint

__all__ = ["expm", "sqrtm", "logm"]

MATRIX_REAL = frozenset((dtypes.float32, dtypes.float64))
COMPLEX = frozenset((dtypes.complex64, dtypes.complex128))

# The degree-13 Pade coefficients b_0..b_13 and the 1-norm below which it is
# accurate to double precision (Higham 2005, table 2.3).
_PADE13 = [64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
           1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
           33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0]
_THETA13 = 5.371920351148152


def _expm64(a):
    """exp of each matrix of a float64 or complex128 array [..., n, n]."""
    n = a.shape[-1]
    if n == 0 or a.size == 0:
        return a.copy()
    norm = np.max(np.sum(np.abs(a), axis=-2), axis=-1)           # the 1-norm
    with np.errstate(divide="ignore"):
        s = np.maximum(0, np.ceil(np.log2(norm / _THETA13))).astype(int)
    s = np.where(np.isfinite(norm), s, 0)
    a = a / (2.0 ** s)[..., None, None]
    b = _PADE13
    eye = np.broadcast_to(np.eye(n, dtype=a.dtype), a.shape)
    a2 = a @ a
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 +
             b[3] * a2 + b[1] * eye)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + \
        b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for step in range(int(s.max(initial=0))):
        squared = r @ r
        r = np.where((s > step)[..., None, None], squared, r)
    return r


def _in_wide(fn):
    """Run `fn` in float64 / complex128 and return the input's dtype."""
    def kernel(x):
        wide = np.complex128 if np.iscomplexobj(x) else np.float64
        with np.errstate(all="ignore"):
            return fn(x.astype(wide)).astype(x.dtype)
    return kernel


define_op("MatrixExponential", infer=_matrix_rule(_same))(_in_wide(_expm64))


@define_grad("MatrixExponential")
def _expm_grad(op, grad):
    a_t = adjoint(op.inputs[0])
    top = concat([a_t, grad], axis=-1)
    bottom = concat([zeros_like(a_t), a_t], axis=-1)
    block = apply("MatrixExponential", (concat([top, bottom], axis=-2),))
    n = op.inputs[0].shape[-1]
    if n is None:
        raise ValueError("expm: the gradient needs the matrix size known while tracing")
    return [block[..., :n, n:]]


def expm(input, name=None):
    """`tf.linalg.expm`: the matrix exponential of each square matrix."""
    x = convert_to_tensor(input)
    if x.dtype not in FLOATS | COMPLEX:
        raise dtype_error("MatrixExponential", x.dtype, FLOATS | COMPLEX)
    return apply("MatrixExponential", (x,))


# --- square root ---------------------------------------------------------------

def _sqrtm_symmetric(a):
    w, v = np.linalg.eigh(a)
    return (v * np.sqrt(w)[..., None, :]) @ np.swapaxes(v, -1, -2).conj()


def _sqrtm_general(a):
    """Denman-Beavers: Y -> (Y + Z^-1) / 2, Z -> (Z + Y^-1) / 2, Y -> sqrt(a),
    each step scaled by |det Y det Z|^(-1/2n) while far from converged."""
    n = a.shape[-1]
    y, z = a.copy(), np.broadcast_to(np.eye(n, dtype=a.dtype), a.shape).copy()
    for k in range(60):
        if k < 10:
            det = np.abs(np.linalg.det(y) * np.linalg.det(z))
            mu = np.where(det > 0, det ** (-1.0 / (2 * n)), 1.0)[..., None, None]
        else:
            mu = 1.0
        y_next = (mu * y + np.linalg.inv(mu * z)) / 2
        z = (mu * z + np.linalg.inv(mu * y)) / 2
        done = np.max(np.abs(y_next - y)) <= 1e-15 * max(np.max(np.abs(y_next)), 1e-300)
        y = y_next
        if done:
            break
    return y


def _sqrtm64(a):
    if a.shape[-1] == 0 or a.size == 0:
        return a.copy()
    symmetric = np.array_equal(a, np.swapaxes(a, -1, -2).conj())
    return _sqrtm_symmetric(a) if symmetric else _sqrtm_general(a)


define_op("MatrixSquareRoot", infer=_matrix_rule(_same))(_in_wide(_sqrtm64))


def _sylvester_kernel(s, g):
    """X with S^T X + X S^T = G, from the eigendecomposition of S^T."""
    wide = np.complex128
    st = np.swapaxes(s, -1, -2).astype(wide)
    w, v = np.linalg.eig(st)
    v_inv = np.linalg.inv(v)
    inner = v_inv @ g.astype(wide) @ v
    x = v @ (inner / (w[..., :, None] + w[..., None, :])) @ v_inv
    out = x if np.iscomplexobj(s) else x.real
    return out.astype(s.dtype)


define_op("MatrixSquareRootGrad", infer=_matrix_rule(_same))(_sylvester_kernel)
not_differentiable("MatrixSquareRootGrad")


@define_grad("MatrixSquareRoot")
def _sqrtm_grad(op, grad):
    return [apply("MatrixSquareRootGrad", (op.outputs[0], grad))]


def sqrtm(input, name=None):
    """`tf.linalg.sqrtm`: the principal square root of each square matrix (NaN
    where it has no real one)."""
    x = convert_to_tensor(input)
    if x.dtype not in MATRIX_REAL | COMPLEX:
        raise dtype_error("MatrixSquareRoot", x.dtype, MATRIX_REAL | COMPLEX)
    return apply("MatrixSquareRoot", (x,))


# --- logarithm -----------------------------------------------------------------

def _logm128(a):
    if a.shape[-1] == 0 or a.size == 0:
        return a.copy()
    w, v = np.linalg.eig(a)
    return (v * np.log(w)[..., None, :]) @ np.linalg.inv(v)


define_op("MatrixLogarithm", infer=_matrix_rule(_same))(_in_wide(_logm128))
not_differentiable("MatrixLogarithm")


def logm(input, name=None):
    """`tf.linalg.logm`: the principal logarithm of each complex square matrix
    (complex64 and complex128 only, as TF's kernel)."""
    x = convert_to_tensor(input)
    if x.dtype not in COMPLEX:
        raise dtype_error("MatrixLogarithm", x.dtype, COMPLEX)
    return apply("MatrixLogarithm", (x,))
