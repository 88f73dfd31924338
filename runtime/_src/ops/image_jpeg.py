"""JPEG ops: `decode_jpeg`, `decode_and_crop_jpeg`, `extract_jpeg_shape`,
`encode_jpeg` (`tf.io` and `tf.image` names) and the JPEG-quality image
augmentations, on the numpy codec of `jpeg_decode` / `jpeg_encode`, whose
pixels and bytes are TensorFlow 2.21's (libjpeg-turbo's).

    tf.io.decode_jpeg(tf.io.read_file("cat.jpg"), channels=3)   # [h, w, 3] uint8
    tf.io.encode_jpeg(image, quality=90)                          # a scalar string
    tf.image.adjust_jpeg_quality(image, 30)                       # JPEG artefacts

As in TF, `decode_jpeg` also decodes PNG, BMP and GIF data (the format is
told by its first bytes); `decode_and_crop_jpeg` takes JPEG only.
"""

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops import jpeg_decode, jpeg_encode
from runtime._src.ops import shape_rules as rules
from runtime._src.ops.image_codecs import _bytes, _decode_image, _infer_decode, is_jpeg_bytes
from runtime._src.ops.image_color import convert_image_dtype
from runtime._src.ops.random_ops import uniform
from runtime._src.ops.stateless_random_ops import stateless_uniform

__all__ = ["decode_jpeg", "decode_and_crop_jpeg", "extract_jpeg_shape", "encode_jpeg",
           "adjust_jpeg_quality", "random_jpeg_quality", "stateless_random_jpeg_quality"]

_DCT_METHODS = ("", "INTEGER_FAST", "INTEGER_ACCURATE")


def _check_decode_attrs(channels, ratio, dct_method, op):
    if int(channels) not in (0, 1, 3, 4):
        raise InvalidArgumentError(f"`channels` must be 0, 1, 3 or 4 but got {channels}", op)
    if int(ratio) not in (1, 2, 4, 8):
        raise InvalidArgumentError(f"ratio must be 1, 2, 4, or 8, got {ratio}", op)
    if dct_method not in _DCT_METHODS:
        raise InvalidArgumentError("dct_method must be one of {'', 'INTEGER_FAST', "
                                   "'INTEGER_ACCURATE'}", op)


def _decode_kernel(data, attrs, crop, op):
    if attrs["channels"] == 4:
        raise InvalidArgumentError("JPEG does not support 4 channels", op)
    return jpeg_decode.decode(
        data, channels=attrs["channels"], dct_method=attrs["dct_method"],
        fancy=attrs["fancy_upscaling"], ratio=attrs["ratio"],
        try_recover_truncated=attrs["try_recover_truncated"],
        acceptable_fraction=attrs["acceptable_fraction"], crop=crop, op=op)


def _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated, acceptable_fraction,
                dct_method, op):
    _check_decode_attrs(channels, ratio, dct_method, op)
    return {"channels": int(channels), "ratio": int(ratio),
            "fancy_upscaling": bool(fancy_upscaling),
            "try_recover_truncated": bool(try_recover_truncated),
            "acceptable_fraction": float(acceptable_fraction), "dct_method": dct_method}


@define_op("DecodeJpeg", infer=lambda inputs, attrs: _infer_decode(
    inputs, {"channels": attrs["channels"], "dtype": dtypes.uint8}))
def _decode_jpeg(contents, **attrs):
    data = _bytes(contents)
    if not is_jpeg_bytes(data):          # TF's kernel decodes any image format
        return _decode_image(contents, channels=attrs["channels"], dtype=dtypes.uint8,
                             expand_animations=False, op="DecodeJpeg")
    return _decode_kernel(data, attrs, None, "DecodeJpeg")


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """[h, w, channels] uint8 pixels of a JPEG; `ratio` 2, 4 or 8 scales the
    image down while decoding; `dct_method` "" is INTEGER_FAST."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                        acceptable_fraction, dct_method, "DecodeJpeg")
    args = (convert_to_tensor(contents),)
    _infer_decode(args, {"channels": attrs["channels"], "dtype": dtypes.uint8})
    return apply("DecodeJpeg", args, attrs)


def _infer_crop(inputs, attrs):
    [(dtype, shape)] = _infer_decode(inputs, {"channels": attrs["channels"],
                                              "dtype": dtypes.uint8})
    window = rules.constant_value(inputs[1])
    if window is not None and np.size(window) == 4:
        shape = TensorShape([int(window[2]), int(window[3]), shape.dims[2]])
    return [(dtype, shape)]


@define_op("DecodeAndCropJpeg", infer=_infer_crop)
def _decode_and_crop(contents, crop_window, **attrs):
    op = "DecodeAndCropJpeg"
    window = np.asarray(crop_window).ravel()
    if window.size != 4:
        raise InvalidArgumentError(f"crop_size must have four elements [{window.size}]", op)
    data = _bytes(contents)
    if not is_jpeg_bytes(data):
        kind = "PNG" if data[:4] == b"\x89PNG" else "GIF" if data[:4] == b"GIF8" else (
            "BMP" if data[:2] == b"BM" else None)
        if kind:
            raise InvalidArgumentError(f"DecodeAndCropJpeg operation can run on JPEG only, "
                                       f"but detected {kind}.", op)
        raise InvalidArgumentError("Unknown image file format. One of JPEG, PNG, GIF, BMP "
                                   "required.", op)
    return _decode_kernel(data, attrs, [int(v) for v in window], op)


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                         name=None):
    """The window `crop_window` = [y, x, height, width] of a JPEG, decoded as
    TF decodes only that part (its pixels can differ from decode_jpeg's at
    the window's edges, as TF's do)."""
    attrs = _jpeg_attrs(channels, ratio, fancy_upscaling, try_recover_truncated,
                        acceptable_fraction, dct_method, "DecodeAndCropJpeg")
    args = (convert_to_tensor(contents), convert_to_tensor(crop_window, dtype=dtypes.int32))
    _infer_crop(args, attrs)
    return apply("DecodeAndCropJpeg", args, attrs)


def _infer_shape(inputs, attrs):
    if inputs[0].dtype != dtypes.string:
        raise ValueError(f"contents must be a string, got {inputs[0].dtype.name}")
    return [(attrs["output_type"], TensorShape([3]))]


@define_op("ExtractJpegShape", infer=_infer_shape)
def _extract_jpeg_shape(contents, *, output_type):
    data = _bytes(contents)
    try:
        shape = jpeg_decode.jpeg_shape(data)
    except InvalidArgumentError:
        raise InvalidArgumentError(f"Invalid JPEG data, size {len(data)}",
                                   "ExtractJpegShape") from None
    return np.array(shape, output_type.np_dtype)


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    """[height, width, channels] of a JPEG from its header, without decoding."""
    output_type = dtypes.as_dtype(output_type)
    if output_type not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"output_type must be int32 or int64, got {output_type.name}")
    args = (convert_to_tensor(contents),)
    attrs = {"output_type": output_type}
    _infer_shape(args, attrs)
    return apply("ExtractJpegShape", args, attrs)


def _check_image(image, format, op):
    if image.ndim != 3:
        raise InvalidArgumentError(f"image must be 3-dimensional{list(image.shape)}", op)
    channels = image.shape[2]
    want = {"grayscale": 1, "rgb": 3}.get(format)
    if want is not None and channels != want:
        raise InvalidArgumentError(f"format {format} expects {want} channels, got "
                                   f"[{','.join(str(d) for d in image.shape)}]", op)
    if channels not in (1, 3):
        raise InvalidArgumentError(f"image must have 1 or 3 channels, got "
                                   f"[{','.join(str(d) for d in image.shape)}]", op)
    if 0 in image.shape:
        raise InvalidArgumentError("JPEG encoding failed", op)


def _check_quality(quality, op):
    if not 0 <= int(quality) <= 100:
        raise InvalidArgumentError(f"quality must be in [0,100], got {int(quality)}", op)


def _infer_encode(inputs, attrs):
    image = inputs[0]
    if image.dtype != dtypes.uint8:
        raise TypeError(f"encode_jpeg: image must be uint8, got {image.dtype.name}")
    if image.shape.rank not in (None, 3):
        raise ValueError(f"encode_jpeg: image must be 3-dimensional, got shape {image.shape}")
    return [(dtypes.string, TensorShape([]))]


def _encode(image, quality, attrs, op):
    image = np.asarray(image)
    _check_image(image, attrs.get("format", ""), op)
    _check_quality(quality, op)
    return np.array(jpeg_encode.encode(
        image, quality=int(quality), progressive=attrs.get("progressive", False),
        optimize_size=attrs.get("optimize_size", False),
        chroma_downsampling=attrs.get("chroma_downsampling", True),
        density_unit=attrs.get("density_unit", "in"), x_density=attrs.get("x_density", 300),
        y_density=attrs.get("y_density", 300),
        xmp_metadata=attrs.get("xmp_metadata", b"")), dtype=object)


@define_op("EncodeJpeg", infer=_infer_encode)
def _encode_jpeg(image, **attrs):
    return _encode(image, attrs["quality"], attrs, "EncodeJpeg")


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300,
                xmp_metadata="", name=None):
    """JPEG bytes (a scalar string) of a [h, w, 1 or 3] uint8 image; byte for
    byte what TF writes for the same arguments."""
    if format not in ("", "grayscale", "rgb"):
        raise InvalidArgumentError(f"format must be one of '', 'grayscale', 'rgb', got "
                                   f"{format!r}", "EncodeJpeg")
    if density_unit not in ("in", "cm"):
        raise InvalidArgumentError(f"density_unit must be 'in' or 'cm', got "
                                   f"{density_unit!r}", "EncodeJpeg")
    _check_quality(quality, "EncodeJpeg")
    xmp = xmp_metadata.encode() if isinstance(xmp_metadata, str) else bytes(xmp_metadata)
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size),
             "chroma_downsampling": bool(chroma_downsampling), "density_unit": density_unit,
             "x_density": int(x_density), "y_density": int(y_density), "xmp_metadata": xmp}
    args = (convert_to_tensor(image, dtype=dtypes.uint8),)
    _infer_encode(args, attrs)
    return apply("EncodeJpeg", args, attrs)


@define_op("EncodeJpegVariableQuality", infer=lambda inputs, attrs: _infer_encode(
    inputs[:1], attrs))
def _encode_variable(image, quality):
    return _encode(image, int(quality), {}, "EncodeJpegVariableQuality")


not_differentiable("DecodeJpeg", "DecodeAndCropJpeg", "ExtractJpegShape", "EncodeJpeg",
                   "EncodeJpegVariableQuality")


def adjust_jpeg_quality(image, jpeg_quality, dct_method="", name=None):
    """The image encoded as a JPEG of `jpeg_quality` (0 to 100) and decoded
    again, in its own dtype (floats are taken as [0, 1])."""
    image = convert_to_tensor(image)
    channels = image.shape.dims[-1] if image.shape.rank else None
    original = image.dtype
    image = convert_image_dtype(image, dtypes.uint8, saturate=True)
    quality = convert_to_tensor(jpeg_quality, dtype=dtypes.int32)
    encoded = apply("EncodeJpegVariableQuality", (image, quality), {})
    decoded = decode_jpeg(encoded, channels=channels or 0, dct_method=dct_method)
    return convert_image_dtype(decoded, original, saturate=True)


def _check_range(lo, hi):
    if lo < 0 or hi < 0 or lo > 100 or hi > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if lo >= hi:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality at a quality drawn uniformly from [min, max)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = uniform([], min_jpeg_quality, max_jpeg_quality, dtype=dtypes.int32, seed=seed)
    return adjust_jpeg_quality(image, quality)


def stateless_random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed):
    """adjust_jpeg_quality at a quality drawn from [min, max) by the
    stateless generator with `seed` (TF's draw for the same seed)."""
    _check_range(min_jpeg_quality, max_jpeg_quality)
    quality = stateless_uniform([], seed, min_jpeg_quality, max_jpeg_quality,
                                dtype=dtypes.int32)
    return adjust_jpeg_quality(image, quality)
