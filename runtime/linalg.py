"""`tf.linalg`: linear algebra on (batches of) matrices, batching over the
leading dimensions (defined in runtime/_src/ops/linalg_ops.py, linalg_solve_ops.py,
matrix_diag_ops.py, linalg_more_ops.py (LU, eig, tridiagonal and banded
solves, pinv, rank) and matrix_functions_ops.py (expm, sqrtm, logm); `matmul`
in matmul_ops.py, `norm` in reduction_ops.py), and the LinearOperator family
(runtime/_src/linalg/).

    >>> import runtime as tf
    >>> tf.linalg.matmul(tf.eye(2), tf.ones([2, 1])).shape
    TensorShape([2, 1])
    >>> tf.linalg.det(tf.eye(3, batch_shape=[2])).numpy()
    array([1., 1.], dtype=float32)
"""

from types import SimpleNamespace as _Namespace

from runtime._src.linalg.conjugate_gradient import conjugate_gradient as _conjugate_gradient
from runtime._src.linalg.basic import (LinearOperatorDiag, LinearOperatorFullMatrix,
                                       LinearOperatorIdentity, LinearOperatorLowerTriangular,
                                       LinearOperatorScaledIdentity, LinearOperatorZeros)
from runtime._src.linalg.combined import (LinearOperatorBlockDiag,
                                          LinearOperatorBlockLowerTriangular,
                                          LinearOperatorKronecker, LinearOperatorLowRankUpdate)
from runtime._src.linalg.linear_operator import (LinearOperator, LinearOperatorAdjoint,
                                                 LinearOperatorComposition,
                                                 LinearOperatorInversion)
from runtime._src.linalg.structured import (LinearOperatorCirculant, LinearOperatorCirculant2D,
                                            LinearOperatorCirculant3D,
                                            LinearOperatorHouseholder,
                                            LinearOperatorPermutation, LinearOperatorToeplitz,
                                            LinearOperatorTridiag)
from runtime._src.ops.array_ops import eye
from runtime._src.ops.clip_ops import global_norm
from runtime._src.ops.einsum_ops import einsum, tensordot
from runtime._src.ops.linalg_ops import (cholesky, det, eigh, eigvalsh, inv, logdet, qr,
                                         slogdet, svd)
from runtime._src.ops.linalg_solve_ops import (cholesky_solve, lstsq, matvec, solve,
                                               triangular_solve)
from runtime._src.ops.math_ops import matmul
from runtime._src.ops.matrix_diag_ops import (adjoint, band_part, diag, diag_part,
                                              matrix_transpose, tensor_diag, tensor_diag_part,
                                              trace)
from runtime._src.ops.reduction_ops import l2_normalize, norm
from runtime._src.ops.matrix_diag_ops import set_diag
from runtime._src.ops.matrix_functions_ops import expm, logm, sqrtm
from runtime._src.ops.linalg_more_ops import (banded_triangular_solve, cross, eig, eigvals,
                                              eigh_tridiagonal, lu, lu_matrix_inverse,
                                              lu_reconstruct, lu_solve, matrix_rank, normalize,
                                              pinv, tridiagonal_matmul, tridiagonal_solve)

# tf.linalg.experimental
experimental = _Namespace(conjugate_gradient=_conjugate_gradient)

__all__ = ["experimental", "adjoint", "band_part", "cholesky", "cholesky_solve", "det", "diag", "diag_part",
           "eigh", "eigvalsh", "einsum", "eye", "global_norm", "inv", "l2_normalize", "logdet", "lstsq", "matmul",
           "matrix_transpose", "matvec", "norm", "qr", "slogdet", "solve", "svd",
           "tensor_diag", "tensor_diag_part", "tensordot", "trace", "triangular_solve",
           "banded_triangular_solve", "cross", "eig", "eigvals", "eigh_tridiagonal", "expm",
           "logm", "lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve", "matrix_rank",
           "normalize", "pinv", "set_diag", "sqrtm", "tridiagonal_matmul",
           "tridiagonal_solve",
           "LinearOperator", "LinearOperatorAdjoint", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorCirculant",
           "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
           "LinearOperatorComposition", "LinearOperatorDiag", "LinearOperatorFullMatrix",
           "LinearOperatorHouseholder", "LinearOperatorIdentity", "LinearOperatorInversion",
           "LinearOperatorKronecker", "LinearOperatorLowRankUpdate",
           "LinearOperatorLowerTriangular", "LinearOperatorPermutation",
           "LinearOperatorScaledIdentity", "LinearOperatorToeplitz", "LinearOperatorTridiag",
           "LinearOperatorZeros"]
