"""Layer beside ragged and sparse, above ops: `tf.linalg.LinearOperator` and
its family, matrices described by their structure (a diagonal, a circulant's
spectrum, a Kronecker product's factors) whose methods (`matmul`, `solve`,
`determinant`, `to_dense`, `inverse`, `cholesky`, ...) compute with that
structure through the ops layer.

linear_operator.py holds the base class and the operators every method may
return (Adjoint, Inversion, Composition); basic.py the matrices given by
their entries (FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular,
Zeros); structured.py those given by a few vectors (Circulant, Toeplitz,
Householder, Permutation, Tridiag); combined.py those made of operators
(Kronecker, BlockDiag, BlockLowerTriangular, LowRankUpdate).
"""

from runtime._src.linalg import basic, combined, linear_operator, structured  # noqa: F401
