"""The resampling Keras 2's `apply_affine_transform` does (scipy.ndimage's
affine_transform in Keras), in numpy: output pixel o samples the input at
matrix @ o + offset, by nearest (order 0) or linear (order 1) interpolation.

Points off the image, per fill mode (scipy's names and rules):
    constant  cval outside [0, n - 1]; no blending with cval
    nearest   the coordinate clamped to [0, n - 1]
    reflect   mirrored about the pixel edges (-0.5 and n - 0.5)
    wrap      periodic with period n - 1 (scipy's "wrap", not "grid-wrap")
    mirror    mirrored about the pixel centres (0 and n - 1)
"""

import numpy as np

__all__ = ["affine_resample"]

MODES = ("constant", "nearest", "reflect", "wrap", "mirror")


def _reflect(c, n):
    period = 2 * n
    c = np.mod(c + 0.5, period) - 0.5          # into [-0.5, 2n - 0.5)
    return np.where(c > n - 0.5, period - 1 - c, c)


def _mirror(c, n):
    if n == 1:
        return np.zeros_like(c)
    period = 2 * (n - 1)
    c = np.mod(np.abs(c), period)
    return np.where(c > n - 1, period - c, c)


def _wrap(c, n):
    if n == 1:
        return np.zeros_like(c)
    period = n - 1
    below = c + period * (np.trunc(-c / period) + 1)        # into (0, n - 1]
    above = c - period * np.trunc(c / period)               # into [0, n - 1)
    return np.where(c < 0, below, np.where(c > n - 1, above, c))


def _mapped(c, n, mode):
    """Coordinates `c` along a side of `n` pixels, folded into it by `mode`."""
    if mode == "nearest":
        return np.clip(c, 0, n - 1)
    if mode == "reflect":
        return _reflect(c, n)
    if mode == "mirror":
        return _mirror(c, n)
    if mode == "wrap":
        return _wrap(c, n)
    return c


def _sample(image, rows, cols, order, mode, cval):
    n_r, n_c = image.shape
    outside = np.zeros(rows.shape, bool)
    if mode == "constant":
        outside = (rows < 0) | (rows > n_r - 1) | (cols < 0) | (cols > n_c - 1)
    rows, cols = _mapped(rows, n_r, mode), _mapped(cols, n_c, mode)
    if order == 0:
        r = np.clip(np.floor(rows + 0.5).astype(np.intp), 0, n_r - 1)
        c = np.clip(np.floor(cols + 0.5).astype(np.intp), 0, n_c - 1)
        out = image[r, c].astype(np.float64)
    else:
        r0, c0 = np.floor(rows), np.floor(cols)
        fr, fc = rows - r0, cols - c0
        r0, c0 = r0.astype(np.intp), c0.astype(np.intp)
        r1, c1 = np.clip(r0 + 1, 0, n_r - 1), np.clip(c0 + 1, 0, n_c - 1)
        r0, c0 = np.clip(r0, 0, n_r - 1), np.clip(c0, 0, n_c - 1)
        img = image.astype(np.float64)
        top = img[r0, c0] * (1 - fc) + img[r0, c1] * fc
        bottom = img[r1, c0] * (1 - fc) + img[r1, c1] * fc
        out = top * (1 - fr) + bottom * fr
    return np.where(outside, cval, out)


def affine_resample(image, matrix, offset, order=1, mode="constant", cval=0.0):
    """One 2-D channel resampled at matrix @ (row, col) + offset."""
    if order not in (0, 1):
        return _spline_resample(image, matrix, offset, order, mode, cval)
    if mode not in MODES:
        raise RuntimeError("boundary mode not supported")
    image = np.asarray(image)
    grid = np.indices(image.shape, dtype=np.float64).reshape(2, -1)
    coords = np.asarray(matrix, np.float64) @ grid + np.asarray(offset, np.float64)[:, None]
    out = _sample(image, coords[0].reshape(image.shape), coords[1].reshape(image.shape),
                  order, mode, float(cval))
    if np.issubdtype(image.dtype, np.integer):
        out = np.rint(out)
    return out.astype(image.dtype)


def _spline_resample(image, matrix, offset, order, mode, cval):
    """Orders 2 to 5 (splines): scipy.ndimage's, as Keras computes every order,
    where SciPy is installed; Keras's ImportError where it is not."""
    try:
        from scipy import ndimage
    except ImportError:
        raise ImportError("This requires the scipy module. You can install it via "
                          "`pip install scipy`") from None
    return ndimage.affine_transform(image, matrix, offset, order=order, mode=mode, cval=cval)
