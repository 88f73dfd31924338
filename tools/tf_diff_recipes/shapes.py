"""tools/tf_diff.py's recipes for shape and indexing ops: reshape, transpose, concat, pad,
slice, gather, where, broadcast, fill, range, meshgrid, eye, bitcast, .. Importing the
module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import F32, F64, I32, I64, Case, Shape, _i, _u, recipe


# ---------------------------------------------------------------- shapes and indexing

@recipe("shape", "reshape")
def _reshape(rng):
    x = _u(rng, (2, 6))
    yield Case("[3,4]", x, [3, 4])
    yield Case("[-1]", x, [-1])
    yield Case("[4,-1]", x, [4, -1])
    yield Case("scalar to [1,1]", F32(1.0), [1, 1])
    yield Case("[0,3] to [3,0]", np.zeros((0, 3), F32), [3, 0])
    yield Case("bad size", x, [5, 2])
    yield Case("two -1", x, [-1, -1])


@recipe("shape", "transpose")
def _transpose(rng):
    yield Case("default", _u(rng, (2, 3, 4)))
    yield Case("perm", _u(rng, (2, 3, 4)), [1, 0, 2])
    yield Case("scalar", F32(1.0))
    yield Case("bad perm", _u(rng, (2, 3)), [0, 0])


@recipe("shape", "expand_dims")
def _expand_dims(rng):
    for axis in (0, 1, -1, -3):
        yield Case(f"axis={axis}", _u(rng, (2, 3)), axis)
    yield Case("axis=3 out of range", _u(rng, (2, 3)), 3)


@recipe("shape", "squeeze")
def _squeeze(rng):
    x = _u(rng, (1, 3, 1))
    yield Case("all", x)
    yield Case("axis=[2]", x, [2])
    yield Case("axis=-1", x, -1)
    yield Case("axis not 1", x, [1])


@recipe("shape", "concat stack")
def _concat(rng, name):
    a, b = _u(rng, (2, 3)), _u(rng, (2, 3))
    yield Case("axis=0", [a, b], 0)
    yield Case("axis=-1", [a, b], -1)
    yield Case("single", [a], 1)
    yield Case("i32 scalars", [I32(1), I32(2)], 0)
    yield Case("shape clash", [a, _u(rng, (3, 3))], 1)
    yield Case("dtype clash", [a, _i(rng, (2, 3))], 0)


@recipe("shape", "unstack")
def _unstack(rng):
    yield Case("axis=0", _u(rng, (3, 2)))
    yield Case("axis=-1", _u(rng, (3, 2)), axis=-1)
    yield Case("num", _u(rng, (3, 2)), num=3)


@recipe("shape", "tile")
def _tile(rng):
    yield Case("[2,1]", _u(rng, (2, 3)), [2, 1])
    yield Case("[0,2]", _u(rng, (2, 3)), [0, 2])
    yield Case("wrong length", _u(rng, (2, 3)), [2])


@recipe("shape", "pad")
def _pad(rng):
    x = _u(rng, (3, 4))
    yield Case("constant", x, [[1, 2], [0, 1]])
    yield Case("constant value", x, [[1, 0], [2, 2]], constant_values=7.5)
    yield Case("reflect", x, [[2, 1], [3, 0]], mode="REFLECT")
    yield Case("symmetric", x, [[3, 1], [4, 2]], mode="SYMMETRIC")
    yield Case("lowercase mode", x, [[1, 1], [1, 1]], mode="reflect")
    yield Case("reflect too wide", x, [[3, 0], [0, 0]], mode="REFLECT")
    yield Case("i32 constant", _i(rng, (2,)), [[1, 1]])
    yield Case("bad paddings shape", x, [[1, 1]])


@recipe("shape", "reverse")
def _reverse(rng):
    yield Case("axis=[0]", _u(rng, (2, 3)), [0])
    yield Case("axis=[-1,0]", _u(rng, (2, 3)), [-1, 0])
    yield Case("axis=[]", _u(rng, (2, 3)), [])


@recipe("shape", "roll")
def _roll(rng):
    yield Case("shift=1 axis=0", _u(rng, (4,)), 1, 0)
    yield Case("shift=[1,-2] axis=[0,1]", _u(rng, (3, 4)), [1, -2], [0, 1])
    yield Case("same axis twice", _u(rng, (3, 4)), [1, 2], [1, 1])
    yield Case("shift=7", _u(rng, (3,)), 7, 0)


@recipe("shape", "repeat")
def _repeat(rng):
    yield Case("2 axis=0", _u(rng, (2, 3)), 2, axis=0)
    yield Case("[1,0,2] axis=1", _u(rng, (2, 3)), [1, 0, 2], axis=1)
    yield Case("flat", _u(rng, (2, 3)), 2)
    yield Case("scalar", F32(1.0), 3)


@recipe("shape", "split")
def _split(rng):
    yield Case("3 even", _u(rng, (6, 2)), 3)
    yield Case("sizes axis=1", _u(rng, (2, 6)), [1, 2, 3], axis=1)
    yield Case("sizes with -1", _u(rng, (6,)), [2, -1])
    yield Case("uneven", _u(rng, (5,)), 2)


@recipe("shape", "slice")
def _slice(rng):
    yield Case("basic", _u(rng, (3, 4)), [1, 0], [2, 3])
    yield Case("size -1", _u(rng, (3, 4)), [1, 1], [-1, -1])
    yield Case("out of bounds", _u(rng, (3, 4)), [2, 0], [2, 1])


@recipe("shape", "strided_slice")
def _strided_slice(rng):
    x = _u(rng, (4, 5, 3))
    yield Case("basic", x, [1, 0, 0], [3, 5, 3], [1, 2, 1])
    yield Case("negative stride", x, [3, 4, 2], [0, 0, 0], [-1, -2, -1])
    yield Case("begin_mask end_mask", x, [1, 1, 1], [2, 2, 2], [1, 1, 1], begin_mask=5, end_mask=2)
    yield Case("shrink_axis_mask", x, [1, 0, 2], [2, 5, 3], [1, 1, 1], shrink_axis_mask=5)
    yield Case("new_axis_mask", x, [0, 0, 0], [1, 5, 3], [1, 1, 1], new_axis_mask=2)
    yield Case("ellipsis_mask", x, [0, 1], [1, 2], [1, 1], ellipsis_mask=1)
    yield Case("clamped", x, [-10, 2, 0], [10, 100, 3], [1, 1, 1])


@recipe("shape", "gather")
def _gather(rng):
    x = _u(rng, (4, 3))
    yield Case("axis=0", x, np.array([3, 0, 0], I32))
    yield Case("axis=1 2-d indices", x, np.array([[2, 1], [0, 0]], I64), axis=1)
    yield Case("batch_dims=1", x, np.array([[1], [0], [2], [2]], I32), axis=1, batch_dims=1)
    yield Case("out of range", x, np.array([4], I32))
    yield Case("negative index", x, np.array([-1], I32))


@recipe("shape", "gather_nd")
def _gather_nd(rng):
    x = _u(rng, (3, 4))
    yield Case("full index", x, np.array([[0, 1], [2, 3]], I32))
    yield Case("row index", x, np.array([[2], [0]], I32))
    yield Case("out of range", x, np.array([[3, 0]], I32))


@recipe("shape", "boolean_mask")
def _boolean_mask(rng):
    x = _u(rng, (3, 4))
    yield Case("1-d mask", x, np.array([True, False, True]))
    yield Case("2-d mask", x, rng.uniform(size=(3, 4)) > 0.5)
    yield Case("axis=1", x, np.array([True, False, True, True]), axis=1)
    yield Case("bad mask shape", x, np.array([True, False]))


@recipe("shape", "where")
def _where(rng):
    c = rng.uniform(size=(3, 4)) > 0.5
    yield Case("one argument", c)
    yield Case("one argument f32", np.array([[0.0, 1.5], [2.0, 0.0]], F32))
    yield Case("three arguments broadcast", c, _u(rng, (3, 4)), _u(rng, (4,)))
    yield Case("dtype clash", c, _u(rng, (3, 4)), _i(rng, (3, 4)))


@recipe("shape", "broadcast_to")
def _broadcast_to(rng):
    yield Case("[3] -> [2,3]", _u(rng, (3,)), [2, 3])
    yield Case("scalar -> [2]", F32(1.0), [2])
    yield Case("incompatible", _u(rng, (3,)), [2, 4])


@recipe("shape", "one_hot")
def _one_hot(rng):
    yield Case("depth 4", np.array([0, 3, -1, 5], I32), 4)
    yield Case("on/off axis=0", np.array([1, 2], I64), 3, on_value=5.0, off_value=-1.0, axis=0)
    yield Case("dtype int32", np.array([[1], [0]], I32), 2, dtype="int32")


@recipe("shape", "fill")
def _fill(rng):
    yield Case("f32", [2, 3], 1.5)
    yield Case("i32 tensor value", [2], np.int32(4))
    yield Case("negative dim", [-1, 2], 0.0)


@recipe("shape", "zeros ones")
def _zeros(rng):
    yield Case("[2,3]", [2, 3])
    yield Case("int32", [2], dtype="int32")
    yield Case("scalar", [])


@recipe("shape", "zeros_like ones_like identity shape size rank")
def _like(rng):
    yield Case("f32[2,3]", _u(rng, (2, 3)))
    yield Case("i64 scalar", np.int64(3))
    yield Case("bool[0]", np.zeros(0, bool))


@recipe("shape", "range")
def _range(rng):
    yield Case("5", 5)
    yield Case("2, 9, 3", 2, 9, 3)
    yield Case("float", 0.5, 2.0, 0.25)
    yield Case("negative delta", 5, 0, -2)
    yield Case("empty", 3, 3)
    yield Case("delta 0", 0, 5, 0)


@recipe("shape", "linspace")
def _linspace(rng):
    yield Case("f32 5", F32(0.0), F32(1.0), 5)
    yield Case("f64 1", F64(2.0), F64(3.0), 1)
    yield Case("vector ends", np.array([0.0, 1.0], F32), np.array([1.0, 3.0], F32), 3)


@recipe("shape", "meshgrid")
def _meshgrid(rng):
    yield Case("xy", _u(rng, (3,)), _u(rng, (2,)))
    yield Case("ij", _u(rng, (3,)), _u(rng, (2,)), indexing="ij")


@recipe("shape", "sequence_mask")
def _sequence_mask(rng):
    yield Case("lengths", np.array([1, 3, 0], I32))
    yield Case("maxlen", np.array([1, 3, 0], I32), 4)
    yield Case("2-d dtype", np.array([[1, 2], [0, 1]], I64), 3, dtype="float32")


@recipe("shape", "eye")
def _eye(rng):
    yield Case("3", 3)
    yield Case("2x4", 2, 4)
    yield Case("batch", 2, batch_shape=[3], dtype="int32")


@recipe("shape", "broadcast_dynamic_shape")
def _broadcast_dynamic_shape(rng):
    yield Case("[2,1] [3]", np.array([2, 1], I32), np.array([3], I32))
    yield Case("incompatible", np.array([2], I32), np.array([3], I32))


@recipe("shape", "broadcast_static_shape")
def _broadcast_static_shape(rng):
    yield Case("[2,1] [3]", Shape([2, 1]), Shape([3]))
    yield Case("unknown dim", Shape([None, 1]), Shape([1, 4]))
    yield Case("incompatible", Shape([2]), Shape([3]))


@recipe("dtype", "bitcast")
def _bitcast(rng):
    yield Case("f32 -> i32", _u(rng, (3,)), "int32")
    yield Case("i32 -> u8", np.array([1, 256], I32), "uint8")
    yield Case("u8[2,4] -> i32", _i(rng, (2, 4), np.uint8, 0, 255), "int32")
    yield Case("u8[3] -> i32 bad", _i(rng, (3,), np.uint8, 0, 255), "int32")
