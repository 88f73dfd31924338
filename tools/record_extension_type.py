"""Record what TensorFlow 2.21 prints for the extension type cases of
tests/runtime/extension/test_extension_type.py (tests/data/extension_type_tf221.json).

    $BENCH_TF_PYTHON tools/record_extension_type.py        # rewrite the record

Each case is a snippet run after PRELUDE in one namespace per case; its
result is what it prints plus the repr of a final expression, or
"ErrorType: first line of the message". The same runner (`run_case`) runs
the snippets on `runtime` in the test.
"""

import ast
import contextlib
import io
import json
import pathlib
import sys

RECORD = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "extension_type_tf221.json"

PRELUDE = '''
from typing import List, Mapping, Optional, Tuple, Union
class MT(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
class V(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor
    def __validate__(self):
        self.values.shape.assert_is_compatible_with(self.mask.shape)
        assert self.mask.dtype.is_bool, 'mask.dtype must be bool'
class P(tf.experimental.ExtensionType):
    name: str
    n: int = 3
    shape: tf.TensorShape = None
    dt: tf.DType = tf.float32
    t: Tuple[int, ...] = ()
    o: Optional[tf.Tensor] = None
    u: Union[int, str] = 1
    m: Mapping[str, tf.Tensor] = {}
class Outer(tf.experimental.ExtensionType):
    inner: MT
    scale: tf.Tensor = 1.0
class B(tf.experimental.BatchableExtensionType):
    shape: tf.TensorShape
    v: tf.Tensor
    def __init__(self, v):
        self.v = tf.convert_to_tensor(v)
        self.shape = self.v.shape[:-1]
mt = MT([1, 2, 3], [True, False, True])
'''

CASES = {
    "repr": "MT([1, 2], [True, False])",
    "repr_fields": "P('a', shape=[2, None], t=[1, 2], m={'b': 2.5})",
    "repr_defaults": "P('a')",
    "repr_nested": "Outer(MT([1.0], [True]), 2.0)",
    "fields_converted": "x = P('a', n=4, dt='int64', t=(5,)); (x.n, x.dt, x.t, x.shape, x.o)",
    "spec_repr": "tf.type_spec_from_value(mt)",
    "spec_fields": "tf.type_spec_from_value(P('a', m={'k': [1, 2]}))",
    "spec_nested": "tf.type_spec_from_value(Outer(MT([1.0], [True])))",
    "spec_class": "(MT.Spec.__name__, MT.Spec.__qualname__, MT.Spec.value_type is MT, "
                  "issubclass(MT.Spec, tf.experimental.ExtensionTypeSpec))",
    "spec_ctor": "MT.Spec(tf.TensorSpec([None]), tf.TensorSpec([None], tf.bool))",
    "spec_ctor_error": "MT.Spec([2], tf.TensorSpec([2], tf.bool))",
    "spec_eq": "(tf.type_spec_from_value(mt) == tf.type_spec_from_value(MT([4, 5, 6], "
               "[True, True, True])), tf.type_spec_from_value(mt) == "
               "tf.type_spec_from_value(MT([4, 5], [True, True])))",
    "spec_compatible": "MT.Spec(tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], "
                       "tf.bool)).is_compatible_with(mt)",
    "err_str": "P(3)",
    "err_int": "P('a', n='x')",
    "err_tuple_item": "P('a', t=(1, 'x'))",
    "err_union": "P('a', u=2.5)",
    "err_missing": "MT([1])",
    "err_too_many": "MT([1], [True], 3)",
    "err_keyword": "MT(values=[1], mask=[True], extra=1)",
    "err_shape": "P('a', shape='x')",
    "err_tensor": "MT(['a', 1], [True])",
    "err_none": "MT([1, 2, 3], None)",
    "err_nested": "Outer([1.0])",
    "validate_assert": "V([1, 2, 3], [0, 1, 0])",
    "validate_shapes": "V([1, 2, 3], [True, False])",
    "mutate": "mt.mask = [True, True, True]",
    "delete": "del mt.values",
    "eq_same": "print(mt == mt, mt != mt)",
    "eq_other_values": "print(mt == MT([1, 2, 4], [True, False, True]))",
    "eq_other_spec": "print(mt == MT([1, 2], [True, False]), mt == mt.values)",
    "hash": "hash(mt)",
    "as_dict": "tf.experimental.extension_type.as_dict(mt)",
    "nest_flatten": "tf.nest.flatten(Outer(MT([1.0], [True]), 2.0), expand_composites=True)",
    "nest_pack": "tf.nest.pack_sequence_as(mt, [tf.constant([7, 8]), tf.constant([False, "
                 "True])], expand_composites=True)",
    "user_init": '''
class Toy(tf.experimental.ExtensionType):
    name: str
    price: tf.Tensor
    def __init__(self, name, price, discount=0):
        self.name = name
        self.price = price * (1 - discount)
Toy("ball", 5.0, discount=0.2)''',
    "subclass_fields": '''
class G(MT):
    weight: tf.Tensor = 0.5
G([1], [True])''',
    "function_traces": '''
traces = []
@tf.function
def f(x):
    traces.append(1)
    return MT(x.values * 2, x.mask)
print(f(mt))
print(f(MT([4, 5, 6], [True, True, False])))
print(f(MT([4, 5], [True, True])))
print(len(traces))''',
    "function_signature": '''
@tf.function(input_signature=[MT.Spec(tf.TensorSpec([None], tf.int32),
                                      tf.TensorSpec([None], tf.bool))])
def f(x):
    return tf.where(x.mask, x.values, 0)
print(f(mt), f(MT([5, 6], [False, True])))
f.get_concrete_function().structured_input_signature''',
    "function_python_fields": '''
traces = []
@tf.function
def f(p):
    traces.append(1)
    return p.m['a'] * p.n
print(f(P('x', m={'a': 2.0})), f(P('y', m={'a': 3.0})), f(P('x', n=4, m={'a': 3.0})))
print(len(traces))''',
    "cond": '''
@tf.function
def f(c):
    return tf.cond(c, lambda: mt, lambda: MT([7, 8], [False, False]))
print(f(tf.constant(True)))
print(f(tf.constant(False)))''',
    "while_loop": '''
@tf.function
def f(x):
    return tf.while_loop(lambda i, m: i < 3,
                         lambda i, m: (i + 1, MT(m.values + 1, m.mask)), [0, x])[1]
f(mt)''',
    "dispatch_api": '''
@tf.experimental.dispatch_for_api(tf.stack)
def masked_stack(values: List[MT], axis=0):
    return MT(tf.stack([v.values for v in values], axis),
              tf.stack([v.mask for v in values], axis))
print(tf.stack([mt, mt]))
print(tf.stack([tf.constant(1), tf.constant(2)]))
tf.experimental.unregister_dispatch_for(masked_stack)
tf.stack([mt, mt])''',
    "dispatch_union": '''
@tf.experimental.dispatch_for_api(tf.math.add, {'x': Union[MT, tf.Tensor], 'y': MT})
def masked_add(x, y, name=None):
    xv = x.values if isinstance(x, MT) else x
    return MT(xv + y.values, y.mask)
print(tf.add(tf.constant([10, 20, 30]), mt))
print(tf.math.add(mt, mt))
print(tf.add(1, 2))''',
    "dispatch_function": '''
@tf.experimental.dispatch_for_api(tf.reduce_sum)
def masked_sum(input_tensor: MT, axis=None, keepdims=False, name=None):
    return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0), axis)
@tf.function
def f(x):
    return tf.reduce_sum(x)
f(mt)''',
    "dispatch_unary": '''
@tf.experimental.dispatch_for_unary_elementwise_apis(MT)
def unary(api_func, x):
    return MT(api_func(x.values), x.mask)
x = MT([1.0, -2.0, 4.0], [True, False, True])
print(tf.abs(x))
print(tf.math.sqrt(tf.abs(x)).values)
print(tf.ones_like(x, dtype=tf.int64).values)
print(tf.cast(x, tf.int32).values)''',
    "dispatch_binary": '''
@tf.experimental.dispatch_for_binary_elementwise_apis(MT, MT)
def binary(api_func, x, y):
    return MT(api_func(x.values, y.values), x.mask & y.mask)
x = MT([1, -2, -3], [True, False, True])
y = MT([[4], [5]], [[True], [False]])
print(tf.math.add(x, y))
print(tf.maximum(x, y).values)
print(tf.equal(x, x).values)''',
    "dispatch_assert": '''
@tf.experimental.dispatch_for_binary_elementwise_assert_apis(MT, MT)
def asserts(assert_func, x, y):
    merged = tf.logical_and(x.mask, y.mask)
    assert_func(tf.boolean_mask(x.values, merged), tf.boolean_mask(y.values, merged))
tf.debugging.assert_equal(MT([1, 1, 0], [False, True, True]), MT([2, 1, 0], [True, True, True]))
tf.debugging.assert_equal(MT([1, 1, 0], [True, True, True]), MT([2, 1, 0], [True, True, True]))''',
    "dispatch_twice": '''
@tf.experimental.dispatch_for_unary_elementwise_apis(MT)
def unary(api_func, x):
    return x
@tf.experimental.dispatch_for_unary_elementwise_apis(MT)
def unary2(api_func, x):
    return x''',
    "unregister_unknown": '''
def f(x):
    return x
tf.experimental.unregister_dispatch_for(f)''',
    "batch_spec": '''
b = B([[1.0, 2.0], [3.0, 4.0]])
s = tf.type_spec_from_value(b)
print(s)
print(s._unbatch())
print(s._batch(5))''',
    "dataset_slices": '''
b = B([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
ds = tf.data.Dataset.from_tensor_slices(b)
print(ds.element_spec)
for x in ds:
    print(x.shape, x.v)''',
    "dataset_batch": '''
ds = tf.data.Dataset.from_tensor_slices(B([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).batch(2)
print(ds.element_spec)
for x in ds:
    print(x.shape, x.v.shape)
for x in ds.unbatch().take(1):
    print(x)''',
    "dataset_map": '''
ds = tf.data.Dataset.from_tensor_slices(B([[1.0, 2.0], [3.0, 4.0]]))
print(list(ds.map(lambda x: tf.reduce_sum(x.v))))
print(ds.map(lambda x: B(x.v * 10)).element_spec)''',
    "dataset_from_tensors": "next(iter(tf.data.Dataset.from_tensors(mt)))",
    "dataset_not_batchable": "tf.data.Dataset.from_tensors(mt).batch(2)",
    "reduce_retracing": '''
@tf.function(reduce_retracing=True)
def f(x):
    return x.values * 2
print(f(MT([1.0], [True])), f(MT([1.0, 2.0], [True, True])), f(MT([3.0, 4.0, 5.0], [True] * 3)))
print(f.experimental_get_tracing_count())
f.get_concrete_function(MT([1.0], [True])).structured_input_signature''',
    "gradient": '''
x = MT([1.0, 2.0, 3.0], [True, False, True])
@tf.function
def f(m):
    return tf.reduce_sum(tf.where(m.mask, m.values * m.values, 0.0))
with tf.GradientTape() as tape:
    tape.watch(x.values)
    y = f(x)
tape.gradient(y, x.values)''',
    "map_fn": '''
b = B([[1.0, 2.0], [3.0, 4.0]])
tf.map_fn(lambda x: B(x.v + tf.reduce_sum(x.v)), b)''',
}


def run_case(tf, source):
    """What `source` (after PRELUDE) shows: output and final repr, or the error."""
    namespace = {"__name__": "__main__", "tf": tf}
    exec(compile(PRELUDE, "<prelude>", "exec"), namespace)  # noqa: S102 - the recorded case
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            exec(compile(tree, "<case>", "exec"), namespace)  # noqa: S102
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<case>", "eval"),  # noqa: S307
                             namespace)
                if value is not None:
                    print(repr(value))
    except Exception as e:  # noqa: BLE001 - the error is the recorded result
        message = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return buffer.getvalue() + f"{type(e).__name__}: {message}"
    return buffer.getvalue()


def main():
    import os
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    record = {name: run_case(tf, source) for name, source in CASES.items()}
    RECORD.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(record)} cases recorded in {RECORD}", file=sys.stderr)


if __name__ == "__main__":
    main()
