"""Tensors and dtypes print as TensorFlow 2.21 prints them; complex tensors;
TensorShapes convert to tensors. Every expected string
was recorded from TensorFlow 2.21 ($BENCH_TF_PYTHON)."""

import numpy as np
import pytest

import runtime as tf

# TensorFlow 2.21: (str(dtype), repr(dtype)) of every dtype both have
# (variant and resource are TensorFlow's only: docs/tf_differences.md).
DTYPES = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
          "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128"]


@pytest.mark.parametrize("name", DTYPES)
def test_dtype_str_and_repr(name):
    d = getattr(tf, name)
    assert str(d) == f"<dtype: '{name}'>"
    assert repr(d) == f"tf.{name}"
    assert d.name == name and tf.as_dtype(name) is d


@pytest.mark.parametrize("name, text", [
    # TensorFlow 2.21: repr(tf.constant([1, 0], d)) and str(...)
    ("float16", "<tf.Tensor: shape=(2,), dtype=float16, numpy=array([1., 0.], dtype=float16)>"),
    ("float64", "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1., 0.])>"),
    ("int8", "<tf.Tensor: shape=(2,), dtype=int8, numpy=array([1, 0], dtype=int8)>"),
    ("int64", "<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 0])>"),
    ("uint16", "<tf.Tensor: shape=(2,), dtype=uint16, numpy=array([1, 0], dtype=uint16)>"),
    ("uint32", "<tf.Tensor: shape=(2,), dtype=uint32, numpy=array([1, 0], dtype=uint32)>"),
    ("uint64", "<tf.Tensor: shape=(2,), dtype=uint64, numpy=array([1, 0], dtype=uint64)>"),
    ("complex128", "<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+0.j, 0.+0.j])>"),
])
def test_tensor_repr_of_each_dtype(name, text):
    assert repr(tf.constant([1, 0], getattr(tf, name))) == text


def test_string_tensors_print_bytes():
    # TensorFlow 2.21
    assert str(tf.constant([b"aa", b"b"])) == "tf.Tensor([b'aa' b'b'], shape=(2,), dtype=string)"
    assert str(tf.constant([b"aa", b"b"])[0]) == "tf.Tensor(b'aa', shape=(), dtype=string)"
    assert repr(tf.constant("aa")) == "<tf.Tensor: shape=(), dtype=string, numpy=b'aa'>"
    assert repr(tf.constant(["x"])) == \
        "<tf.Tensor: shape=(1,), dtype=string, numpy=array([b'x'], dtype=object)>"
    assert str(tf.constant(np.array([b"x"], dtype="S"))) == \
        "tf.Tensor([b'x'], shape=(1,), dtype=string)"
    t = tf.constant(np.array([b"x", b"yy"], dtype="S"))
    assert repr(t) == ("<tf.Tensor: shape=(2,), dtype=string, numpy=array([b'x', b'yy'], "
                       "dtype=object)>") and t.numpy().dtype == object
    assert repr(tf.constant(np.str_("a"))) == "<tf.Tensor: shape=(), dtype=string, numpy=b'a'>"
    assert str(tf.constant([[b"a"], [b"b"]])) == \
        "tf.Tensor(\n[[b'a']\n [b'b']], shape=(2, 1), dtype=string)"


def test_matrices_start_on_their_own_line():
    # TensorFlow 2.21
    assert str(tf.ones([2, 3])) == \
        "tf.Tensor(\n[[1. 1. 1.]\n [1. 1. 1.]], shape=(2, 3), dtype=float32)"
    assert repr(tf.ones([2, 3])) == ("<tf.Tensor: shape=(2, 3), dtype=float32, numpy=\n"
                                     "array([[1., 1., 1.],\n"
                                     "       [1., 1., 1.]], dtype=float32)>")


def test_variables_print_matrices_on_their_own_line():
    v = tf.Variable(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    # TensorFlow 2.21 (the variables guide)
    assert repr(v) == ("<tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=\n"
                       "array([[1., 2.],\n       [3., 4.]], dtype=float32)>")
    assert str(v.dtype) == "<dtype: 'float32'>"


def test_format_of_an_eager_tensor():
    t = tf.constant(3.14159)
    # TensorFlow 2.21: 3.141590118408203 | 3.14 | 3.142; [1.5 2.5]; 3 00003
    assert f"{t}" == "3.141590118408203"
    assert format(t, ".2f") == "3.14" and f"{t:.3f}" == "3.142"
    assert f"{tf.constant([1.5, 2.5])}" == "[1.5 2.5]"
    assert f"{tf.constant(3)}" == "3" and f"{tf.constant(3):05d}" == "00003"
    with pytest.raises(TypeError, match="unsupported format string"):   # TF's TypeError
        format(tf.constant([1.5, 2.5]), ".2f")


def test_complex_tensors():
    c = tf.constant([1 + 2j, 3 - 1j])
    # TensorFlow 2.21
    assert str(c) == "tf.Tensor([1.+2.j 3.-1.j], shape=(2,), dtype=complex128)"
    assert repr(c) == \
        "<tf.Tensor: shape=(2,), dtype=complex128, numpy=array([1.+2.j, 3.-1.j])>"
    assert str(c * c) == "tf.Tensor([-3.+4.j  8.-6.j], shape=(2,), dtype=complex128)"
    assert str(abs(c)) == "tf.Tensor([2.23606798 3.16227766], shape=(2,), dtype=float64)"
    assert str(tf.abs(c)) == str(abs(c))
    assert str(tf.math.real(c)) == "tf.Tensor([1. 3.], shape=(2,), dtype=float64)"
    assert str(tf.math.imag(c)) == "tf.Tensor([ 2. -1.], shape=(2,), dtype=float64)"
    assert str(tf.math.conj(c)) == "tf.Tensor([1.-2.j 3.+1.j], shape=(2,), dtype=complex128)"
    assert str(tf.math.angle(c)) == \
        "tf.Tensor([ 1.10714872 -0.32175055], shape=(2,), dtype=float64)"
    assert str(tf.complex(1.0, 2.0)) == "tf.Tensor((1+2j), shape=(), dtype=complex64)"
    assert str(tf.constant(1j, tf.complex128)) == "tf.Tensor(1j, shape=(), dtype=complex128)"
    assert str(c + 1) == "tf.Tensor([2.+2.j 4.-1.j], shape=(2,), dtype=complex128)"
    assert str(c / c) == "tf.Tensor([1.+0.j 1.+0.j], shape=(2,), dtype=complex128)"
    m = tf.constant([[1 + 1j, 0], [0, 1]], tf.complex64)
    assert str(tf.matmul(m, m)) == ("tf.Tensor(\n[[0.+2.j 0.+0.j]\n [0.+0.j 1.+0.j]], "
                                    "shape=(2, 2), dtype=complex64)")
    assert str(tf.cast(tf.constant([1.5]), tf.complex64)) == \
        "tf.Tensor([1.5+0.j], shape=(1,), dtype=complex64)"


def test_complex_in_a_graph():
    f = tf.function(lambda c: tf.math.real(c * tf.math.conj(c)) + abs(c))
    out = f(tf.constant([3 + 4j], tf.complex64))
    assert out.dtype == tf.float32 and out.numpy().tolist() == [30.0]


def test_ops_accept_a_tensor_shape():
    x = tf.ones([2, 3])
    # TensorFlow 2.21: 6 (int32); [2 3] (int32); shapes (2, 3)
    assert str(tf.reduce_prod(x.shape)) == "tf.Tensor(6, shape=(), dtype=int32)"
    assert str(tf.constant(x.shape)) == "tf.Tensor([2 3], shape=(2,), dtype=int32)"
    assert str(tf.convert_to_tensor(x.shape)) == "tf.Tensor([2 3], shape=(2,), dtype=int32)"
    assert tf.reshape(x, x.shape).shape == (2, 3) and tf.zeros(x.shape).shape == (2, 3)
    assert tf.fill(x.shape, 1.0).shape == (2, 3)
    assert str(tf.constant(tf.TensorShape([2, 3]), tf.int64)) == \
        "tf.Tensor([2 3], shape=(2,), dtype=int64)"
    # TensorFlow 2.21: ValueError "Cannot convert a partially known TensorShape (None, 3)
    # to a Tensor."
    with pytest.raises(ValueError, match=r"^Cannot convert a partially known TensorShape "
                                         r"\(None, 3\) to a Tensor\.$"):
        tf.reduce_prod(tf.TensorShape([None, 3]))


@pytest.mark.parametrize("value, dtype, shown", [
    # TensorFlow 2.21's reprs: a scalar shows the Python number it holds.
    (0.1, "float32", "0.10000000149011612"), (27.3, "float16", "27.296875"),
    (27.3, "float64", "27.3"), (-0.0, "float32", "-0.0"), (1e20, "float32", "1.0000000200408773e+20"),
    (0.1 + 1j, "complex64", "(0.10000000149011612+1j)"), (3, "uint8", "3"), (True, "bool", "True"),
])
def test_scalar_repr_is_the_python_number(value, dtype, shown):
    t = tf.constant(value, dtype)
    assert repr(t) == f"<tf.Tensor: shape=(), dtype={dtype}, numpy={shown}>"
    assert repr(tf.Variable(t)).endswith(f"numpy={shown}>")
    assert str(tf.constant(0.1)) == "tf.Tensor(0.1, shape=(), dtype=float32)"
