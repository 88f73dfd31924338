"""What `tools/tf_diff.py --prints` compares: printed text and error types.

Each probe is a function of the library (`runtime` or `tensorflow`) that
returns the text a user sees (`str(tf.float32)`, `print(concrete_function)`,
`f"{t:.2f}"`) or raises; ours and TensorFlow's must give the same text (addresses and
trace numbers aside), or both raise, ours an error of TensorFlow's class (by
name, a subclass allowed) and both with the probe's words in their text.
Run it with TensorFlow:

    $BENCH_TF_PYTHON tools/tf_diff.py --prints

The table's own structure is tested without TensorFlow by
tests/tools/test_tf_diff.py.
"""

import re
import sys

PROBES = {}       # label -> (fn(lib) -> str, first-line prefix compared on errors)


def probe(label, error_prefix=""):
    def register(fn):
        PROBES[label] = (fn, error_prefix)
        return fn
    return register


_DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
           "uint16", "uint32", "uint64", "bool", "string", "complex64", "complex128"]


@probe("str and repr of every dtype")
def _dtypes(tf):
    return "\n".join(f"{getattr(tf, n)!s} {getattr(tf, n)!r}" for n in _DTYPES)


@probe("repr of a tensor of every numeric dtype")
def _tensors(tf):
    return "\n".join(repr(tf.constant([1, 0], getattr(tf, n))) for n in _DTYPES
                     if n not in ("bool", "string"))


@probe("string tensors")
def _strings(tf):
    t = tf.constant([b"aa", b"b"])
    return "\n".join([str(t), str(t[0]), repr(tf.constant("aa")),
                      str(tf.constant([[b"a"], [b"b"]]))])


@probe("matrices and format()")
def _formats(tf):
    t = tf.constant(3.14159)
    return "\n".join([str(tf.ones([2, 3])), repr(tf.ones([2, 3])), f"{t}", f"{t:.2f}",
                      f"{tf.constant([1.5, 2.5])}", f"{tf.constant(3):05d}"])


@probe("complex tensors")
def _complex(tf):
    c = tf.constant([1 + 2j, 3 - 1j])
    m = tf.constant([[1 + 1j, 0], [0, 1]], tf.complex64)
    return "\n".join(str(v) for v in (
        c, c * c, abs(c), tf.math.real(c), tf.math.imag(c), tf.math.conj(c),
        tf.math.angle(c), tf.complex(1.0, 2.0), c / c, tf.matmul(m, m)))


@probe("TensorShape as an op argument")
def _shapes(tf):
    x = tf.ones([2, 3])
    return "\n".join([str(tf.reduce_prod(x.shape)), str(tf.constant(x.shape)),
                      repr(tf.TensorSpec(None, tf.int32))])


def _traced(tf):
    f = tf.function(lambda x, y=2: x * y)
    return f, f.get_concrete_function(tf.TensorSpec([None], tf.float32), 3.0)


@probe("print(concrete_function), function types")
def _concrete(tf):
    f, cf = _traced(tf)
    return "\n".join([str(cf), f.pretty_printed_concrete_signatures(), str(cf.function_type),
                      str(f.function_type),
                      str(isinstance(cf, tf.types.experimental.ConcreteFunction)),
                      str(isinstance(f, tf.types.experimental.PolymorphicFunction))])


@probe("VariableSpec arguments")
def _variables(tf):
    f = tf.function(lambda v: v + 1)
    f(tf.Variable(1.0))
    f(tf.Variable(2.0))
    return f"{f.experimental_get_tracing_count()}\n{f.pretty_printed_concrete_signatures()}"


@probe("binding error of a function", "Binding inputs to tf.function failed due to")
def _binding(tf):
    tf.function(lambda x, y=2: x)()


@probe("input_signature mismatch", "Binding inputs to tf.function failed due to `Can not")
def _signature(tf):
    tf.function(lambda x: x, input_signature=[tf.TensorSpec([2], tf.float32)])(
        tf.constant([1, 2]))


@probe("concrete function called with another dtype", "cannot compute __inference_")
def _dtype_call(tf):
    _traced(tf)[1](tf.constant([1, 2]))


@probe("numpy() of a symbolic tensor", "")
def _numpy(tf):
    tf.function(lambda x: x.numpy())(tf.constant(1))


@probe("a Variable created on every call",
       "tf.function only supports singleton tf.Variables created on the first call")
def _creation(tf):
    tf.function(lambda x: tf.Variable(x) + 1)(1.0)


@probe("unbounded recursion", "")
def _recursion(tf):
    @tf.function
    def rec(n):
        return rec(n - 1)
    rec(tf.constant(3))


def _outcome(fn, lib, prefix):
    """("text", str), or ("error", the names of the error's classes, whether its
    text contains the probe's prefix)."""
    try:
        return ("text", fn(lib))
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return ("error", [c.__name__ for c in type(e).__mro__], prefix in str(e))


def _normalize(text):
    # addresses and trace-unique names differ run to run
    text = re.sub(r"0x[0-9A-Fa-f]+", "0x?", text)
    return re.sub(r"__inference_\w+", "__inference_?", text)


def _differ(ours, theirs):
    """Same text; or errors where ours is (a subclass of) TensorFlow's class
    and both texts contain the prefix."""
    if ours[0] != theirs[0]:
        return True
    if ours[0] == "text":
        return _normalize(ours[1]) != _normalize(theirs[1])
    return theirs[1][0] not in ours[1] or not (ours[2] and theirs[2])


def run(ours, theirs, out=sys.stdout):
    """Compare every probe; returns the mismatch lines."""
    mismatches = []
    for label, (fn, prefix) in PROBES.items():
        a, b = (_outcome(fn, lib, prefix) for lib in (ours, theirs))
        if _differ(a, b):
            line = f"MISMATCH prints [{label}]: ours {a!r:.300} vs TensorFlow {b!r:.300}"
            mismatches.append(line)
            print(line, file=out)
    print(f"\n{len(PROBES)} print/error probes, {len(mismatches)} mismatches", file=out)
    return mismatches


__all__ = ["PROBES", "run"]
