"""tools/tf_diff.py's recipes for dtypes and the everyday ops: special functions, safe
arithmetic, segments, bincount, confusion matrices, separable and transposed
convolutions, image ops, serialization and parsing. Importing the module registers them
(base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, F64, I32, I64, _i, _u, recipe


# ---------------------------------------------------------------- dtypes

@recipe("dtype", "as_dtype")
def _as_dtype(rng):
    for spec in ("float32", "int64", "bool", "uint8", np.float16, np.int8):
        yield Case(repr(spec), spec)
    yield Case("unknown", "float128x")


# ---------------------------------------------------------------- everyday ops

@recipe("special", "lgamma digamma")
def _special_unary(rng, name):
    yield Case("f32 positive", _u(rng, (3, 4), F32, 0.1, 8.0))
    yield Case("f64 negative", np.array([-0.5, -2.5, -3.7, 1e-3], F64))
    yield Case("poles", np.array([0.0, -1.0, -2.0], F32))
    yield Case("i32 (not float)", np.array([1, 2], I32))


@recipe("special", "xlogy xlog1py divide_no_nan multiply_no_nan")
def _safe_binary(rng, name):
    yield Case("f32 zeros", np.array([0.0, 0.0, 2.0, 1.0], F32), np.array([0.0, 3.0, 0.0, 4.0], F32))
    yield Case("f64 broadcast", _u(rng, (2, 3), F64, 0.1, 3), _u(rng, (3,), F64, 0.1, 3))
    yield Case("f32 nan", np.array([0.0, np.nan], F32), np.array([np.nan, 0.0], F32))


@recipe("special", "cumulative_logsumexp")
def _cum_lse(rng):
    yield Case("axis 1", _u(rng, (2, 4)), axis=1)
    yield Case("exclusive reverse", _u(rng, (5,), F64), exclusive=True, reverse=True)


@recipe("special", "polyval")
def _polyval(rng):
    yield Case("3 coeffs", [1.0, -2.0, 3.0], _u(rng, (4,)))
    yield Case("no coeffs", [], _u(rng, (3,)))


@recipe("segment", "segment_sum segment_mean segment_max segment_min segment_prod")
def _segment(rng, name):
    yield Case("f32 rows", _u(rng, (4, 3)), np.array([0, 0, 1, 3], I32))
    yield Case("i32", _i(rng, (5,)), np.array([0, 1, 1, 1, 2], I64))
    yield Case("unsorted ids", _u(rng, (3,)), np.array([1, 0, 2], I32))


@recipe("segment", "unsorted_segment_sum unsorted_segment_mean unsorted_segment_max "
        "unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n")
def _unsorted_segment(rng, name):
    yield Case("f32 negative ids", _u(rng, (4, 3)), np.array([2, -1, 0, 2], I32), 4)
    yield Case("i32", _i(rng, (5,)), np.array([0, 3, 1, 3, 0], I32), 5)
    yield Case("id too large", _u(rng, (2,)), np.array([0, 3], I32), 2)


@recipe("segment", "bincount")
def _bincount(rng):
    yield Case("plain", np.array([1, 1, 3, 0], I32))
    yield Case("weights minlength", np.array([1, 1, 3], I32), weights=_u(rng, (3,)), minlength=6)
    yield Case("maxlength", np.array([1, 4, 3], I32), maxlength=3)
    yield Case("axis -1", np.array([[1, 1], [3, 0]], I32), axis=-1)


@recipe("segment", "confusion_matrix")
def _confusion(rng):
    yield Case("inferred classes", np.array([1, 2, 4], I32), np.array([2, 2, 4], I32))
    yield Case("weights", np.array([0, 1, 1], I32), np.array([1, 1, 0], I32), num_classes=3,
               weights=np.array([1.0, 2.0, 3.0], F32), dtype="float32")


@recipe("nn", "depthwise_conv2d")
def _depthwise(rng):
    yield Case("same", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 3, 2)), [1, 1, 1, 1], "SAME")
    yield Case("valid stride 2", _u(rng, (1, 6, 6, 2)), _u(rng, (2, 2, 2, 1)), [1, 2, 2, 1],
               "VALID")


@recipe("nn", "separable_conv2d")
def _separable(rng):
    yield Case("same", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 3, 2)), _u(rng, (1, 1, 6, 4)),
               [1, 1, 1, 1], "SAME")


@recipe("nn", "conv2d_transpose")
def _conv2d_transpose(rng):
    yield Case("same stride 2", _u(rng, (2, 5, 5, 3)), _u(rng, (3, 3, 4, 3)), [2, 10, 10, 4], 2)
    yield Case("valid", _u(rng, (1, 4, 4, 2)), _u(rng, (3, 3, 1, 2)), [1, 9, 9, 1], 2, "VALID")


@recipe("nn", "conv1d_transpose")
def _conv1d_transpose(rng):
    yield Case("same stride 2", _u(rng, (2, 6, 3)), _u(rng, (3, 2, 3)), [2, 12, 2], 2)


@recipe("nn", "local_response_normalization lrn")
def _lrn(rng, name):
    yield Case("radius 2", _u(rng, (2, 3, 3, 6)), 2, 1.0, 0.5, 0.75)
    yield Case("defaults", _u(rng, (1, 2, 2, 12)))


@recipe("nn", "compute_average_loss")
def _average_loss(rng):
    yield Case("batch", _u(rng, (4,)))
    yield Case("weights global", _u(rng, (4,)), sample_weight=_u(rng, (4,)), global_batch_size=8)


@recipe("nn", "scale_regularization_loss")
def _scale_reg(rng):
    yield Case("vector", _u(rng, (3,)))


@recipe("image", "image.resize")
def _resize(rng):
    yield Case("bilinear down", _u(rng, (1, 4, 5, 2)), [2, 3])
    yield Case("bilinear up", _u(rng, (4, 5, 1)), [7, 9])
    yield Case("nearest i32", _i(rng, (1, 4, 5, 1)), [3, 11], method="nearest")
    yield Case("u8 bilinear", _i(rng, (3, 5, 2), np.uint8, 0, 255), [4, 4])
    yield Case("aspect", _u(rng, (3, 5, 2)), [8, 3], preserve_aspect_ratio=True)


@recipe("image", "flip_left_right flip_up_down per_image_standardization")
def _image_unary(rng, name):
    yield Case("hwc f32", _u(rng, (3, 5, 2)))
    yield Case("nhwc u8", _i(rng, (2, 3, 4, 1), np.uint8, 0, 255))


@recipe("image", "rot90")
def _rot90(rng):
    for k in range(4):
        yield Case(f"k={k}", _u(rng, (3, 5, 2)), k)
    yield Case("batch", _u(rng, (2, 3, 4, 1)), 1)


@recipe("io", "serialize_tensor")
def _serialize(rng):
    yield Case("f32", _u(rng, (2, 3)))
    yield Case("i64 empty", np.zeros((0, 2), I64))
    yield Case("string", np.array([b"ab", b"c"], object))


@recipe("io", "parse_tensor")
def _parse(rng):
    yield Case("i32", np.array(b'\x08\x03\x12\x04\x12\x02\x08\x03"\x0c\x01\x00\x00\x00'
                               b'\x02\x00\x00\x00\x03\x00\x00\x00', object), out_type="int32")
    yield Case("wrong type", np.array(b'\x08\x03\x12\x00"\x04\x01\x00\x00\x00', object),
               out_type="float32")


@recipe("misc", "ensure_shape")
def _ensure_shape(rng):
    yield Case("compatible", _u(rng, (2, 3)), [None, 3])
    yield Case("incompatible", _u(rng, (2, 3)), [3])


@recipe("misc", "identity_n")
def _identity_n(rng):
    yield Case("two", [_u(rng, (2,)), _i(rng, (3,))])
