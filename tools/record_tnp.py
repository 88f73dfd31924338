"""Record TensorFlow 2.21's `tf.experimental.numpy` values for
tests/data/tnp_tf221.json.

Run under a Python with TensorFlow 2.21 (the oracle):

    $BENCH_TF_PYTHON tools/record_tnp.py

Each case is a Python expression over `tnp`, `np` and the arrays below; it
is evaluated eagerly (value and dtype recorded, or the exception's type).
GRADS are expressions of `x` whose sum's gradient by x is recorded.
PROMOTION are operator expressions of tensors recorded after
`experimental_enable_numpy_behavior()`, and again with prefer_float32=True.
tests/runtime/ops/math/test_tnp.py replays them on the runtime.
"""

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "tnp_tf221.json"

# The arrays the expressions use (numpy values: tnp converts them as NumPy does).
SETUP = """
M = np.array([[1.0, -2.0, 3.0], [0.0, 5.0, -6.0]])
V = np.array([0.5, -1.5, 2.0, 0.0])
F32 = np.array([0.5, -1.5, 2.0, 0.0], np.float32)
I = np.array([3, -1, 0, 2], np.int32)
L = np.array([12, 18, -7, 0], np.int64)
B = np.array([True, False, True, True])
P = np.array([0.25, 1.0, 4.0, 9.0])
U = np.array([-0.5, 0.0, 0.25, 0.75])
N = np.array([1.0, np.nan, 3.0, np.inf])
C = np.array([1 + 2j, -3j, 2.0])
S = np.arange(24.0).reshape(2, 3, 4)
"""

CASES = [
    # conversion and dtypes
    "tnp.asarray([1, 2])", "tnp.asarray([1.0, 2])", "tnp.asarray(3.5)", "tnp.asarray(True)",
    "tnp.asarray([1, 2], dtype=tnp.float32)", "tnp.asarray(I)", "tnp.array([[1, 2]], ndmin=3)",
    "tnp.asanyarray([1.5])", "tnp.ascontiguousarray(2.0)", "tnp.array(F32, dtype=float)",
    "tnp.result_type(tnp.int32, 1.5)", "tnp.result_type(I, L)", "tnp.result_type(F32, 1.5)",
    "tnp.result_type(np.int8, np.uint8)", "tnp.promote_types(tnp.int32, tnp.float32)",
    "tnp.promote_types('int8', 'uint8')", "tnp.issubdtype(tnp.float32, tnp.inexact)",
    "tnp.issubdtype(tnp.int32, np.floating)", "float(tnp.finfo(tnp.float32).eps)",
    "int(tnp.iinfo(tnp.int8).max)", "tnp.isscalar(3.0)", "tnp.isscalar(I)",
    "tnp.iscomplexobj(C)", "tnp.isrealobj(V)", "tnp.ndim(M)", "tnp.shape(S)", "tnp.size(M)",
    "tnp.size(3)",
    # creation
    "tnp.zeros(3)", "tnp.zeros((2, 2), dtype=tnp.int32)", "tnp.ones([2])", "tnp.empty(2)",
    "tnp.full((2,), 7)", "tnp.full(2, 1.5, dtype=tnp.float32)", "tnp.zeros_like(I)",
    "tnp.ones_like(V, dtype=tnp.int64)", "tnp.empty_like(B)", "tnp.full_like(I, 2.7)",
    "tnp.eye(2, 3, k=1)", "tnp.eye(3, dtype=tnp.int32)", "tnp.identity(2)", "tnp.arange(4)",
    "tnp.arange(1, 2, 0.25)", "tnp.arange(5, 0, -2)", "tnp.arange(3, dtype=tnp.float32)",
    "tnp.linspace(0, 1, 5)", "tnp.linspace(0, 1, 4, endpoint=False)",
    "tnp.linspace(0.0, 2.0, 3, retstep=True)", "tnp.linspace(1, 3, 3, dtype=tnp.int32)",
    "tnp.logspace(0, 2, 3)", "tnp.logspace(0, 3, 4, base=2.0)", "tnp.geomspace(1, 1000, 4)",
    "tnp.geomspace(-1, -16, 5)", "tnp.tri(3)", "tnp.tri(2, 3, k=1, dtype=tnp.int32)",
    "tnp.tril(M)", "tnp.tril(M, k=-1)", "tnp.triu(M, 1)", "tnp.diag(V)", "tnp.diag(M)",
    "tnp.diag([1, 2], k=1)", "tnp.diag(M, k=-1)", "tnp.diagflat([[1, 2], [3, 4]])",
    "tnp.diag_indices(3)", "tnp.diagonal(S)", "tnp.diagonal(S, 1, 1, 2)",
    "tnp.vander([1, 2, 3])", "tnp.vander(V, 3, increasing=True)",
    "tnp.meshgrid([1, 2], [3, 4, 5])", "tnp.meshgrid([1, 2], [3, 4, 5], indexing='ij')",
    "tnp.meshgrid([1, 2], [3, 4, 5], sparse=True)", "tnp.ix_([0, 1], [2, 0])",
    "tnp.ix_(B[:2], [True, False, True])", "tnp.copy(V)",
    # shapes
    "tnp.reshape(S, (4, 6))", "tnp.reshape(M, -1)", "tnp.ravel(M)", "tnp.flatten(S)",
    "tnp.transpose(S)", "tnp.transpose(S, (1, 0, 2))", "tnp.swapaxes(S, 0, 2)",
    "tnp.moveaxis(S, 0, -1)", "tnp.moveaxis(S, [0, 1], [2, 0])", "tnp.expand_dims(V, 0)",
    "tnp.expand_dims(M, (0, 3))", "tnp.squeeze([[1], [2]])", "tnp.squeeze(np.ones((1, 2, 1)), 0)",
    "tnp.atleast_1d(3.0)", "tnp.atleast_2d(V)", "tnp.atleast_3d(M)", "tnp.atleast_3d(V)",
    "tnp.atleast_1d(1, [2, 3])", "tnp.broadcast_to(V, (2, 4))",
    "tnp.broadcast_arrays([1, 2], [[3], [4]])", "tnp.concatenate([I, V])",
    "tnp.concatenate([M, M], axis=1)", "tnp.concatenate([M, S[0]], axis=None)",
    "tnp.stack([I, L])", "tnp.stack([V, V], axis=1)", "tnp.hstack([I, [5]])",
    "tnp.hstack([M, M])", "tnp.vstack([V, F32])", "tnp.dstack([M, M])", "tnp.dstack([V, V])",
    "tnp.split(S, 2)", "tnp.split(V, [1, 3])", "tnp.hsplit(M, 3)", "tnp.vsplit(M, 2)",
    "tnp.dsplit(S, [1])", "tnp.append(I, [7, 8])", "tnp.append(M, M, axis=0)",
    "tnp.tile(V, 2)", "tnp.tile(M, (2, 1, 2))", "tnp.repeat(M, 2)",
    "tnp.repeat(M, [1, 2], axis=0)", "tnp.flip(M)", "tnp.flip(S, 1)", "tnp.fliplr(M)",
    "tnp.flipud(M)", "tnp.roll(V, 1)", "tnp.roll(M, -1, axis=1)", "tnp.roll(M, 2)",
    "tnp.rot90(M)", "tnp.rot90(M, 2)", "tnp.rot90(M, 3)", "tnp.rot90(S, 1, (1, 2))",
    "tnp.pad(M, 1, 'constant')", "tnp.pad(V, (1, 2), 'reflect')",
    "tnp.pad(M, ((0, 1), (2, 0)), 'constant', constant_values=9)",
    "tnp.pad(V, 2, 'symmetric')",
    # selection
    "tnp.take(V, [0, 3])", "tnp.take(M, [2, 0], axis=1)", "tnp.take(V, [5, -9])",
    "tnp.take(V, [5, -1], mode='wrap')", "tnp.take_along_axis(M, [[0], [2]], 1)",
    "tnp.take_along_axis(M, np.argsort(M, axis=0), 0)", "tnp.compress([True, False, True], M, 1)",
    "tnp.compress([False, True], V)", "tnp.nonzero(M)", "tnp.where(B, I, V)",
    "tnp.where([1, 0, 2])", "tnp.where(V > 0, 1, 0)", "tnp.select([V > 0, V < 0], [V, -V])",
    "tnp.select([V > 1], [I], default=-5)", "tnp.sort(M)", "tnp.sort(M, axis=0)",
    "tnp.sort(M, axis=None)", "tnp.sort(B)", "tnp.argsort([3, 1, 2, 1])",
    "tnp.argsort(M, axis=0)", "tnp.clip(V, -1, 1)", "tnp.clip(I, 0, 2.5)",
    "tnp.clip(V, None, 1)",
    # elementwise, two operands
    "tnp.add(I, L)", "tnp.add(I, 1.5)", "tnp.add(F32, 1.5)", "tnp.add(B, B)", "tnp.add(I, 1)",
    "tnp.add(np.array([1], np.uint8), np.array([1], np.int8))", "tnp.subtract(V, I)",
    "tnp.multiply(B, B)", "tnp.multiply(I, 2)", "tnp.divide(I, 2)", "tnp.divide(F32, 2)",
    "tnp.true_divide(L, L)", "tnp.true_divide(B, B)", "tnp.floor_divide(I, 2)",
    "tnp.floor_divide(V, 0.75)", "tnp.floor_divide(-7, [2, -2])", "tnp.mod(I, 2)",
    "tnp.mod(V, 0.75)", "tnp.mod(-7, [2, -2])", "tnp.remainder(L, 5)", "tnp.divmod(L, 5)",
    "tnp.power(I, 2)", "tnp.power(V, 2)", "tnp.power(2, I)", "tnp.power(P, 0.5)",
    "tnp.float_power(I, 2)", "tnp.float_power(F32, 2)", "tnp.maximum(V, I)",
    "tnp.maximum(N, 2.0)", "tnp.minimum(B, B[::-1])", "tnp.minimum(V, 0)",
    "tnp.arctan2(V, U)", "tnp.arctan2(I, 2)", "tnp.hypot(I, 4)", "tnp.hypot(V, U)",
    "tnp.logaddexp(V, U)", "tnp.logaddexp(N, 1.0)", "tnp.logaddexp2(V, U)",
    "tnp.heaviside(V, 0.5)", "tnp.heaviside(I, 3)", "tnp.nextafter(V, 5.0)",
    "tnp.nextafter(F32, -5.0)", "tnp.nextafter(0.0, [1.0, -1.0])", "tnp.gcd(L, 8)",
    "tnp.gcd(I, L)",
    "tnp.gcd([7540113804746346429, 12], [4660046610375530309, 18])", "tnp.lcm(L, 8)", "tnp.lcm(I, 0)", "tnp.equal(I, V)",
    "tnp.not_equal(I, 0)", "tnp.greater(V, I)", "tnp.greater_equal(B, B[::-1])",
    "tnp.less(I, 1.5)", "tnp.less_equal(V, 0)", "tnp.logical_and(I, V)",
    "tnp.logical_or(B, 0)", "tnp.logical_xor(I, B)", "tnp.logical_not(V)",
    "tnp.bitwise_and(I, 6)", "tnp.bitwise_or(B, B[::-1])", "tnp.bitwise_xor(L, I)",
    "tnp.bitwise_not(I)", "tnp.bitwise_not(B)", "tnp.isclose(V, V + 1e-9)",
    "tnp.isclose(N, N)", "tnp.isclose(N, N, equal_nan=True)", "tnp.isclose(I, [3, 0, 0, 2])",
    "tnp.allclose(V, V + 1e-3)", "tnp.allclose(V, V)", "tnp.array_equal(I, [3, -1, 0, 2])",
    "tnp.array_equal(M, V)", "tnp.array_equal(I, V)",
    # elementwise, one operand
    "tnp.exp(V)", "tnp.exp(I)", "tnp.exp(F32)", "tnp.exp2(I)", "tnp.expm1(V)", "tnp.log(P)",
    "tnp.log(I)", "tnp.log2(P)", "tnp.log10(P)", "tnp.log1p(P)", "tnp.sqrt(P)",
    "tnp.sqrt([4, 9])", "tnp.sin(V)", "tnp.cos(I)", "tnp.tan(V)", "tnp.sinh(V)", "tnp.cosh(V)",
    "tnp.tanh(V)", "tnp.arcsin(U)", "tnp.arccos(U)", "tnp.arctan(V)", "tnp.arcsinh(V)",
    "tnp.arccosh(P + 1)", "tnp.arctanh(U)", "tnp.deg2rad(I)", "tnp.rad2deg(V)", "tnp.ceil(V)",
    "tnp.ceil(I)", "tnp.floor(V)", "tnp.fix(V)", "tnp.fix(I)", "tnp.cbrt([-8.0, 27.0, 0.0])",
    "tnp.cbrt(I)", "tnp.isnan(N)", "tnp.isnan(I)", "tnp.isinf(N)", "tnp.isfinite(N)",
    "tnp.isposinf(-N)", "tnp.isneginf(-N)", "tnp.sinc(V)", "tnp.sinc(I)", "tnp.abs(I)",
    "tnp.abs(C)", "tnp.absolute(V)", "tnp.fabs(I)", "tnp.negative(V)", "tnp.positive(I)",
    "tnp.square(I)", "tnp.square(B)", "tnp.reciprocal(P)", "tnp.reciprocal(I + 4)",
    "tnp.conj(C)", "tnp.conjugate(V)", "tnp.signbit(np.array([-0.0, 0.0, -1.0, 2.0]))",
    "tnp.signbit(I)", "tnp.sign(V)", "tnp.sign(I)", "tnp.real(C)", "tnp.real(V)",
    "tnp.imag(C)", "tnp.imag(I)", "tnp.angle(C)", "tnp.angle(V, deg=True)", "tnp.angle(I)",
    "tnp.iscomplex(C)", "tnp.iscomplex(V)", "tnp.isreal(C)", "tnp.isreal(V)",
    "tnp.around([0.5, 1.5, 2.5, -0.5])", "tnp.around(V * 1.234, 2)", "tnp.around(I)",
    "tnp.round([123, 456], -1)", "tnp.round(B)",
    # reductions
    "tnp.sum(M)", "tnp.sum(I)", "tnp.sum(B)", "tnp.sum(M, axis=0)", "tnp.sum(M, 1, keepdims=True)",
    "tnp.sum(I, dtype=tnp.float32)", "tnp.sum(B, dtype=bool)",
    "tnp.sum(np.array([1, 2], np.uint8))", "tnp.prod(I + 5)", "tnp.prod(B)", "tnp.prod(M, 0)",
    "tnp.mean(I)", "tnp.mean(M, axis=1)", "tnp.mean(F32)", "tnp.mean(I, dtype=tnp.float32)",
    "tnp.amax(M)", "tnp.amax(B)", "tnp.amin(M, axis=0)", "tnp.amin(I)", "tnp.max(M, axis=1)",
    "tnp.min(V)", "tnp.max(I, keepdims=True)", "tnp.all(M)", "tnp.all(B)", "tnp.any(M, 0)",
    "tnp.any(I == 7)", "tnp.var(M)", "tnp.var(I)", "tnp.var(M, axis=0, ddof=1)",
    "tnp.var(V, ddof=1)", "tnp.var(I, dtype=tnp.float32)", "tnp.std(M)", "tnp.std(I)",
    "tnp.std(M, axis=1, keepdims=True)", "tnp.ptp(M)", "tnp.ptp(M, axis=0)", "tnp.average(I)",
    "tnp.average(M, axis=1)", "tnp.average(V, weights=P)",
    "tnp.average(M, axis=1, weights=[1, 2, 3])", "tnp.average(I, weights=[1, 1, 1, 1], returned=True)",
    "tnp.average(M, returned=True)", "tnp.count_nonzero(M)", "tnp.count_nonzero(M, axis=0)",
    "tnp.cumsum(M)", "tnp.cumsum(M, axis=1)", "tnp.cumsum(B)", "tnp.cumsum(I, dtype=tnp.float32)",
    "tnp.cumprod(I + 2)", "tnp.cumprod(M, axis=0)", "tnp.nansum(N)", "tnp.nansum(I)",
    "tnp.nanprod(N)", "tnp.nanmean(N)", "tnp.nanmean(I)",
    "tnp.nanmean(np.array([[1.0, np.nan], [3.0, 4.0]]), axis=0)", "tnp.argmax(M)",
    "tnp.argmax(M, axis=0)", "tnp.argmin(V)", "tnp.argmin(M, axis=1)", "tnp.argmax([1, 3, 3])",
    "tnp.trace(M)", "tnp.trace(S)", "tnp.trace(M, offset=1)", "tnp.trace(I.reshape(2, 2))",
    "tnp.diff(V)", "tnp.diff(M, axis=0)", "tnp.diff(I, n=2)", "tnp.diff(B)",
    # products
    "tnp.dot(V, V)", "tnp.dot(M, [1, 2, 3])", "tnp.dot(2, M)", "tnp.dot(S, S[0].T)",
    "tnp.dot(I, L)", "tnp.vdot(M, M)", "tnp.vdot(C, C)", "tnp.inner(V, V)", "tnp.inner(M, M)",
    "tnp.inner(3, I)", "tnp.outer(I, [1, 2])", "tnp.outer(M, V)", "tnp.matmul(M, M.T)",
    "tnp.matmul(M, [1, 2, 3])", "tnp.matmul([1, 2], M)", "tnp.matmul(S, np.ones((4, 2)))",
    "tnp.matmul(I.reshape(2, 2), I.reshape(2, 2))", "tnp.tensordot(S, S, [[1, 2], [1, 2]])",
    "tnp.tensordot(M, M.T, 1)", "tnp.tensordot(V, V, 0)", "tnp.einsum('ij,jk->ik', M, M.T)",
    "tnp.einsum('i,i', I, V)", "tnp.einsum('ijk->kji', S)", "tnp.kron([1, 2], [1, 10])",
    "tnp.kron(M, np.eye(2))", "tnp.kron(I, M)", "tnp.cross([1, 2, 3], [4, 5, 6])",
    "tnp.cross(M, M[::-1])", "tnp.cross([1, 2], [3, 4])", "tnp.cross([1, 2], [3, 4, 5])",
    "tnp.polyval([1, 2, 3], V)", "tnp.polyval([3.0], I)", "tnp.polyval(I, 2)",
    # special points: empty, zeros, ties, bounds, NaN
    "tnp.sum([])", "tnp.prod([])", "tnp.mean(np.zeros((0,)))", "tnp.cumsum(np.zeros((0,)))",
    "tnp.zeros(0)", "tnp.arange(0)", "tnp.arange(2, 2)", "tnp.linspace(0, 1, 0)",
    "tnp.linspace(0, 1, 1)", "tnp.linspace(2, 3, 1, endpoint=False)",
    "tnp.concatenate([np.zeros((0, 3)), M])", "tnp.reshape(np.zeros((0, 3)), (3, 0))",
    "tnp.diff([5.0])", "tnp.amax(np.zeros((0,)))", "tnp.argmax([2, 7, 7, 1])",
    "tnp.argmin([[3, 1], [1, 3]], axis=1)", "tnp.sort([2.0, np.nan, 1.0])",
    "tnp.argsort([1, 1, 0, 1])", "tnp.clip([1, 5, 9], 6, 4)", "tnp.divide(1.0, [0.0, -0.0])",
    "tnp.divide(0, 0)", "tnp.floor_divide([7, -7], 0)", "tnp.mod([7, -7], 0)",
    "tnp.mod([7.0, -7.0], 0.0)", "tnp.power(0.0, [0.0, -1.0])", "tnp.sqrt(-1.0)",
    "tnp.log([0.0, -1.0])", "tnp.maximum(np.nan, [1.0])", "tnp.minimum([0.0], -0.0)",
    "tnp.sign([np.nan, -0.0, 0.0])", "tnp.around([-2.5, -1.5, 2.675], 1)",
    "tnp.arctan2([0.0, -0.0], [-0.0, -1.0])", "tnp.hypot(np.inf, np.nan)",
    "tnp.isclose(1e-9, 0.0)", "tnp.isclose([1.0, 1.00001], 1.0)",
    "tnp.nextafter([np.inf, -np.inf, np.nan], 0.0)", "tnp.heaviside([0, 0], [0.5, 2])",
    "tnp.cbrt(-0.0)", "tnp.sinc(0.0)", "tnp.exp(710.0)", "tnp.logaddexp(-np.inf, -np.inf)",
    "tnp.var([1.0])", "tnp.std(np.zeros((2, 0)), axis=1)", "tnp.average([1, 2], weights=[0, 1])",
    "tnp.take([1, 2, 3], [])", "tnp.nonzero(np.zeros((2, 2)))", "tnp.count_nonzero([])",
    "tnp.where([[True, False]], [[1], [2]], [3.5])", "tnp.tile(np.zeros((0, 2)), (2, 2))",
    "tnp.repeat([1, 2], 0)", "tnp.flip(np.zeros((0,)))", "tnp.roll([1, 2, 3], 5)",
    "tnp.roll([1, 2, 3], -4)", "tnp.pad(np.zeros((0,)), 1, 'constant')",
    "tnp.eye(0)", "tnp.tri(0)", "tnp.trace(np.zeros((2, 0)))", "tnp.dot([], [])",
    "tnp.outer([], [1, 2])", "tnp.matmul(np.zeros((2, 0)), np.zeros((0, 3)))",
    "tnp.gcd(0, 0)", "tnp.lcm([0, -4], [6, 6])", "tnp.gcd(-12, 18)",
    "tnp.bitwise_and(np.uint8(255), 15)", "tnp.bitwise_not(np.uint8(0))",
    # constants and random (dtypes, shapes)
    "tnp.pi", "tnp.e", "tnp.inf", "tnp.newaxis",
    "tnp.random.rand(2, 3).shape", "tnp.random.rand(2).dtype", "tnp.random.randn(3).dtype",
    "tnp.random.randint(5, size=4).dtype", "tnp.random.randint(2, 5, size=(2,), dtype=np.int32).dtype",
    "tnp.random.uniform(1.0, 2.0, size=3).dtype", "tnp.random.uniform(np.zeros(2), 1.0).shape",
    "tnp.random.random((2, 2)).dtype", "tnp.random.standard_normal(3).dtype",
    "tnp.random.standard_normal().shape", "tnp.random.poisson(3.0, 5).dtype",
]

GRADS = [
    "tnp.sin(x)", "tnp.exp(x) * x", "tnp.sqrt(x * x + 1)", "tnp.mean(x)", "tnp.var(x)",
    "tnp.std(x)", "tnp.prod(x)", "tnp.amax(x)", "tnp.cumsum(x)", "tnp.dot(x, x)",
    "tnp.matmul(tnp.reshape(x, (2, 2)), tnp.reshape(x, (2, 2)))", "tnp.hypot(x, 2.0)",
    "tnp.logaddexp(x, 0.5)", "tnp.clip(x, -1, 1)", "tnp.where(x > 0, x, x * x)",
    "tnp.sinc(x)", "tnp.take(x, [0, 0, 3])", "tnp.tril(tnp.reshape(x, (2, 2)))",
    "tnp.kron(x, [1.0, 2.0])", "tnp.average(x, weights=[1.0, 2.0, 3.0, 4.0])",
    "tnp.nextafter(x, 5.0)", "tnp.take_along_axis(x, [3, 0, 0], 0)",
    "tnp.logaddexp2(x, x)", "tnp.diff(x, 2)",
]
GRAD_X = [0.5, -1.5, 2.0, 0.0]

PROMOTION = [
    "i32 + i64", "i32 + f32", "i32 + f64", "f32 + f64", "i32 + 1.5", "i32 + 1", "f32 + 1.5",
    "i8 + 1.5", "u8 + i32", "f16 + i32", "b + 1", "i32 / i32", "i32 // 2", "i32 ** 2",
    "i32 ** 0.5", "i64 < 1.5", "i32 == i64", "i32 != 1.5", "i32 > i64", "i32 & i64",
    "b & 1", "i32 @ i64", "i32 % 1.5", "2 ** i32", "1.5 + i32", "i32 - True",
    "i8 * np.int16(2)", "i32 + np.float32(1)", "i32 + np.array([1, 2])", "-i8", "abs(i8)",
    "u8 + 300", "i32 * f32", "f16 * 2.5", "i32 + [1.5, 2]", "f32 + [1, 2]", "[0.5, 1] * i8",
    "tf.constant(['a']) + 'b'", "i8 + 1000", "f16 + np.float64(1)", "b | True",
]

METHODS = [
    "x.T", "x.reshape(4)", "x.reshape(1, 4)", "x.reshape((4, 1))", "x.ravel()",
    "x.flatten()", "x.transpose()", "x.astype(tnp.int32)", "x.clip(2, 3)", "x.tolist()",
    "x.size", "x.ndim", "round(x)", "x.max()", "x.min(axis=0)", "x.mean(axis=0)", "+x",
    "x[[1, 0]]", "x[:, [1, 0]]", "x[[0, 1], [1, 0]]", "x[x > 2]", "x[tf.constant([1, 0])]",
    "x[np.array([True, False])]", "x[None, [0, 1]]", "x[..., [0]]", "x[1, [0, 1]]",
    "x[[1, 0], None]", "x[:, None, [1]]", "x[[[0], [1]], [0, 1]]", "x[-1]", "x[0, 1:]",
    "y[..., [1, 3]]", "y[[1], ..., [0]]", "y[[0, 1], None, [1, 2]]", "y[:, None, [0, 2], 1:3]",
    "y[y > 10]", "y[y[:, :, 0] > 3]", "y[1, [0, 2], :]", "y[[0, 1], :, [1, 2]]", "y[[-1, 0]]",
    "y[:, [True, False, True]]", "y[np.array([1, 0]), 1]", "y[[0, 1], 2, [3, 1]]",
    "y[..., None, [0]]", "y[[True, False], :, 0]", "y[tf.constant([1, 0]), 0:2]",
]


def _encode(value):
    """A JSON form of a result: tensors and arrays as {values, dtype}, tuples
    and lists element by element, dtypes by name."""
    import tensorflow as tf
    if isinstance(value, (tuple, list)) and value and not isinstance(value[0], (int, float)):
        return {"seq": [_encode(v) for v in value]}
    if isinstance(value, tf.Tensor):
        return _array(value.numpy(), value.dtype.name)
    if isinstance(value, tf.DType):
        return {"dtype_name": value.name}
    if isinstance(value, np.dtype):
        return {"dtype_name": value.name}
    if isinstance(value, tf.TensorShape):
        return {"py": value.as_list()}
    if isinstance(value, (np.generic, np.ndarray)):
        a = np.asarray(value)
        return {"py": a.tolist(), "shape": list(a.shape)} if a.size == 0 else {"py": a.tolist()}
    return {"py": value}


def _array(a, dtype):
    a = np.asarray(a)
    if dtype == "string":
        return {"strings": [v.decode() for v in a.ravel().tolist()], "dtype": dtype}
    if a.size == 0:
        return {"values": [], "shape": list(a.shape), "dtype": dtype}
    if a.dtype.kind == "c":
        return {"re": a.real.tolist(), "im": a.imag.tolist(), "dtype": dtype}
    if a.dtype.kind == "f":
        return {"values": np.where(np.isnan(a), None, a).tolist()
                if np.isnan(a).any() else a.tolist(), "dtype": dtype}
    return {"values": a.tolist(), "dtype": dtype}


def _run(expr, env):
    try:
        return _encode(eval(expr, env))  # noqa: S307 - our own table
    except Exception as e:  # noqa: BLE001 - the error's type is the record
        return {"error": type(e).__name__}


def main():
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp
    env = {"tnp": tnp, "np": np, "tf": tf}
    exec(SETUP, env)  # noqa: S102
    tnp.random.seed(0)
    record = {"cases": {c: _run(c, env) for c in CASES}, "grads": {}}
    for expr in GRADS:
        x = tf.constant(GRAD_X, tf.float64)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tnp.sum(eval(expr, dict(env, x=x)))  # noqa: S307
        record["grads"][expr] = tape.gradient(y, x).numpy().tolist()
    tnp.experimental_enable_numpy_behavior()
    record["cases_np"] = {c: _run(c, env) for c in CASES}
    np_env = dict(env, tnp=np)
    for c, got in record["cases"].items():   # where TF raised: NumPy's own answer
        if "error" in got and "error" in record["cases_np"][c]:
            got["numpy"] = _run(c, np_env)
    tensors = {"i8": tf.constant([1, 2], tf.int8), "u8": tf.constant([1, 2], tf.uint8),
               "i32": tf.constant([1, 2], tf.int32), "i64": tf.constant([1, 2], tf.int64),
               "f16": tf.constant([1, 2], tf.float16), "f32": tf.constant([1, 2], tf.float32),
               "f64": tf.constant([1, 2], tf.float64), "b": tf.constant([True, False]),
               "x": tf.constant([[1.5, 2.5], [3.0, 4.0]]),
               "y": tf.constant(np.arange(24).reshape(2, 3, 4))}
    env.update(tensors)
    record["legacy"] = {p: _run(p, env) for p in PROMOTION}
    record["methods"] = {m: _run(m, env) for m in METHODS}
    record["numpy_index_grads"] = {}
    for expr in ("x[[0, 0, 1]]", "x[x > 2]", "x[:, [1, 1]]"):
        with tf.GradientTape() as tape:
            tape.watch(env["x"])
            y = tf.reduce_sum(eval(expr, env) * 2.0)  # noqa: S307
        record["numpy_index_grads"][expr] = tape.gradient(y, env["x"]).numpy().tolist()
    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
    record["off"] = {p: _run(p, env) for p in PROMOTION[:12]}
    tnp.experimental_enable_numpy_behavior(prefer_float32=True)
    record["prefer_float32"] = {p: _run(p, env) for p in PROMOTION}
    record["prefer_float32_cases"] = {c: _run(c, env) for c in (
        "tnp.asarray(1.5)", "tnp.asarray([1.0, 2.0])", "tnp.arange(3.0)", "tnp.linspace(0, 1, 3)",
        "tnp.add(I, 1.5)", "tnp.add(np.array([1], np.int8), 1.5)", "tnp.sqrt(I)",
        "tnp.mean(I)", "tnp.ones(2)", "tnp.random.rand(2).dtype", "tnp.result_type(1.5)",
        "tnp.logspace(0, 1, 2)", "tnp.full(2, 1.5)")}
    OUT.write_text(json.dumps(record, indent=0, sort_keys=True) + "\n")
    print(f"wrote {OUT}: {len(CASES)} cases, {len(GRADS)} gradients, "
          f"{len(PROMOTION)} promotions, {len(METHODS)} methods")


if __name__ == "__main__":
    main()
