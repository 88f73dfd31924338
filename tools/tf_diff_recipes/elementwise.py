"""tools/tf_diff.py's recipes for elementwise ops: unary and binary math, logic, bitwise,
add_n, clip, cast. Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F16, F32, F64, I32, I64, SPECIAL, _i, _u, recipe


# ---------------------------------------------------------------- elementwise

UNARY_FLOAT = ("sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh exp expm1 log "
               "log1p sqrt rsqrt reciprocal floor ceil round rint erf erfc softplus softsign "
               "sigmoid log_sigmoid is_nan is_inf is_finite")
UNARY_ANY = "abs negative sign square"


@recipe("unary", UNARY_FLOAT + " " + UNARY_ANY)
def _unary(rng, name):
    yield Case("f32[3,4]", _u(rng, (3, 4)))
    yield Case("f64[5]", _u(rng, (5,), F64))
    yield Case("f16[4]", _u(rng, (4,), F16, -2, 2))
    yield Case("f32 special", SPECIAL)
    yield Case("f32 scalar", F32(0.75))
    yield Case("f32[0,3]", np.zeros((0, 3), F32))
    yield Case("halves", np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5], F32))
    yield Case("i32[2,3]", _i(rng, (2, 3)))
    yield Case("i64[4]", _i(rng, (4,), I64))
    yield Case("python float", 0.3)


BINARY_FLOAT = "atan2"
BINARY_ANY = ("add subtract multiply divide truediv maximum minimum pow squared_difference "
              "floordiv floormod mod equal not_equal less less_equal greater greater_equal")


@recipe("binary", BINARY_FLOAT + " " + BINARY_ANY)
def _binary(rng, name):
    yield Case("f32[3,4] f32[4]", _u(rng, (3, 4)), _u(rng, (4,)))
    yield Case("f32[2,1] f32[1,3]", _u(rng, (2, 1)), _u(rng, (1, 3)))
    yield Case("f64 scalar f64[3]", F64(1.5), _u(rng, (3,), F64))
    yield Case("f32[0,3] f32[3]", np.zeros((0, 3), F32), _u(rng, (3,)))
    yield Case("f32 special", SPECIAL, SPECIAL[::-1].copy())
    yield Case("f16[4] f16[4]", _u(rng, (4,), F16, 0.5, 2), _u(rng, (4,), F16, 0.5, 2))
    nonzero = np.array([3, -2, 5, -7, 1, -1], I32)
    yield Case("i32 i32", np.array([7, -7, 0, 9, -9, 4], I32), nonzero)
    yield Case("i64 i64", np.array([7, -7, 0, 9, -9, 4], I64), nonzero.astype(I64))
    yield Case("f32 python float", _u(rng, (3,)), 2.0)
    yield Case("i32 python int", np.array([5, -5, 3], I32), 2)
    yield Case("f32 i32 (dtype clash)", _u(rng, (3,)), np.array([1, 2, 3], I32))
    yield Case("f32[3] f32[4] (shape clash)", _u(rng, (3,)), _u(rng, (4,)))


@recipe("binary", "logical_and logical_or logical_xor")
def _logical(rng):
    a = np.array([True, False, True, False])
    yield Case("bool bool", a, np.array([True, True, False, False]))
    yield Case("bool[2,1] bool[3]", a[:2].reshape(2, 1), a[:3])
    yield Case("bool[0]", np.zeros(0, bool), np.zeros(0, bool))


@recipe("unary", "logical_not")
def _logical_not(rng):
    yield Case("bool", np.array([True, False]))
    yield Case("bool scalar", np.bool_(True))


@recipe("binary", "bitwise_and bitwise_or bitwise_xor left_shift right_shift")
def _bitwise(rng, name):
    shift = name.endswith("shift")
    yield Case("i32 i32", _i(rng, (6,), I32, -50, 50),
               _i(rng, (6,), I32, 0, 8) if shift else _i(rng, (6,), I32, -50, 50))
    yield Case("u8 u8", _i(rng, (4,), np.uint8, 0, 255), _i(rng, (4,), np.uint8, 0, 7))
    yield Case("i64[2,3] i64[3]", _i(rng, (2, 3), I64, -9, 9), _i(rng, (3,), I64, 0, 5))
    yield Case("f32 (not integer)", _u(rng, (3,)), _u(rng, (3,)))


@recipe("unary", "invert")
def _invert(rng):
    yield Case("i32", _i(rng, (5,), I32, -50, 50))
    yield Case("u8", _i(rng, (5,), np.uint8, 0, 255))
    yield Case("i8 scalar", np.int8(5))


@recipe("elementwise", "add_n")
def _add_n(rng):
    yield Case("3 x f32[2,3]", [_u(rng, (2, 3)) for _ in range(3)])
    yield Case("1 x i32[4]", [_i(rng, (4,))])
    yield Case("f32 scalars", [F32(1.5), F32(2.0)])
    yield Case("shape clash", [_u(rng, (2,)), _u(rng, (3,))])


@recipe("elementwise", "clip_by_value")
def _clip(rng):
    yield Case("f32 scalar bounds", _u(rng, (3, 4)), -1.0, 1.0)
    yield Case("f32 tensor bounds", _u(rng, (3, 4)), _u(rng, (4,), F32, -3, -1),
               _u(rng, (4,), F32, 1, 3))
    yield Case("i32", _i(rng, (6,)), 0, 3)
    yield Case("f32[0]", np.zeros(0, F32), 0.0, 1.0)


@recipe("elementwise", "cast")
def _cast(rng):
    yield Case("f32 -> i32", SPECIAL[3:9], "int32")
    yield Case("f32 -> u8", np.array([-1.5, 2.7, 300.0], F32), "uint8")
    yield Case("i32 -> bool", np.array([0, 2, -1], I32), "bool")
    yield Case("f64 -> f16", _u(rng, (4,), F64), "float16")
    yield Case("bool -> f32", np.array([True, False]), "float32")
