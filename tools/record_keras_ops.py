"""Record Keras 3's `keras.ops` values for tests/data/keras_ops.json.

Run under a Python with TensorFlow 2.21 and Keras 3.15 (the oracle):

    $BENCH_TF_PYTHON tools/record_keras_ops.py

Each case is (op, args, kwargs); an arg is a literal or {"a": values,
"dtype": name} for an array. Recorded: the output's values and dtype, and for
float outputs of a float first argument the gradient of sum(output) by it.
tests/keras/ops/test_keras_ops_values.py replays them on the runtime.
"""

import json
import pathlib
import sys

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_ops.json"


def A(values, dtype="float32"):  # noqa: N802 (short name for the table)
    return {"a": values, "dtype": dtype}


M = A([[1.0, -2.0, 3.0], [0.0, 5.0, -6.0]])
V = A([0.5, -1.5, 2.0, 0.0])
IV = A([3, -1, 0, 2], "int32")
BV = A([True, False, True, True], "bool")
POS = A([0.25, 1.0, 4.0, 9.0])
UNIT = A([-0.5, 0.0, 0.25, 0.75])
TIES = A([2.0, 1.0, 2.0, 1.0])

CASES = [
    ("add", [M, 1.0], {}), ("add", [IV, 1.5], {}), ("add", [IV, 2], {}),
    ("add", [A([1, 2], "int8"), A([3, 4], "uint8")], {}),
    ("add", [A([1, 2], "int64"), A([0.5, 1], "float32")], {}),
    ("add", [A([1, 2], "int8"), 3], {}), ("add", [A([1.0], "float16"), 2.0], {}),
    ("subtract", [M, V[:0] if False else A([1.0, 2.0, 3.0])], {}),
    ("multiply", [M, A([2.0, 0.0, -1.0])], {}), ("multiply", [BV, IV], {}),
    ("divide", [IV, A([2, 4, 1, 3], "int32")], {}), ("divide", [M, 4.0], {}),
    ("true_divide", [V, 2.0], {}), ("floor_divide", [IV, 2], {}),
    ("mod", [IV, 2], {}), ("power", [V, 2.0], {}), ("power", [IV, 2], {}),
    ("maximum", [V, TIES], {}), ("minimum", [V, 0.0], {}), ("maximum", [IV, 1.5], {}),
    ("equal", [TIES, 2.0], {}), ("not_equal", [IV, 0], {}), ("greater", [V, 0.0], {}),
    ("greater_equal", [V, 0.0], {}), ("less", [IV, 1], {}), ("less_equal", [V, 0.5], {}),
    ("logical_and", [BV, A([True, True, False, False], "bool")], {}),
    ("logical_or", [BV, A([False, False, False, True], "bool")], {}),
    ("logical_xor", [BV, A([True, True, False, False], "bool")], {}),
    ("logical_not", [BV], {}), ("arctan2", [V, A([1.0, 1.0, -1.0, 1.0])], {}),
    ("hypot", [V, A([1.0, 2.0, 0.5, 0.0])], {}), ("logaddexp", [V, TIES], {}),
    ("exp", [V], {}), ("exp", [IV], {}), ("exp2", [V], {}), ("expm1", [V], {}),
    ("log", [POS], {}), ("log", [IV], {}), ("log2", [POS], {}), ("log10", [POS], {}),
    ("log1p", [POS], {}), ("sqrt", [POS], {}), ("sqrt", [A([0, 4, 9], "int32")], {}),
    ("sin", [V], {}), ("cos", [V], {}), ("tan", [V], {}), ("arcsin", [UNIT], {}),
    ("arccos", [UNIT], {}), ("arctan", [V], {}), ("sinh", [V], {}), ("cosh", [V], {}),
    ("tanh", [V], {}), ("arcsinh", [V], {}), ("arccosh", [A([1.0, 2.0, 5.0])], {}),
    ("arctanh", [UNIT], {}), ("reciprocal", [POS], {}), ("deg2rad", [V], {}),
    ("rad2deg", [V], {}), ("abs", [V], {}), ("abs", [IV], {}), ("absolute", [V], {}),
    ("negative", [IV], {}), ("square", [V], {}), ("square", [IV], {}),
    ("sign", [V], {}), ("sign", [IV], {}), ("floor", [V], {}), ("ceil", [V], {}),
    ("round", [A([0.5, 1.5, 2.5, -0.5, 1.26])], {}),
    ("round", [A([1.234, -5.678])], {"decimals": 1}), ("trunc", [V], {}),
    ("isnan", [A([1.0, float("nan")])], {}), ("isinf", [A([1.0, float("inf")])], {}),
    ("isfinite", [A([1.0, float("inf"), float("nan")])], {}),
    ("clip", [V, -1.0, 1.0], {}), ("clip", [IV, 0, 2], {}),
    ("sum", [M], {}), ("sum", [M], {"axis": 1}), ("sum", [M], {"axis": 0, "keepdims": True}),
    ("sum", [BV], {}), ("sum", [A([100, 100], "int8")], {}), ("sum", [A([], "float32")], {}),
    ("mean", [M], {}), ("mean", [M], {"axis": -1}), ("mean", [IV], {}),
    ("mean", [M], {"axis": [0, 1], "keepdims": True}), ("prod", [M], {"axis": 0}),
    ("max", [M], {}), ("max", [M], {"axis": 1}), ("min", [M], {"axis": 0, "keepdims": True}),
    ("amax", [M], {"axis": 1}), ("amin", [M], {}), ("var", [M], {"axis": 1}),
    ("std", [M], {}), ("var", [IV], {}), ("all", [BV], {}), ("any", [BV], {}),
    ("all", [M], {"axis": 0}), ("argmax", [TIES], {}), ("argmax", [M], {"axis": 1}),
    ("argmin", [M], {"axis": 0}), ("argmin", [M], {}), ("argmax", [M], {"axis": 1, "keepdims": True}),
    ("cumsum", [M], {"axis": 1}), ("cumsum", [M], {}), ("cumsum", [BV], {}),
    ("cumprod", [V], {}), ("count_nonzero", [M], {}), ("count_nonzero", [M], {"axis": 0}),
    ("zeros", [[2, 3]], {}), ("ones", [[2]], {"dtype": "int32"}), ("ones", [3], {}),
    ("full", [[2, 2], 7], {}), ("full", [[2], 1.5], {}),
    ("zeros_like", [IV], {}), ("ones_like", [M], {}), ("full_like", [IV, 5], {}),
    ("arange", [5], {}), ("arange", [1, 4, 0.5], {}), ("arange", [0.0, 3.0], {}),
    ("arange", [2, 10, 3], {}), ("arange", [0], {}),
    ("linspace", [0, 1, 5], {}), ("linspace", [A([0.0, 1.0]), A([1.0, 3.0]), 3], {}),
    ("linspace", [A([0.0, 1.0]), 2.0, 3], {"axis": -1}), ("linspace", [1.0, 2.0, 1], {}),
    ("linspace", [0, 10, 4], {"dtype": "int32"}), ("linspace", [0.0, 1.0, 4], {"endpoint": False}),
    ("eye", [3], {}), ("eye", [2, 3], {"k": 1}), ("identity", [2], {}), ("tri", [3], {}),
    ("tril", [M], {}), ("triu", [M], {"k": 1}),
    ("reshape", [M, [3, 2]], {}), ("reshape", [M, [-1]], {}), ("transpose", [M], {}),
    ("transpose", [A([[[1.0, 2.0]]]), [2, 0, 1]], {}), ("expand_dims", [V, 0], {}),
    ("expand_dims", [V, -1], {}), ("squeeze", [A([[1.0], [2.0]])], {}),
    ("squeeze", [A([[[1.0, 2.0]]]), 0], {}),
    ("concatenate", [[M, M]], {"axis": 1}), ("concatenate", [[IV, V]], {}),
    ("stack", [[V, TIES]], {}), ("stack", [[V, TIES]], {"axis": 1}),
    ("vstack", [[V, TIES]], {}), ("hstack", [[V, TIES]], {}),
    ("tile", [V, 2], {}), ("tile", [M, [2, 1]], {}), ("repeat", [M, 2], {}),
    ("repeat", [M, 2], {"axis": 0}), ("flip", [M], {}), ("flip", [M], {"axis": 1}),
    ("roll", [V, 1], {}), ("roll", [M, -1], {"axis": 1}), ("ravel", [M], {}),
    ("swapaxes", [M, 0, 1], {}), ("moveaxis", [A([[[1.0, 2.0, 3.0]]]), 2, 0], {}),
    ("split", [V, 2], {}), ("split", [M, [1]], {"axis": 1}),
    ("pad", [M, [[1, 0], [0, 2]]], {}), ("pad", [V, 1], {"constant_values": 9.0}),
    ("pad", [M, [[0, 0], [1, 1]]], {"mode": "reflect"}),
    ("broadcast_to", [V, [2, 4]], {}), ("size", [M], {}),
    ("where", [BV, V, TIES], {}), ("where", [BV, IV, 0.5], {}), ("where", [V], {}),
    ("nonzero", [M], {}), ("take", [V, A([0, 3, -1], "int32")], {}),
    ("take", [M, A([1, 0], "int32")], {"axis": 1}), ("take", [M, A([5], "int32")], {}),
    ("take_along_axis", [M, A([[0], [2]], "int32")], {"axis": 1}),
    ("take_along_axis", [M, A([[1, 0, 1]], "int32")], {"axis": 0}),
    ("sort", [TIES], {}), ("sort", [M], {"axis": 0}), ("argsort", [TIES], {}),
    ("argsort", [M], {"axis": 1}),
    ("matmul", [M, A([[1.0], [2.0], [0.5]])], {}), ("matmul", [V, V], {}),
    ("matmul", [M, A([1.0, 0.0, 2.0])], {}), ("matmul", [A([[1, 2]], "int32"), A([[3], [4]], "int32")], {}),
    ("dot", [V, TIES], {}), ("dot", [M, A([1.0, 1.0, 1.0])], {}), ("vdot", [V, TIES], {}),
    ("inner", [V, TIES], {}), ("outer", [V, A([1.0, 2.0])], {}),
    ("tensordot", [M, A([[1.0], [2.0], [0.5]])], {"axes": 1}),
    ("einsum", ["ij,j->i", M, A([1.0, 2.0, 3.0])], {}), ("einsum", ["ij->ji", M], {}),
    ("trace", [A([[1.0, 2.0], [3.0, 4.0]])], {}), ("diagonal", [M], {}),
    ("diagonal", [M], {"offset": 1}), ("diag", [A([1.0, 2.0])], {}), ("diag", [M], {}),
    ("average", [M], {"axis": 1}), ("average", [V], {"weights": A([1.0, 2.0, 0.0, 1.0])}),
    ("nan_to_num", [A([float("nan"), 1.0, float("inf"), -float("inf")])], {}),
    ("isclose", [V, A([0.5, -1.5, 2.1, 1e-9])], {}), ("allclose", [V, V], {}),
    ("copy", [M], {}), ("median", [M], {"axis": 1}), ("median", [V], {}),
    ("quantile", [V, 0.25], {}), ("cross", [A([1.0, 0.0, 0.0]), A([0.0, 1.0, 0.0])], {}),
    ("digitize", [V, A([0.0, 1.0])], {}), ("meshgrid", [A([1.0, 2.0]), A([3.0, 4.0, 5.0])], {}),
    ("relu", [V], {}), ("relu", [IV], {}), ("relu6", [A([-1.0, 3.0, 7.0])], {}),
    ("sigmoid", [V], {}), ("softplus", [V], {}), ("softsign", [V], {}), ("silu", [V], {}),
    ("swish", [V], {}), ("log_sigmoid", [V], {}), ("selu", [V], {}), ("elu", [V], {}),
    ("celu", [V], {}), ("gelu", [V], {}), ("gelu", [V], {"approximate": False}),
    ("leaky_relu", [V], {}), ("hard_sigmoid", [A([-4.0, -1.0, 0.0, 2.0])], {}),
    ("hard_silu", [A([-4.0, -1.0, 0.0, 2.0])], {}), ("hard_swish", [V], {}),
    ("tanh_shrink", [V], {}), ("softmax", [M], {}), ("softmax", [M], {"axis": 0}),
    ("log_softmax", [M], {}), ("one_hot", [A([0, 2, 1], "int32"), 3], {}),
    ("one_hot", [A([0, -1], "int32"), 2], {}), ("multi_hot", [A([[0, 2], [1, 1]], "int32"), 3], {}),
    ("binary_crossentropy", [A([1.0, 0.0, 1.0]), A([0.9, 0.2, 0.0])], {}),
    ("binary_crossentropy", [A([1.0, 0.0]), A([2.0, -1.0])], {"from_logits": True}),
    ("categorical_crossentropy", [A([[0.0, 1.0, 0.0]]), A([[0.2, 0.7, 0.1]])], {}),
    ("categorical_crossentropy", [A([[0.0, 1.0]]), A([[1.0, 2.0]])], {"from_logits": True}),
    ("sparse_categorical_crossentropy", [A([1, 0], "int32"), A([[0.2, 0.8], [0.6, 0.4]])], {}),
    ("moments", [M, [1]], {}), ("normalize", [M], {}),
    ("batch_normalization", [M, A([0.5, 1.5, -1.5]), A([0.25, 12.25, 20.25]), 1], {}),
    ("cast", [V, "int32"], {}), ("cast", [IV, "float32"], {}), ("cast", [IV, "bool"], {}),
    ("convert_to_tensor", [[1, 2]], {}), ("convert_to_tensor", [1.5], {}),
    ("convert_to_tensor", [[1.0, 2.0]], {"dtype": "float16"}),
    ("stop_gradient", [V], {}), ("slice", [M, [0, 1], [2, 2]], {}),
    ("slice_update", [M, [0, 1], A([[9.0, 8.0]])], {}),
    ("scatter", [A([[0], [2]], "int32"), A([1.0, 2.0]), [4]], {}),
    ("scatter_update", [V, A([[1], [3]], "int32"), A([7.0, 8.0])], {}),
    ("unstack", [M], {}), ("segment_sum", [V, A([0, 0, 1, 1], "int32")], {}),
    ("segment_max", [V, A([0, 1, 1, 2], "int32")], {}),
    ("segment_sum", [V, A([0, 0, 1, 1], "int32")], {"num_segments": 3}),
    ("top_k", [A([1.0, 3.0, 2.0, 3.0]), 2], {}), ("logsumexp", [M], {"axis": 1}),
    ("logsumexp", [M], {}), ("erf", [V], {}), ("erfinv", [UNIT], {}), ("rsqrt", [POS], {}),
    ("in_top_k", [A([1, 0], "int32"), A([[0.1, 0.9, 0.3], [0.2, 0.5, 0.4]]), 1], {}),
    ("extract_sequences", [A([1.0, 2.0, 3.0, 4.0, 5.0]), 3, 2], {}),
    ("norm", [M], {}), ("norm", [M], {"axis": 1}), ("norm", [M], {"ord": 1, "axis": 1}),
    ("norm", [M], {"axis": 1, "keepdims": True}), ("norm", [M], {"ord": "fro"}),
    ("norm", [V], {"ord": float("inf")}), ("inv", [A([[2.0, 1.0], [1.0, 3.0]])], {}),
    ("det", [A([[2.0, 1.0], [1.0, 3.0]])], {}), ("cholesky", [A([[4.0, 2.0], [2.0, 3.0]])], {}),
    ("solve", [A([[2.0, 1.0], [1.0, 3.0]]), A([[1.0], [2.0]])], {}),
    ("heaviside", [V, 0.5], {}), ("signbit", [A([-1.0, 0.0, -0.0, 2.0])], {}),
    ("logspace", [0.0, 2.0, 3], {}), ("array", [[1, 2]], {}), ("array", [[1.5]], {"dtype": "float16"}),
    ("fabs", [IV], {}), ("cbrt", [A([-8.0, 27.0, 0.0])], {}), ("sinc", [V], {}),
    ("isposinf", [A([1.0, float("inf"), -float("inf")])], {}),
    ("isneginf", [A([1.0, float("inf"), -float("inf")])], {}),
    ("fmod", [A([-3, 3, 5], "int32"), 2], {}), ("fmod", [A([-3.5, 3.5]), 2.0], {}),
    ("logaddexp2", [V, TIES], {}), ("divide_no_nan", [V, A([2.0, 0.0, 4.0, 0.0])], {}),
    ("bitwise_and", [IV, 6], {}), ("bitwise_or", [IV, 4], {}), ("bitwise_xor", [IV, 5], {}),
    ("bitwise_left_shift", [IV, 1], {}), ("bitwise_right_shift", [A([8, 5, -4], "int32"), 1], {}),
    ("left_shift", [IV, 2], {}), ("right_shift", [A([8, 5], "int32"), 1], {}),
    ("bitwise_invert", [IV], {}), ("bitwise_not", [A([0, 5, -1], "int8")], {}),
    ("append", [V, TIES], {}), ("append", [M, M], {"axis": 0}),
    ("diff", [V], {}), ("diff", [M], {"n": 2}), ("diff", [M], {"axis": 0}),
    ("ptp", [M], {}), ("ptp", [M], {"axis": 1}), ("fliplr", [M], {}), ("flipud", [M], {}),
    ("dstack", [[V, TIES]], {}),
    ("vsplit", [A([[1.0, 2.0], [3.0, 4.0]]), 2], {}), ("hsplit", [M, 3], {}),
    ("array_split", [A([1.0, 2.0, 3.0, 4.0, 5.0]), 3], {}),
    ("kron", [A([[1.0, 2.0], [3.0, 4.0]]), A([[0.0, 1.0], [1.0, 0.0]])], {}),
    ("kron", [V, A([1.0, 10.0])], {}), ("isin", [IV, A([0, 2], "int32")], {}),
    ("searchsorted", [A([1.0, 2.0, 2.0, 3.0]), A([2.0, 0.0, 5.0])], {}),
    ("searchsorted", [A([1.0, 2.0, 2.0, 3.0]), A([2.0])], {"side": "right"}),
    ("select", [[BV, A([True, True, False, False], "bool")], [V, TIES]], {}),
    ("trapezoid", [V], {}), ("trapezoid", [M], {"dx": 0.5}), ("vander", [A([1.0, 2.0, 3.0])], {}),
    ("vander", [A([1, 2], "int32")], {"N": 3, "increasing": True}),
    ("percentile", [V, 50], {}), ("nansum", [A([1.0, float("nan"), 2.0])], {}),
    ("nanprod", [A([3.0, float("nan"), 2.0])], {}), ("nanmax", [A([1.0, float("nan"), 2.0])], {}),
    ("nanmin", [A([[1.0, float("nan")], [0.5, 2.0]])], {"axis": 0}),
    ("nanmean", [A([1.0, float("nan"), 2.0])], {}), ("get_item", [M, 1], {}),
    ("bincount", [A([0, 1, 1, 3], "int32")], {}),
    ("bincount", [A([0, 1, 1], "int32")], {"weights": A([0.5, 1.0, 2.0]), "minlength": 4}),
    ("correlate", [A([1.0, 2.0, 3.0]), A([0.0, 1.0, 0.5])], {}),
    ("correlate", [A([1.0, 2.0, 3.0]), A([0.0, 1.0])], {"mode": "full"}),
    ("correlate", [A([1.0, 2.0, 3.0, 4.0]), A([1.0, 0.5, 0.25])], {"mode": "same"}),
    ("unravel_index", [A([5, 1], "int32"), [2, 3]], {}),
    ("hard_tanh", [A([-2.0, -0.5, 0.5, 3.0])], {}), ("squareplus", [V], {}),
    ("soft_shrink", [A([-2.0, -0.25, 0.5, 3.0])], {}), ("hard_shrink", [A([-2.0, -0.25, 0.5, 3.0])], {}),
    ("threshold", [V, 0.0, -5.0], {}), ("sparse_plus", [A([-2.0, -0.5, 0.5, 3.0])], {}),
    ("sparse_sigmoid", [A([-2.0, -0.5, 0.5, 3.0])], {}), ("glu", [M[:0] if False else A([[1.0, -2.0, 3.0, 0.5]])], {}),
    ("layer_normalization", [M], {}), ("layer_normalization", [M], {"gamma": A([1.0, 2.0, 0.5]), "beta": A([0.0, 1.0, 0.0]), "epsilon": 1e-5}),
    ("rms_normalization", [M], {}), ("rms_normalization", [M], {"scale": A([1.0, 2.0, 0.5]), "epsilon": 1e-5}),
    ("max_pool", [A([[[1.0], [3.0], [2.0], [5.0]]]), 2], {}),
    ("average_pool", [A([[[1.0], [3.0], [2.0], [5.0]]]), 2], {"strides": 1, "padding": "same"}),
    ("max_pool", [A([[[[1.0], [2.0]], [[3.0], [4.0]]]]), 2], {}),
    ("conv", [A([[[1.0], [2.0], [3.0], [4.0]]]), A([[[1.0]], [[0.5]]])], {}),
    ("conv", [A([[[1.0], [2.0], [3.0], [4.0]]]), A([[[1.0]], [[0.5]]])], {"padding": "same", "strides": 2}),
    ("depthwise_conv", [A([[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]), A([[[[1.0], [0.5]]]])], {}),
    ("dot_product_attention", [A([[[[1.0, 0.0]], [[0.0, 1.0]]]]), A([[[[1.0, 1.0]], [[0.5, -1.0]]]]), A([[[[1.0, 2.0]], [[3.0, 4.0]]]])], {}),
    ("dot_product_attention", [A([[[[1.0, 0.0]], [[0.0, 1.0]]]]), A([[[[1.0, 1.0]], [[0.5, -1.0]]]]), A([[[[1.0, 2.0]], [[3.0, 4.0]]]])], {"is_causal": True}),
    ("psnr", [A([[0.0, 0.5], [1.0, 0.25]]), A([[0.1, 0.5], [0.8, 0.25]]), 1.0], {}),
    ("qr", [A([[2.0, 1.0], [1.0, 3.0], [0.0, 1.0]])], {}), 
    ("svd", [A([[3.0, 0.0], [0.0, -2.0]])], {"compute_uv": False}),
    ("solve_triangular", [A([[2.0, 0.0], [1.0, 4.0]]), A([[2.0], [9.0]])], {"lower": True}),
    ("lstsq", [A([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), A([1.0, 2.0, 2.0])], {}),
    ("pinv", [A([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])], {}),
    ("matrix_rank", [A([[1.0, 2.0], [2.0, 4.0]])], {}),
    ("cholesky_inverse", [A([[2.0, 0.0], [1.0, 3.0]])], {}),
    ("erfc", [V], {}), ("logdet", [A([[4.0, 2.0], [2.0, 3.0]])], {}),
    ("saturate_cast", [A([-300.0, 5.5, 300.0]), "uint8"], {}),
    ("hamming", [5], {}), ("hanning", [4], {}), ("bartlett", [5], {}), ("blackman", [5], {}),
    ("kaiser", [5, 2.0], {}), ("i0", [V], {}), ("i0", [IV], {}),
    ("real", [V], {}), ("imag", [V], {}), ("conj", [V], {}), ("conjugate", [IV], {}),
    ("isreal", [V], {}), ("angle", [V], {}), ("fmax", [A([1.0, float("nan"), 3.0]), A([2.0, 1.0, float("nan")])], {}),
    ("fmin", [A([1.0, float("nan"), 3.0]), A([2.0, 1.0, float("nan")])], {}),
    ("gcd", [A([12, 7, 0, -8], "int32"), A([8, 0, 5, 6], "int32")], {}),
    ("lcm", [A([4, 7, 0, -6], "int32"), A([6, 3, 5, 4], "int32")], {}),
    ("ldexp", [V, A([1, 2, 0, 3], "int32")], {}), ("ldexp", [IV, A([1, 1, 1, 1], "int32")], {}),
    ("diagflat", [A([[1.0, 2.0]])], {}), ("diagflat", [A([1.0, 2.0])], {"k": -1}),
    ("geomspace", [1.0, 100.0, 3], {}), ("geomspace", [2.0, 16.0, 3], {"endpoint": False}),
    ("corrcoef", [A([[1.0, 2.0, 4.0], [2.0, 1.0, 0.5]])], {}),
    ("nanargmax", [A([1.0, float("nan"), 3.0])], {}), ("nanargmin", [A([[float("nan"), 1.0], [2.0, 0.5]])], {"axis": 1}),
    ("nancumsum", [A([1.0, float("nan"), 3.0])], {}), ("nancumprod", [A([2.0, float("nan"), 3.0])], {}),
    ("nanvar", [A([1.0, float("nan"), 3.0])], {}), ("nanstd", [A([[1.0, float("nan")], [2.0, 4.0]])], {"axis": 1}),
    ("histogram", [A([1.0, 2.0, 2.0, 3.0, 7.0])], {"bins": 3}),
    ("histogram", [A([1.0, 2.0, 2.0, 3.0, 7.0])], {"bins": 2, "range": (0.0, 4.0)}),
    ("segment_prod", [V, A([0, 0, 1, 1], "int32")], {"num_segments": 3}),
    ("sparsemax", [A([[1.0, 2.0, 0.5], [0.1, 0.2, 0.3]])], {}),
    ("depth_to_space", [A([[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]]]), 2], {}),
    ("space_to_depth", [A([[[[0.0], [1.0]], [[2.0], [3.0]]]]), 2], {}),
    ("separable_conv", [A([[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]), A([[[[1.0], [0.5]]]]), A([[[[1.0], [2.0]]]])], {}),
    ("conv_transpose", [A([[[[1.0], [2.0]], [[3.0], [4.0]]]]), A([[[[1.0]], [[0.5]]], [[[2.0]], [[0.0]]]])], {"strides": 2}),
    ("conv_transpose", [A([[[[1.0], [2.0]], [[3.0], [4.0]]]]), A([[[[1.0]], [[0.5]]], [[[2.0]], [[0.0]]]])], {"padding": "same"}),
    ("image.resize", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]]), [3, 3]], {}), ("image.resize", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]]), [4, 4]], {"interpolation": "nearest"}),
    ("image.rgb_to_grayscale", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]])], {}),
    ("image.pad_images", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]]), 1, 0, 0, 1], {}), ("image.pad_images", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]])], {"top_padding": 1, "left_padding": 1, "target_height": 4, "target_width": 3}),
    ("image.crop_images", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]]), 1, 0, 0, 1], {}), ("image.crop_images", [A([[[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [1.0, 1.0, 1.0]]]])], {"top_cropping": 1, "left_cropping": 0, "target_height": 1, "target_width": 1}),
    ("nanmax", [A([[float("nan"), float("nan")], [1.0, float("nan")]])], {"axis": 1}),
    ("nanmin", [A([[float("nan"), float("nan")], [1.0, float("nan")]])], {"axis": 1}),
    ("nanquantile", [A([1.0, float("nan"), 3.0, 4.0]), 0.25], {}),
    ("nanquantile", [A([[1.0, float("nan"), 3.0], [float("nan"), float("nan"), float("nan")]]), 0.5], {"axis": 1}),
    ("nanmedian", [A([[1.0, float("nan"), 3.0], [2.0, 5.0, 4.0]])], {"axis": 1, "keepdims": True}),
    ("nanpercentile", [A([1.0, float("nan"), 3.0, 4.0]), 75], {}),
    ("slogdet", [A([[2.0, 1.0], [1.0, -3.0]])], {}),
    ("segment_min", [A([1.0, 2.0, 3.0]), A([0, 0, 2], "int32")], {"num_segments": 3}),
    ("segment_min", [A([4, 2, 3], "int32"), A([0, 0, 2], "int32")], {"num_segments": 3}),
    ("cdist", [A([[0.0, 0.0], [1.0, 1.0]]), A([[3.0, 4.0], [1.0, 0.0], [0.0, 0.0]])], {}),
    ("polar", [A([1.0, 2.0, 0.5]), A([0.0, 1.0, -2.0])], {}),
    ("view_as_real", [{"c": [[1.0, 2.0], [-3.0, 0.5]]}], {}),
    ("view_as_complex", [A([[1.0, 2.0], [3.0, 4.0]])], {}),
    ("real", [{"c": [[1.0, 2.0], [-3.0, 0.5]]}], {}), ("imag", [{"c": [[1.0, 2.0], [-3.0, 0.5]]}], {}),
    ("conj", [{"c": [[1.0, 2.0], [-3.0, 0.5]]}], {}), ("angle", [{"c": [[1.0, 2.0], [-3.0, 0.0]]}], {}),
    ("isreal", [{"c": [[1.0, 2.0], [-3.0, 0.0]]}], {}), ("abs", [{"c": [[3.0, 4.0]]}], {}),
    ("unfold", [A([[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]]]), 2], {}),
    ("unfold", [A([[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0]]]]), [2, 3]],
     {"stride": 1, "padding": 1, "dilation": 1}),
    ("unfold", [A([[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]]]), 2], {"stride": 2, "dilation": 1}),
    ("fold", [A([[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 2.0, 0.0, 2.0, 0.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]]), [3, 4], 2], {}),
    ("fold", [A([[[0.0, 1.0, 2.0, 3.0], [1.0, 1.0, 1.0, 1.0], [2.0, 0.0, 2.0, 0.0], [1.0, 2.0, 3.0, 4.0]]]), [4, 4], 2], {"stride": 2}),
    ("fold", [A([[[1.0, 2.0, 3.0, 4.0], [3.0, 4.0, 5.0, 6.0], [5.0, 6.0, 7.0, 8.0], [7.0, 8.0, 9.0, 1.0]]]), [2, 3], 2], {"padding": [1, 0], "stride": [2, 1]}),
    ("view", [A([1.0, -2.0]), "int32"], {}), ("view", [A([1, 2], "int16"), "int32"], {}),
    ("view", [A([65536, 3], "int32"), "int16"], {}), ("view", [A([1.5]), "uint8"], {}),
    ("image.rgb_to_hsv", [A([[[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]], [[0.2, 0.4, 0.6], [0.5, 0.5, 0.5]], [[0.9, 0.1, 0.3], [0.0, 0.0, 0.0]]])], {}),
    ("image.hsv_to_rgb", [A([[[0.0, 0.5, 1.0], [0.3, 1.0, 0.5]], [[0.6, 0.4, 0.6], [0.95, 0.0, 0.5]], [[0.5, 0.2, 0.3], [0.75, 1.0, 1.0]]])], {}),
    ("fft", [[A([1.0, 2.0, 3.0, 4.0]), A([0.0, 1.0, 0.0, -1.0])]], {}),
    ("fft", [[M, A([[0.5, 0.0, 1.0], [1.0, 1.0, 1.0]])]], {}),
    ("fft2", [[M, A([[0.5, 0.0, 1.0], [1.0, 1.0, 1.0]])]], {}),
    ("ifft2", [[M, A([[0.5, 0.0, 1.0], [1.0, 1.0, 1.0]])]], {}),
    ("rfft", [M], {"fft_length": 4}),
    ("irfft", [[A([1.0, 2.0, 3.0]), A([0.5, 1.0, 2.0])]], {}),
    ("irfft", [[A([1.0, 2.0, 3.0]), A([0.5, 1.0, 2.0])]], {"fft_length": 5}),
    ("irfft", [[A([[1.0, 2.0], [0.0, 1.0]]), A([[0.0, 1.0], [1.0, 0.0]])]], {"fft_length": 6}),
    ("image.extract_patches", [A(np.arange(32.0).reshape(1, 4, 4, 2).tolist()), 2], {}),
    ("image.extract_patches", [A(np.arange(32.0).reshape(1, 4, 4, 2).tolist()), 3], {"strides": 1, "padding": "same"}),
    ("image.extract_patches", [A(np.arange(25.0).reshape(5, 5, 1).tolist()), [2, 3]], {"strides": [2, 1]}),
    ("image.extract_patches", [A(np.arange(25.0).reshape(1, 5, 5, 1).tolist()), 2], {"strides": 1, "dilation_rate": 2}),
    ("image.gaussian_blur", [A((np.arange(32.0).reshape(1, 4, 4, 2) % 5).tolist())], {}),
    ("image.gaussian_blur", [A((np.arange(25.0).reshape(5, 5, 1) % 3).tolist())], {"kernel_size": (5, 5), "sigma": (2.0, 2.0)}),
    # dtype corners found by comparing Keras's result dtypes op by op
    ("mod", [A([5, -3], "int8"), 2], {}), ("mod", [A([1.5, -2.5], "float16"), 2.5], {}),
    ("mod", [A([True, False], "bool"), A([True, True], "bool")], {}),
    ("fmod", [A([5, -3], "int8"), A([2, 2], "uint8")], {}), ("fmod", [A([True, False], "bool"), A([3, 2], "int8")], {}),
    ("hypot", [A([3, 5], "uint32"), A([4, 12], "int32")], {}), ("arctan2", [A([1.0, -1.0], "float16"), 2.5], {}),
    ("logaddexp", [A([1.0, -1.0], "float16"), 2.5], {}), ("heaviside", [A([-1, 0, 2], "int32"), 2], {}),
    ("heaviside", [A([-1, 0, 2], "int8"), A([3, 3, 3], "uint8")], {}), ("deg2rad", [A([180, 90], "int64")], {}),
    ("cbrt", [A([8, -27], "int64")], {}), ("abs", [BV], {}), ("sum", [A([200, 100], "uint8")], {}),
    ("prod", [A([20, 10], "uint8")], {}), ("trace", [A([[200, 1], [2, 100]], "uint8")], {}),
    ("cumsum", [A([100, 100, -50], "int8")], {}), ("cumsum", [A([200, 100], "uint8")], {}),
    ("cumprod", [A([3, 4, 5], "int8")], {}), ("max", [BV], {}), ("min", [A([[True, False], [True, True]], "bool")], {"axis": 1}),
    ("argmax", [BV], {}), ("argsort", [A([True, False, True, False], "bool")], {}),
    ("sort", [A([True, False, True, False], "bool")], {}), ("diff", [BV], {}),
    ("matmul", [A([[1, 2]], "int8"), A([[3], [4]], "uint8")], {}), ("matmul", [A([[True, False]], "bool"), A([[1], [4]], "int8")], {}),
    ("matmul", [A([[True, False]], "bool"), A([[True], [True]], "bool")], {}), ("dot", [A([1, 2], "int8"), A([3, 4], "uint8")], {}),
    ("outer", [A([True, False], "bool"), A([True, True], "bool")], {}),
    ("rot90", [M], {}), ("rot90", [M], {"k": 3}), ("rot90", [A([[1.0, 2.0], [3.0, 4.0]])], {"k": 2}),
    ("rot90", [A([[[1.0, 2.0]], [[3.0, 4.0]]])], {"axes": (1, 2)}),
    ("nextafter", [A([1.0, 0.0, -1.0, 2.0]), A([2.0, -1.0, -2.0, 2.0])], {}),
    ("nextafter", [A([1.0, 0.0], "float64"), A([2.0, 1.0], "float64")], {}),
    ("unique", [A([3, 1, 3, 2], "int32")], {}),
    ("unique", [A([[3.0, 1.0], [3.0, 2.0]])], {"return_inverse": True, "return_counts": True}),
    ("adaptive_average_pool", [A([[[0.0], [1.0], [2.0], [3.0], [4.0]]]), 3], {}),
    ("adaptive_max_pool", [A([[[0.0], [1.0], [2.0], [3.0], [4.0]]]), 2], {}),
    ("adaptive_average_pool", [A([[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]]), [2, 2]], {}),
    ("adaptive_max_pool", [A([[[0.0, 1.0, 2.0, 3.0, 4.0]]]), 2], {"data_format": "channels_first"}),
]


def _convert(value, ops, np):
    if isinstance(value, dict) and "c" in value:
        pairs = np.asarray(value["c"], dtype="float32")
        return ops.convert_to_tensor((pairs[..., 0] + 1j * pairs[..., 1]).astype("complex64"))
    if isinstance(value, dict) and "a" in value:
        return ops.convert_to_tensor(np.asarray(value["a"], dtype=value["dtype"]))
    if isinstance(value, list) and value and isinstance(value[0], dict):
        return [_convert(v, ops, np) for v in value]
    return value


def _encode(value, np):
    if isinstance(value, (list, tuple)):
        return {"seq": [_encode(v, np) for v in value]}
    arr = np.asarray(value)
    if arr.dtype.kind == "c":
        return {"values": np.stack([arr.real, arr.imag], -1).tolist(), "dtype": arr.dtype.name,
                "shape": list(arr.shape), "complex": True, "nonfinite": None}
    return {"values": np.where(np.isfinite(arr), arr, 0).tolist() if arr.dtype.kind == "f"
            else arr.tolist(), "dtype": str(value.dtype.name if hasattr(value.dtype, "name")
                                           else arr.dtype),
            "shape": list(arr.shape),
            "nonfinite": np.where(np.isnan(arr), "nan", np.where(np.isinf(arr), np.where(
                arr > 0, "inf", "-inf"), "")).tolist() if arr.dtype.kind == "f" else None}


def record():
    import keras
    import numpy as np
    import tensorflow as tf
    from keras import ops
    rows = []
    for name, args, kwargs in CASES:
        try:
            rows.append(_record_case(name, args, kwargs, ops, np, tf))
        except Exception as e:  # noqa: BLE001 (a case Keras refuses is left out)
            print(f"skipped {name}{args}: {type(e).__name__}: {e}"[:200])
    OUT.write_text(json.dumps({"keras": keras.__version__, "tensorflow": tf.__version__,
                               "cases": rows}, indent=0) + "\n")
    print(f"{len(rows)} cases -> {OUT}")


def _record_case(name, args, raw_kwargs, ops, np, tf):
    kwargs = raw_kwargs
    if True:
        inputs = [_convert(a, ops, np) for a in args]
        kwargs = {k: _convert(v, ops, np) for k, v in kwargs.items()}
        first = next((i for i, a in enumerate(inputs) if hasattr(a, "dtype")), None)
        grad = None
        if first is not None and inputs[first].dtype.name == "float32" and name not in (
                "cast", "stop_gradient", "slice_update", "unique", "argsort", "argmax", "argmin", "unstack", "split"):
            x = inputs[first]
            with tf.GradientTape() as tape:
                tape.watch(x)
                call = list(inputs)
                call[first] = x
                out = _resolve(ops, name)(*call, **kwargs)
                flat = tf.nest.flatten(out)
                total = sum(tf.reduce_sum(tf.cast(o, "float32")) for o in flat
                            if o.dtype.is_floating)
            g = tape.gradient(total, x) if not isinstance(total, int) else None
            grad = None if g is None else _encode(g.numpy(), np)
        else:
            out = _resolve(ops, name)(*inputs, **kwargs)
        return {"op": name, "args": args, "kwargs": raw_kwargs,
                "out": _encode(_to_numpy(out, np), np), "grad": grad}


def _resolve(ops, name):
    """`ops.sum` for "sum", `ops.image.resize` for "image.resize"."""
    for part in name.split("."):
        ops = getattr(ops, part)
    return ops


def _to_numpy(out, np):
    if isinstance(out, (list, tuple)):
        return [_to_numpy(o, np) for o in out]
    return out.numpy() if hasattr(out, "numpy") else np.asarray(out)


if __name__ == "__main__":
    sys.exit(record())
