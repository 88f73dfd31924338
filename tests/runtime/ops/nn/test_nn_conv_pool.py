"""`tf.nn` convolutions and pooling (`conv1d conv2d convolution max_pool1d/2d
avg_pool1d/2d max_pool avg_pool`), `embedding_lookup` and
`batch_normalization`, one record per case, each run eagerly and inside
`tf.function`, against references written as direct loops in float64 (padding
as TF defines it: SAME splits the padding with the odd element after; SAME
average pooling divides by the real elements; sharded embeddings as TF2's
'div' rule assigns ids), checking value, dtype and static shape, and the
errors TensorFlow raises.
"""

import numpy as np
import pytest

import runtime as tf
from tests.runtime.op_records import Rec, check_eager, check_in_function

RNG = np.random.RandomState(23)
X = RNG.uniform(-2, 2, (2, 6, 7, 3)).astype(np.float32)
F = RNG.uniform(-1, 1, (3, 2, 3, 4)).astype(np.float32)
X1 = RNG.uniform(-2, 2, (2, 9, 3)).astype(np.float32)
F1 = RNG.uniform(-1, 1, (3, 3, 5)).astype(np.float32)
XG = RNG.uniform(-2, 2, (1, 5, 5, 4)).astype(np.float32)     # grouped: 2 groups of 2
FG = RNG.uniform(-1, 1, (2, 2, 2, 6)).astype(np.float32)
XI = RNG.randint(-5, 6, (1, 4, 5, 2)).astype(np.int32)
FI = RNG.randint(-3, 4, (2, 2, 2, 3)).astype(np.int32)


def f64(x):
    return np.asarray(x, np.float64)


# --- independent references ----------------------------------------------------------

def same_pads(size, window, stride, dilation=1):
    """TF's SAME: output ceil(size / stride), padding split, the odd one after."""
    out = -(-size // stride)
    reach = (window - 1) * dilation + 1
    total = max((out - 1) * stride + reach - size, 0)
    return total // 2, total - total // 2


def ref_conv2d(x, f, strides=(1, 1), padding="VALID", dilations=(1, 1)):
    """Direct loops: out[n, i, j, o] = sum over the window and the group's channels."""
    x, f = f64(x), f64(f)
    if padding == "SAME":
        padding = [same_pads(x.shape[1 + d], f.shape[d], strides[d], dilations[d])
                   for d in range(2)]
    elif padding == "VALID":
        padding = [(0, 0), (0, 0)]
    xp = np.pad(x, [(0, 0), padding[0], padding[1], (0, 0)])
    kh, kw, cin, cout = f.shape
    groups = x.shape[3] // cin
    per_group = cout // groups
    oh = max((xp.shape[1] - (kh - 1) * dilations[0] - 1) // strides[0] + 1, 0)
    ow = max((xp.shape[2] - (kw - 1) * dilations[1] - 1) // strides[1] + 1, 0)
    out = np.zeros((x.shape[0], oh, ow, cout))
    for n in range(x.shape[0]):
        for i in range(oh):
            for j in range(ow):
                for o in range(cout):
                    g = o // per_group
                    total = 0.0
                    for a in range(kh):
                        for b in range(kw):
                            pixel = xp[n, i * strides[0] + a * dilations[0],
                                       j * strides[1] + b * dilations[1],
                                       g * cin:(g + 1) * cin]
                            total += float(pixel @ f[a, b, :, o])
                    out[n, i, j, o] = total
    return out


def ref_pool2d(x, ksize, strides, padding, reduce):
    """Direct loops over windows, reducing only the real elements in each."""
    x = f64(x)
    n, h, w, c = x.shape
    if padding == "SAME":
        pads = [same_pads(h, ksize[0], strides[0]), same_pads(w, ksize[1], strides[1])]
    elif padding == "VALID":
        pads = [(0, 0), (0, 0)]
    else:
        pads = padding
    oh = max((h + sum(pads[0]) - ksize[0]) // strides[0] + 1, 0)
    ow = max((w + sum(pads[1]) - ksize[1]) // strides[1] + 1, 0)
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            top, left = i * strides[0] - pads[0][0], j * strides[1] - pads[1][0]
            rows = [r for r in range(top, top + ksize[0]) if 0 <= r < h]
            cols = [q for q in range(left, left + ksize[1]) if 0 <= q < w]
            window = x[:, rows][:, :, cols]
            out[:, i, j, :] = reduce(window.reshape(n, -1, c), axis=1)
    return out


def nchw(a):
    return np.ascontiguousarray(np.moveaxis(a, -1, 1))


# --- records ----------------------------------------------------------------------------

def _conv2d():
    c = tf.nn.conv2d
    explicit = [[0, 0], [1, 2], [0, 3], [0, 0]]
    return [
        Rec("conv2d_valid", c, [X, F], dict(strides=1, padding="VALID"), ref_conv2d(X, F),
            np.float32),
        Rec("conv2d_same", c, [X, F], dict(strides=1, padding="SAME"),
            ref_conv2d(X, F, padding="SAME"), np.float32),
        Rec("conv2d_same_stride2", c, [X, F], dict(strides=2, padding="SAME"),
            ref_conv2d(X, F, (2, 2), "SAME"), np.float32),
        Rec("conv2d_valid_strides_pair", c, [X, F], dict(strides=[2, 3], padding="VALID"),
            ref_conv2d(X, F, (2, 3)), np.float32),
        Rec("conv2d_strides_full", c, [X, F], dict(strides=[1, 3, 2, 1], padding="SAME"),
            ref_conv2d(X, F, (3, 2), "SAME"), np.float32),
        Rec("conv2d_dilated_same", c, [X, F], dict(strides=1, padding="SAME", dilations=2),
            ref_conv2d(X, F, padding="SAME", dilations=(2, 2)), np.float32),
        Rec("conv2d_dilated_strided", c, [X, F],
            dict(strides=2, padding="VALID", dilations=[1, 2]),
            ref_conv2d(X, F, (2, 2), dilations=(1, 2)), np.float32),
        Rec("conv2d_explicit", c, [X, F], dict(strides=[1, 2], padding=explicit),
            ref_conv2d(X, F, (1, 2), [(1, 2), (0, 3)]), np.float32),
        Rec("conv2d_grouped", c, [XG, FG], dict(strides=1, padding="SAME"),
            ref_conv2d(XG, FG, padding="SAME"), np.float32),
        Rec("conv2d_f64", c, [f64(X), f64(F)], dict(strides=2, padding="SAME"),
            ref_conv2d(X, F, (2, 2), "SAME"), np.float64, 1e-12),
        Rec("conv2d_f16", c, [X.astype(np.float16), F.astype(np.float16)],
            dict(strides=1, padding="VALID"),
            ref_conv2d(X.astype(np.float16), F.astype(np.float16)), np.float16, 2e-2),
        Rec("conv2d_int32", c, [XI, FI], dict(strides=1, padding="SAME"),
            ref_conv2d(XI, FI, padding="SAME"), np.int32),
        Rec("conv2d_batch_dims", c, [X.reshape(1, 2, 6, 7, 3), F],
            dict(strides=1, padding="SAME"), ref_conv2d(X, F, padding="SAME")[None],
            np.float32),
        Rec("conv2d_nchw", c, [nchw(X), F], dict(strides=[1, 1, 2, 1], padding="SAME",
                                                  data_format="NCHW"),
            nchw(ref_conv2d(X, F, (2, 1), "SAME")), np.float32),
        Rec("conv2d_empty_batch", c, [X[:0], F], dict(strides=1, padding="SAME"),
            np.zeros((0, 6, 7, 4)), np.float32),
        Rec("conv2d_no_out_channels", c, [X, F[..., :0]], dict(strides=1, padding="SAME"),
            np.zeros((2, 6, 7, 0)), np.float32),
    ]


def _conv1d():
    x2, f2 = X1[:, None], F1[None]                     # the same data as a 2-D conv
    return [
        Rec("conv1d_valid", tf.nn.conv1d, [X1, F1], dict(stride=1, padding="VALID"),
            ref_conv2d(x2, f2)[:, 0], np.float32),
        Rec("conv1d_same_stride2", tf.nn.conv1d, [X1, F1], dict(stride=2, padding="SAME"),
            ref_conv2d(x2, f2, (1, 2), "SAME")[:, 0], np.float32),
        Rec("conv1d_stride_list", tf.nn.conv1d, [X1, F1], dict(stride=[1, 2, 1],
                                                              padding="VALID"),
            ref_conv2d(x2, f2, (1, 2))[:, 0], np.float32),
        Rec("conv1d_dilated", tf.nn.conv1d, [X1, F1], dict(stride=1, padding="SAME",
                                                          dilations=2),
            ref_conv2d(x2, f2, padding="SAME", dilations=(1, 2))[:, 0], np.float32),
        Rec("conv1d_ncw", tf.nn.conv1d, [nchw(X1), F1], dict(stride=1, padding="SAME",
                                                            data_format="NCW"),
            nchw(ref_conv2d(x2, f2, padding="SAME")[:, 0]), np.float32),
        Rec("convolution_1d", tf.nn.convolution, [X1, F1], dict(padding="SAME"),
            ref_conv2d(x2, f2, padding="SAME")[:, 0], np.float32),
        Rec("convolution_2d", tf.nn.convolution, [X, F], dict(strides=2),
            ref_conv2d(X, F, (2, 2)), np.float32),
        Rec("convolution_2d_dilated", tf.nn.convolution, [X, F],
            dict(padding="SAME", dilations=[2, 1]),
            ref_conv2d(X, F, padding="SAME", dilations=(2, 1)), np.float32),
    ]


def _pools():
    recs = []
    mx, mean = np.max, np.mean
    # (name, ksize, strides, padding, the spatial window and strides they mean)
    for name, ksize, strides, padding, k, s in [
            ("2_2_valid", 2, 2, "VALID", (2, 2), (2, 2)),
            ("3_2_same", 3, 2, "SAME", (3, 3), (2, 2)),
            ("3x2_1x2_same", [3, 2], [1, 2], "SAME", (3, 2), (1, 2)),
            ("full_lists", [1, 2, 3, 1], [1, 2, 1, 1], "VALID", (2, 3), (2, 1)),
            ("big_window_same", 5, 1, "SAME", (5, 5), (1, 1))]:
        kw = dict(ksize=ksize, strides=strides, padding=padding)
        recs.append(Rec(f"max_pool2d_{name}", tf.nn.max_pool2d, [X], kw,
                        ref_pool2d(X, k, s, padding, mx), np.float32))
        recs.append(Rec(f"avg_pool2d_{name}", tf.nn.avg_pool2d, [X], kw,
                        ref_pool2d(X, k, s, padding, mean), np.float32))
    explicit = [[0, 0], [1, 1], [0, 2], [0, 0]]
    recs += [
        Rec("max_pool2d_explicit", tf.nn.max_pool2d, [X], dict(ksize=3, strides=2,
                                                               padding=explicit),
            ref_pool2d(X, (3, 3), (2, 2), [(1, 1), (0, 2)], mx), np.float32),
        Rec("max_pool2d_int32", tf.nn.max_pool2d, [XI], dict(ksize=2, strides=1,
                                                             padding="SAME"),
            ref_pool2d(XI, (2, 2), (1, 1), "SAME", mx), np.int32),
        Rec("max_pool2d_negative_same", tf.nn.max_pool2d, [-np.abs(X) - 1],
            dict(ksize=2, strides=2, padding="SAME"),
            ref_pool2d(-np.abs(X) - 1, (2, 2), (2, 2), "SAME", mx), np.float32),
        Rec("max_pool2d_f64", tf.nn.max_pool2d, [f64(X)], dict(ksize=2, strides=2,
                                                               padding="SAME"),
            ref_pool2d(X, (2, 2), (2, 2), "SAME", mx), np.float64, 1e-12),
        Rec("avg_pool2d_f64", tf.nn.avg_pool2d, [f64(X)], dict(ksize=3, strides=2,
                                                               padding="SAME"),
            ref_pool2d(X, (3, 3), (2, 2), "SAME", mean), np.float64, 1e-12),
        Rec("avg_pool2d_f16", tf.nn.avg_pool2d, [X.astype(np.float16)],
            dict(ksize=2, strides=2, padding="SAME"),
            ref_pool2d(X.astype(np.float16), (2, 2), (2, 2), "SAME", mean), np.float16, 2e-3),
        Rec("max_pool2d_nchw", tf.nn.max_pool2d, [nchw(X)],
            dict(ksize=2, strides=2, padding="SAME", data_format="NCHW"),
            nchw(ref_pool2d(X, (2, 2), (2, 2), "SAME", mx)), np.float32),
        Rec("avg_pool2d_empty_batch", tf.nn.avg_pool2d, [X[:0]],
            dict(ksize=2, strides=2, padding="SAME"), np.zeros((0, 3, 4, 3)), np.float32),
        Rec("max_pool1d_same", tf.nn.max_pool1d, [X1], dict(ksize=3, strides=2,
                                                            padding="SAME"),
            ref_pool2d(X1[:, None], (1, 3), (1, 2), "SAME", mx)[:, 0], np.float32),
        Rec("avg_pool1d_valid", tf.nn.avg_pool1d, [X1], dict(ksize=[2], strides=[1, 3, 1],
                                                             padding="VALID"),
            ref_pool2d(X1[:, None], (1, 2), (1, 3), "VALID", mean)[:, 0], np.float32),
        Rec("max_pool_rank3", tf.nn.max_pool, [X1], dict(ksize=2, strides=2,
                                                         padding="VALID"),
            ref_pool2d(X1[:, None], (1, 2), (1, 2), "VALID", mx)[:, 0], np.float32),
        Rec("max_pool_rank4", tf.nn.max_pool, [X], dict(ksize=2, strides=2, padding="SAME"),
            ref_pool2d(X, (2, 2), (2, 2), "SAME", mx), np.float32),
        Rec("avg_pool_rank4", tf.nn.avg_pool, [X], dict(ksize=3, strides=1, padding="SAME"),
            ref_pool2d(X, (3, 3), (1, 1), "SAME", mean), np.float32),
    ]
    return recs


def ref_embedding(shards, ids, max_norm=None):
    """Each id looked up one at a time: TF2's 'div' rule picks the shard."""
    shards = [f64(p) for p in shards]
    total = sum(len(p) for p in shards)
    per, extras = divmod(total, len(shards))
    ids = np.asarray(ids)
    rows = []
    for i in ids.ravel():
        if i < extras * (per + 1):
            shard, local = i // (per + 1), i % (per + 1)
        else:
            shard, local = extras + (i - extras * (per + 1)) // per, (i - extras) % per
        row = shards[shard][local]
        if max_norm is not None:
            norm = np.sqrt(np.sum(row ** 2))
            row = row * max_norm / max(norm, max_norm)
        rows.append(row)
    return np.array(rows).reshape(ids.shape + shards[0].shape[1:])


def ref_batch_norm(x, mean, var, offset, scale, eps):
    y = (f64(x) - f64(mean)) / np.sqrt(f64(var) + eps)
    return y * (1.0 if scale is None else f64(scale)) + (0.0 if offset is None else f64(offset))


def _embedding_and_batch_norm():
    p = RNG.uniform(-2, 2, (7, 3)).astype(np.float32)
    ids = np.array([[0, 6, 2], [3, 3, 1]], np.int32)
    shards3 = [p[:3], p[3:5], p[5:]]                 # 7 rows in 3 shards: 3, 2, 2
    odd = [p[:4], p[4:5]]                            # not TF's layout for 5 rows: 3, 2
    emb = tf.nn.embedding_lookup
    x = RNG.uniform(-3, 3, (4, 5, 3)).astype(np.float32)
    mean = RNG.uniform(-1, 1, (3,)).astype(np.float32)
    var = RNG.uniform(0.5, 2, (3,)).astype(np.float32)
    offset = RNG.uniform(-1, 1, (3,)).astype(np.float32)
    scale = RNG.uniform(0.5, 2, (3,)).astype(np.float32)
    bn = tf.nn.batch_normalization
    return [
        Rec("embedding_2d_ids", emb, [p, ids], {}, ref_embedding([p], ids), np.float32),
        Rec("embedding_scalar_id", emb, [p, np.int64(4)], {}, ref_embedding([p], 4),
            np.float32),
        Rec("embedding_int_params", emb, [XI[0, 0], [1, 0, 1]], {},
            ref_embedding([XI[0, 0]], [1, 0, 1]), np.int32),
        Rec("embedding_1d_params", emb, [p[:, 0], ids], {}, ref_embedding([p[:, 0]], ids),
            np.float32),
        Rec("embedding_empty_ids", emb, [p, np.zeros((0,), np.int32)], {}, np.zeros((0, 3)),
            np.float32),
        Rec("embedding_sharded", lambda i: emb(shards3, i), [ids], {},
            ref_embedding(shards3, ids), np.float32),
        Rec("embedding_sharded_odd_layout", lambda i: emb(odd, i), [[0, 1, 2, 3]], {},
            ref_embedding(odd, [0, 1, 2, 3]), np.float32),
        Rec("embedding_max_norm", emb, [p, ids], dict(max_norm=1.5),
            ref_embedding([p], ids, 1.5), np.float32),
        Rec("embedding_sharded_max_norm", lambda i: emb(shards3, i, max_norm=2.0), [ids], {},
            ref_embedding(shards3, ids, 2.0), np.float32),
        Rec("embedding_1d_max_norm", emb, [p[:, 0], ids], dict(max_norm=1.0),
            np.clip(f64(p[:, 0])[ids], -1, 1), np.float32),
        Rec("batch_norm_full", bn, [x, mean, var, offset, scale], dict(variance_epsilon=1e-3),
            ref_batch_norm(x, mean, var, offset, scale, 1e-3), np.float32),
        Rec("batch_norm_no_offset_scale", lambda a, m, v: bn(a, m, v, None, None, 1e-3),
            [x, mean, var], {}, ref_batch_norm(x, mean, var, None, None, 1e-3), np.float32),
        Rec("batch_norm_python_numbers", lambda a: bn(a, 0.5, 2.0, 0.25, 3.0, 1e-2), [x], {},
            ref_batch_norm(x, 0.5, 2.0, 0.25, 3.0, 1e-2), np.float32),
        Rec("batch_norm_moments_shape", bn,
            [x, mean.reshape(1, 1, 3), var.reshape(1, 1, 3), offset, scale],
            dict(variance_epsilon=0.1), ref_batch_norm(x, mean, var, offset, scale, 0.1),
            np.float32),
        Rec("batch_norm_f64", bn, [f64(x), f64(mean), f64(var), f64(offset), f64(scale)],
            dict(variance_epsilon=1e-3), ref_batch_norm(x, mean, var, offset, scale, 1e-3),
            np.float64, 1e-12),
    ]


RECORDS = _conv2d() + _conv1d() + _pools() + _embedding_and_batch_norm()


# atol = rtol / 10: float32 sums of a dozen products cancel to ~1e-2 at worst.
@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_eager(rec):
    check_eager(rec, atol_factor=0.1)


@pytest.mark.parametrize("rec", RECORDS, ids=repr)
def test_in_function(rec):
    check_in_function(rec, atol_factor=0.1)


def test_unknown_dims_stay_unknown_while_tracing():
    shapes = []

    @tf.function(input_signature=[tf.TensorSpec([None, None, 7, 3], tf.float32)])
    def f(x):
        y = tf.nn.conv2d(x, tf.constant(F), 2, "SAME")
        z = tf.nn.max_pool2d(x, 2, 2, "VALID")
        shapes.append((tuple(y.shape), tuple(z.shape)))
        return y
    f(tf.constant(X))
    assert shapes == [((None, None, 4, 4), (None, None, 3, 3))]


def test_conv2d_python_values_and_numpy():
    got = tf.nn.conv2d(X.tolist(), F, 1, "VALID")
    np.testing.assert_allclose(got.numpy(), ref_conv2d(X, F), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("strides, dilations", [((1, 1), (1, 1)), ((2, 3), (1, 1)),
                                                ((1, 2), (2, 1))], ids=["plain", "strided",
                                                                        "dilated"])
def test_add_patches_is_the_adjoint_of_patches(strides, dilations):
    """<patches(x), c> == <x, add_patches(c)>: what a convolution's input gradient needs."""
    from runtime._src.ops.conv_ops import add_patches, patches, window_padding
    x = RNG.standard_normal((2, 7, 8, 3))
    out = [window_padding(x.shape[1 + d], (3, 2)[d], strides[d], dilations[d], "VALID")[2]
           for d in range(2)]
    view = patches(x, (3, 2), strides, dilations, out)
    c = RNG.standard_normal(view.shape)
    back = add_patches(c, x.shape, strides, dilations)
    assert back.shape == x.shape
    np.testing.assert_allclose(np.sum(view * c), np.sum(x * back), rtol=1e-12)


def test_conv2d_is_a_matrix_product_not_a_pixel_loop():
    """A 32x32x16 batch of 8 with 3x3x16x32 filters runs in well under a second of
    CPU (about 17 ms; a pixel loop takes seconds). CPU time, not wall time: a
    loaded machine that leaves the test waiting for a core does not fail it."""
    import time
    x = tf.constant(RNG.standard_normal((8, 32, 32, 16)).astype(np.float32))
    w = tf.constant(RNG.standard_normal((3, 3, 16, 32)).astype(np.float32))
    start = time.process_time()
    tf.nn.conv2d(x, w, 1, "SAME")
    tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert time.process_time() - start < 1.0


# --- errors -------------------------------------------------------------------------------

def _in_graph(fn, *args):
    return tf.function(lambda *a: fn(*a))(*[tf.constant(a) for a in args])


def test_valid_window_larger_than_input():
    """Eagerly TF's kernel returns an empty result; its shape rule (tracing) refuses."""
    big = np.ones((7, 7, 3, 4), np.float32)
    assert tf.nn.conv2d(X, big, 1, "VALID").shape == (2, 0, 1, 4)
    assert tf.nn.max_pool2d(X, 7, 1, "VALID").shape == (2, 0, 1, 3)
    with pytest.raises(ValueError, match="Negative dimension size caused by subtracting 7 "
                                         "from 6"):
        _in_graph(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), X, big)


def test_channel_mismatch():
    f = np.ones((2, 2, 2, 4), np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Conv2D: Depth of input \(3\) is not a multiple of input depth "
                             r"of filter \(2\)"):
        tf.nn.conv2d(X, f, 1, "SAME")
    with pytest.raises(ValueError, match="Depth of input"):
        _in_graph(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), X, f)


@pytest.mark.parametrize("x, f, match", [
    (X[0], F, "input must be at least 4-dimensional"),
    (X, F[0], "filter must be 4-dimensional"),
], ids=["input_rank3", "filter_rank3"])
def test_conv2d_rank_errors(x, f, match):
    with pytest.raises(tf.errors.InvalidArgumentError, match=match):
        tf.nn.conv2d(x, f, 1, "SAME")
    with pytest.raises(ValueError, match=match):
        _in_graph(lambda a, b: tf.nn.conv2d(a, b, 1, "SAME"), x, f)


def test_pool_rank_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="MaxPool: input must be 4-dim"):
        tf.nn.max_pool2d(X[0], 2, 2, "SAME")


def test_dtype_errors():
    with pytest.raises(TypeError, match="Conv2D: input and filters must have the same dtype"):
        tf.nn.conv2d(X, f64(F), 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Conv2D: expected one of bfloat16, float16, float32, float64, "
                                        "int32, got a int64 tensor"):
        tf.nn.conv2d(X.astype(np.int64), F.astype(np.int64), 1, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="AvgPool: expected a floating-point tensor"):
        tf.nn.avg_pool2d(XI, 2, 2, "SAME")
    with pytest.raises(tf.errors.InvalidArgumentError, match="MaxPool: expected a numeric tensor"):
        tf.nn.max_pool2d(X > 0, 2, 2, "SAME")


@pytest.mark.parametrize("call, error, match", [
    (lambda: tf.nn.conv2d(X, F, [1, 2, 2], "SAME"), ValueError,
     r"strides should be of length 1, 2 or 4. Received: strides=\[1, 2, 2\] of length 3"),
    (lambda: tf.nn.conv2d(X, F, [2, 1, 1, 1], "SAME"), tf.errors.UnimplementedError,
     "does not yet support strides in the batch and depth dimensions"),
    (lambda: tf.nn.conv2d(X, F, 0, "SAME"), tf.errors.InvalidArgumentError,
     "Stride must be > 0, but got 0"),
    (lambda: tf.nn.conv2d(X, F, 1, "SAME", dilations=0), tf.errors.InvalidArgumentError,
     "Dilation rates must be > 0"),
    (lambda: tf.nn.conv2d(X, F, 1, "same"), ValueError, "padding must be 'SAME', 'VALID'"),
    (lambda: tf.nn.conv2d(X, F, 1, [[1, 2], [0, 1]]), ValueError,
     "When padding is a list, it must be of size 4"),
    (lambda: tf.nn.conv2d(X, F, 1, [[1, 0], [1, 1], [1, 1], [0, 0]]),
     tf.errors.InvalidArgumentError, "Nonzero explicit padding in the batch or depth"),
    (lambda: tf.nn.conv2d(X, F, 1, [[0, 0], [-1, 1], [1, 1], [0, 0]]),
     tf.errors.InvalidArgumentError, "explicit_paddings must be nonnegative"),
    (lambda: tf.nn.conv2d(X, F, 1, "SAME", data_format="HWCN"), ValueError,
     "data_format must be 'NHWC' or 'NCHW'"),
    (lambda: tf.nn.conv1d(X1, F1, 1, [[0, 0], [1, 1], [0, 0]]), TypeError,
     "Conv1D: padding must be 'SAME' or 'VALID'"),
    (lambda: tf.nn.max_pool2d(X, [2, 2, 2], 1, "SAME"), ValueError,
     "ksize should be of length 1, 2 or 4"),
    (lambda: tf.nn.max_pool2d(X, [2, 2, 2, 1], 1, "SAME"), tf.errors.UnimplementedError,
     "ksize in the batch and depth dimensions"),
    (lambda: tf.nn.max_pool2d(X, 0, 1, "SAME"), tf.errors.InvalidArgumentError,
     "Sliding window ksize must be positive"),
    (lambda: tf.nn.avg_pool2d(X, 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]), TypeError,
     "AvgPool: padding must be 'SAME' or 'VALID'"),
    (lambda: tf.nn.convolution(X[None], F[None]), NotImplementedError,
     "only 1-D and 2-D convolutions"),
], ids=["strides_len3", "strides_batch", "stride0", "dilation0", "lowercase_padding",
        "explicit_2_pairs", "explicit_batch", "explicit_negative", "data_format",
        "conv1d_explicit", "ksize_len3", "ksize_batch", "ksize0", "avg_explicit",
        "conv3d"])
def test_argument_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_embedding_lookup_errors():
    p = np.ones((4, 3), np.float32)
    with pytest.raises(ValueError, match="Length of params is currently 0"):
        tf.nn.embedding_lookup([], [1])
    with pytest.raises(TypeError, match="GatherV2: indices must be int32 or int64"):
        tf.nn.embedding_lookup(p, [1.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 4 is not in "
                                                            r"\[0, 4\)"):
        tf.nn.embedding_lookup(p, [0, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not in"):
        tf.nn.embedding_lookup([p[:2], p[2:]], [5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not in"):
        tf.nn.embedding_lookup([p[:3], p[3:]], [3])     # id 3 is shard 1's second row


def test_batch_normalization_dtype_mismatch():
    with pytest.raises(tf.errors.InvalidArgumentError, match="float64 tensor and a float32"):
        tf.nn.batch_normalization(X, tf.constant(f64([0.0, 0, 0])), tf.ones([3]), None, None, 1e-3)
