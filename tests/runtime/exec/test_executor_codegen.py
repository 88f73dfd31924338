"""The code-generating executor: same results as a plain interpreter, side
effects in program order, pruning, error attribution, readable source."""

import gc
import linecache
import traceback
import warnings

import numpy as np
import pytest

import runtime as tf
from runtime._src.exec import codegen, executor, interpreter
from runtime.errors import InvalidArgumentError
from runtime._src.graph.graph import Graph
from runtime._src.graph.op_registry import OPS, apply, define_op
from runtime._src.ops.shape_rules import same_as_first

THIS_FILE = __file__


# --- test-only ops ---------------------------------------------------------------

def _define_test_ops():
    if "CodegenTestLog" in OPS:
        return

    @define_op("CodegenTestLog", infer=same_as_first, side_effect=True)
    def _log(x, *, log, tag):
        log.append((tag, np.asarray(x).tolist()))
        return x

    @define_op("CodegenTestFail", infer=same_as_first)
    def _fail(x):
        raise ValueError("kernel exploded")

    def pair_rule(inputs, attrs):
        return [(inputs[0].dtype, inputs[0].shape)] * 2

    @define_op("CodegenTestPair", infer=pair_rule, num_outputs=2)
    def _pair(x, *, step):
        return x + step, x - step


_define_test_ops()


def interpret(graph, inputs):
    """Reference: the node-by-node interpreter the generated code replaces."""
    env = {}
    placeholders = graph.inputs + [inner for _, inner in graph.captures]
    for t, v in zip(placeholders, inputs):
        env[id(t)] = v
    for node in codegen.plan(graph):
        if node.op == "Placeholder":
            continue
        out = node.opdef.kernel(*[env[id(t)] for t in node.inputs], **node.attrs)
        outs = (out,) if node.opdef.num_outputs == 1 else out
        for t, v in zip(node.outputs, outs):
            env[id(t)] = v
    return [env[id(t)] for t in graph.outputs]


def build(name, specs, body):
    """A graph with placeholders of `specs` [(dtype, shape)] and outputs body(*xs)."""
    g = Graph(name)
    with g.as_default():
        xs = [g.add_placeholder(d, s, f"x{i}") for i, (d, s) in enumerate(specs)]
        outs = body(*xs)
    g.outputs = list(outs)
    return g


def assert_same(actual, expected):
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        assert np.asarray(a).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(a, e)


# --- equivalence with the interpreter --------------------------------------------

I32, F32 = tf.int32, tf.float32
CASES = [
    ("int_scalar_arith", [(I32, []), (I32, [])], lambda a, b: [a * 2 + b - 7, -a],
     [np.int32(5), np.int32(-3)]),
    ("float_arrays", [(F32, [3]), (F32, [3])], lambda a, b: [a * b + a, a - b],
     [np.array([1.5, 2, 3], np.float32), np.array([4, 5, 6.25], np.float32)]),
    ("int_arrays_broadcast", [(I32, [2, 3]), (I32, [3])], lambda a, b: [a + b, a * b],
     [np.arange(6, dtype=np.int32).reshape(2, 3), np.array([1, 2, 3], np.int32)]),
    ("compare", [(I32, [4]), (I32, [4])], lambda a, b: [a < b, a > b],
     [np.array([1, 5, 3, 3], np.int32), np.array([2, 4, 3, 0], np.int32)]),
    ("input_is_output", [(I32, [])], lambda a: [a, a, a + 1], [np.int32(4)]),
    ("const_output", [(I32, [])], lambda a: [tf.convert_to_tensor(7) + 0, a],
     [np.int32(1)]),
    ("multi_output", [(I32, [2])],
     lambda a: list(apply("CodegenTestPair", (a,), {"step": 3})) + [a * 1],
     [np.array([10, 20], np.int32)]),
    ("unused_work_pruned", [(F32, [])], lambda a: [(a * a, a - 1)[0]], [np.float32(3)]),
]


@pytest.mark.parametrize("name,specs,body,inputs", CASES, ids=[c[0] for c in CASES])
def test_generated_code_matches_interpreter(name, specs, body, inputs):
    g = build(name, specs, body)
    assert_same(executor.run(g, inputs), interpret(g, inputs))
    assert_same(executor.run(g, inputs), interpret(g, inputs))  # cached form


def test_pruned_nodes_are_not_in_the_source():
    g = build("p", [(I32, [])], lambda a: [(a * 3, a - 11)[0]])
    src = g.python_source()
    assert "x0 * " in src or "_Mul(x0" in src
    assert "Sub" not in src


def test_template_matches_kernel_for_every_infix_op():
    samples = {
        "int": (np.array([[7, -3], [4, 9]], np.int32), np.array([[2, 5], [-3, 4]], np.int32)),
        "float": (np.array([[1.5, -2], [3, 0.25]], np.float32),
                  np.array([[0.5, 4], [-2, 8]], np.float32)),
        "bool": (np.array([[True, False], [True, True]]), np.array([[False, False], [True, False]])),
    }
    checked = 0
    for op, template in codegen.INFIX.items():
        if op not in OPS:
            continue
        kinds = ["bool"] if op in codegen._LOGICAL else ["int", "float"]
        for kind in kinds:
            a, b = samples[kind]
            args = (a,) if "{1}" not in template else (a, b)
            expected = OPS[op].kernel(*args)
            actual = eval(template.format(*[f"v{i}" for i in range(len(args))]),
                          {f"v{i}": v for i, v in enumerate(args)})
            assert actual.dtype == expected.dtype, (op, kind)
            np.testing.assert_array_equal(actual, expected, err_msg=f"{op} {kind}")
            checked += 1
    assert checked >= 5


def test_int32_scalar_overflow_wraps_without_warning():
    g = build("w", [(I32, []), (I32, [])], lambda a, b: [a + b, a * b])
    big = np.int32(2**31 - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = executor.run(g, [big, np.int32(2)])
    assert out[0] == np.int32(-2**31 + 1) and out[0].dtype == np.int32
    assert out[1] == np.int32(-2)


# --- side effects and pruning ------------------------------------------------------

def test_side_effects_run_in_program_order_every_run():
    log = []

    def body(a):
        apply("CodegenTestLog", (a,), {"log": log, "tag": "first"})
        b = a * 2
        apply("CodegenTestLog", (b,), {"log": log, "tag": "second"})
        apply("CodegenTestLog", (a - 1,), {"log": log, "tag": "third"})
        return [a + 1]

    g = build("effects", [(I32, [])], body)
    assert log == []
    assert executor.run(g, [np.int32(5)])[0] == 6
    assert log == [("first", 5), ("second", 10), ("third", 4)]
    executor.run(g, [np.int32(1)])
    assert [tag for tag, _ in log] == ["first", "second", "third"] * 2


def test_unused_failing_op_does_not_run():
    g = build("prune", [(I32, [])], lambda a: [(a + 1, apply("CodegenTestFail", (a,)))[0]])
    assert executor.run(g, [np.int32(1)])[0] == 2
    assert "CodegenTestFail" not in g.python_source()


# --- errors ------------------------------------------------------------------------

def _failing_graph():
    g = Graph("failing")
    with g.as_default():
        a = g.add_placeholder(I32, [], "a")
        b = a + 1
        line = _lineno() + 1
        c = apply("CodegenTestFail", (b,))
        d = c * 2
    g.outputs = [d]
    return g, line


def _lineno():
    import sys
    return sys._getframe(1).f_lineno


def test_failing_kernel_names_node_and_user_line():
    g, line = _failing_graph()
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.int32(1)])
    msg = str(info.value)
    assert "TestFail failed on inputs (int32[])" in msg
    assert "kernel exploded" in msg
    assert f"{THIS_FILE}:{line}" in msg
    assert info.value.op_name == "CodegenTestFail"
    assert isinstance(info.value.__cause__, ValueError)


def test_traceback_shows_generated_line():
    g, _ = _failing_graph()
    executor.compiled_form(g)                   # (a first run is interpreted)
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.int32(1)])
    text = "".join(traceback.format_exception(info.value.__cause__))
    assert "CodegenTestFail = _CodegenTestFail(AddV2)" in text


def test_wrong_number_of_inputs():
    g = build("two", [(I32, []), (I32, [])], lambda a, b: [a + b])
    with pytest.raises(ValueError, match=r"graph 'two' takes 2 inputs .*got 1"):
        executor.run(g, [np.int32(1)])


# --- source, caching, naming --------------------------------------------------------

def test_python_source_is_readable_and_registered():
    g = build("src", [(I32, [3]), (I32, [3])], lambda a, b: [a * b + a])
    src = g.python_source()
    assert src.splitlines()[0] == "def graph_src(x0, x1):"
    assert "Mul = x0 * x1  # test_executor_codegen.py:" in src
    assert "AddV2 = Mul + x0" in src
    assert src.rstrip().endswith("return [AddV2]")
    compiled = g._compiled
    assert "".join(linecache.getlines(compiled.filename)) == src


def test_collected_graph_source_leaves_linecache_at_the_next_compile_not_in_gc():
    # A GC pass can run inside linecache.checkcache()'s walk over the cache;
    # an entry removed by a finalizer there is a KeyError in the caller.
    g = build("gone", [(I32, [])], lambda a: [a * 3])
    filename = codegen.compile_graph(g).filename
    gc.collect()                                  # the CompiledGraph is garbage now
    assert filename in linecache.cache            # GC did not touch the cache
    linecache.checkcache()
    codegen.compile_graph(build("next", [(I32, [])], lambda a: [a - 1]))
    assert filename not in linecache.cache


def test_compiled_form_is_cached_and_reset_by_add_node():
    g = build("cache", [(I32, [])], lambda a: [a + 1])
    executor.run(g, [np.int32(1)])              # interpreted
    assert g._compiled is interpreter.INTERPRETED
    executor.run(g, [np.int32(1)])              # compiled
    first = g._compiled
    executor.run(g, [np.int32(2)])
    assert g._compiled is first
    with g.as_default():
        extra = g.inputs[0] * 3
    g.outputs = [extra]
    assert g._compiled is None
    assert executor.run(g, [np.int32(2)])[0] == 6


@pytest.mark.parametrize("name", ["lambda", "print", "graph_f", "1x", "a/b:0", "_private"])
def test_awkward_names_compile(name):
    g = Graph("odd name!")
    with g.as_default():
        x = g.add_placeholder(I32, [], name)
        y = g.add_placeholder(I32, [], name)
        z = x - y
    g.outputs = [z, x]
    assert_same(executor.run(g, [np.int32(9), np.int32(4)]), [np.int32(5), np.int32(9)])


def test_long_straight_line_graph():
    def body(a):
        for _ in range(2000):
            a = a + 1
        return [a]
    g = build("long", [(I32, [])], body)
    assert executor.run(g, [np.int32(0)])[0] == 2000
    assert len(g.python_source().splitlines()) > 2000


# --- control flow: If / While inlined as Python if / while -------------------------

def make_if(pred, caps, then_fn, else_fn):
    """Stage If(pred, *caps); each branch fn gets the captured tensors."""
    outer = pred.node.graph
    branches = []
    for name, fn in (("then", then_fn), ("else", else_fn)):
        b = Graph(name, outer=outer)
        with b.as_default():
            inner = [b.capture(c) for c in caps]
            b.outputs = list(fn(*inner))
        branches.append(b)
    return apply("If", [pred] + list(caps),
                 {"then_branch": branches[0], "else_branch": branches[1]})


def make_while(cond_fn, body_fn, loop_vars, caps=(), limit=None):
    """Stage While(*loop_vars, *caps[, limit]); fns get (*vars, *caps)."""
    outer = loop_vars[0].node.graph
    graphs = []
    for name, fn in (("cond", cond_fn), ("body", body_fn)):
        sub = Graph(name, outer=outer)
        with sub.as_default():
            vs = [sub.add_placeholder(v.dtype, v.shape, f"v{i}") for i, v in enumerate(loop_vars)]
            inner = [sub.capture(c) for c in caps]
            out = fn(*vs, *inner)
            sub.outputs = list(out) if isinstance(out, (list, tuple)) else [out]
        graphs.append(sub)
    inputs = list(loop_vars) + list(caps) + ([limit] if limit is not None else [])
    return apply("While", inputs, {"cond": graphs[0], "body": graphs[1],
                                   "num_loop_vars": len(loop_vars),
                                   "has_maximum_iterations": limit is not None})


def collatz_graph():
    def body(n0):
        def loop_body(n, steps):
            even = tf.less(n % 2, 1)
            (nxt,) = make_if(even, [n], lambda n: [n // 2], lambda n: [n * 3 + 1])
            return [nxt, steps + 1]
        n, steps = make_while(lambda n, steps: tf.greater(n, 1), loop_body, [n0, n0 * 0])
        return [steps, n]
    return build("collatz", [(I32, [])], body)


import runtime._src.exec.control_flow_ops  # registers If and While


@pytest.mark.parametrize("n,steps", [(27, 111), (1, 0), (6, 8)])
def test_collatz_while_if_matches_interpreter(n, steps):
    g = collatz_graph()
    out = executor.run(g, [np.int32(n)])
    assert_same(out, interpret(g, [np.int32(n)]))
    assert out[0] == steps and out[0].dtype == np.int32


def test_control_flow_is_inlined_as_python_statements():
    g = collatz_graph()
    src = g.python_source()
    assert "while True:" in src
    assert "break" in src
    assert "\n            if Less" in src or "if Less" in src
    assert "_While(" not in src and "_If(" not in src
    assert 'with _np.errstate(over="ignore")' in src


def test_if_runs_only_the_taken_branch_side_effects():
    log = []

    def body(x):
        pred = tf.greater(x, x * 0)
        make_if(pred, [x],
                lambda x: [apply("CodegenTestLog", (x,), {"log": log, "tag": "then"})],
                lambda x: [apply("CodegenTestLog", (-x,), {"log": log, "tag": "else"})])
        return [x + 1]

    g = build("ifeffects", [(I32, [])], body)
    executor.run(g, [np.int32(3)])
    executor.run(g, [np.int32(-2)])
    assert log == [("then", 3), ("else", 2)]


def test_while_with_maximum_iterations_and_body_effects():
    log = []

    def body(x):
        limit = x * 0 + 4

        def loop_body(i, x):
            apply("CodegenTestLog", (i,), {"log": log, "tag": "it"})
            return [i + 1]
        (i,) = make_while(lambda i, x: tf.less(i, x), loop_body, [x * 0], [x], limit=limit)
        return [i]

    g = build("limited", [(I32, [])], body)
    assert executor.run(g, [np.int32(10)])[0] == 4
    assert executor.run(g, [np.int32(2)])[0] == 2
    assert [v for _, v in log] == [0, 1, 2, 3, 0, 1]
    assert "while While_count < While_limit:" in g.python_source()


def test_failing_kernel_inside_loop_body_names_node():
    def body(x):
        def loop_body(i):
            line = _lineno() + 1
            bad = apply("CodegenTestFail", (i,))
            body.line = line
            return [bad]
        (i,) = make_while(lambda i: tf.less(i, i + 1), loop_body, [x])
        return [i]

    g = build("failloop", [(I32, [])], body)
    with pytest.raises(InvalidArgumentError) as info:
        executor.run(g, [np.int32(0)])
    assert "TestFail failed" in str(info.value)
    assert f"{THIS_FILE}:{body.line}" in str(info.value)


def test_editing_an_inlined_subgraph_recompiles():
    g = collatz_graph()
    assert executor.run(g, [np.int32(6)])[0] == 8        # interpreted
    assert executor.run(g, [np.int32(6)])[0] == 8        # compiled
    first = g._compiled
    assert executor.run(g, [np.int32(6)])[0] == 8 and g._compiled is first
    loop = next(n for n in g.nodes if n.op == "While")
    loop.attrs["body"]._compiled = None        # what an optimizer pass does after an edit
    executor.run(g, [np.int32(6)])
    assert g._compiled is not first


@pytest.mark.long
def test_million_iteration_loop_runs_in_flat_memory():
    import tracemalloc

    def body(n):
        (i,) = make_while(lambda i, n: tf.less(i, n), lambda i, n: [i + 1], [n * 0], [n])
        return [i]

    g = build("count", [(I32, [])], body)
    executor.run(g, [np.int32(10)])  # compile outside the measurement
    tracemalloc.start()
    try:
        out = executor.run(g, [np.int32(1_000_000)])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out[0] == 1_000_000 and out[0].dtype == np.int32
    assert peak < 64 * 1024, peak


def test_deep_nesting_falls_back_to_kernel_calls():
    def nest(x, depth):
        if depth == 0:
            return [x + 1]
        pred = tf.greater(x, x * 0)
        return make_if(pred, [x], lambda x: nest(x, depth - 1), lambda x: [x - 1])

    g = build("deep", [(I32, [])], lambda x: list(nest(x, 12)))
    assert_same(executor.run(g, [np.int32(5)]), interpret(g, [np.int32(5)]))
    assert executor.run(g, [np.int32(5)])[0] == 6
    assert "_If(" in g.python_source()


@pytest.mark.parametrize("ta, tb", [(False, True), (True, False), (True, True)])
def test_transposed_matmul_of_matrices_is_inlined_and_exact(ta, tb):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 4) if not ta else (4, 3)).astype(np.float32)
    b = rng.standard_normal((4, 2) if not tb else (2, 4)).astype(np.float32)

    @tf.function
    def f(x, y):
        return tf.matmul(x, y, transpose_a=ta, transpose_b=tb)

    got = f(tf.constant(a), tf.constant(b)).numpy()
    np.testing.assert_array_equal(got, OPS["MatMul"].kernel(a, b, transpose_a=ta,
                                                            transpose_b=tb))
    src = f.get_concrete_function(tf.constant(a), tf.constant(b)).graph.python_source()
    assert ("x.T @ " if ta else "x @ ") + ("y.T" if tb else "y") in src


def test_transposed_matmul_of_batches_keeps_its_kernel():
    # `.T` would reverse every axis of a rank-3 batch; the kernel swaps the last two.
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)

    @tf.function
    def f(x):
        return tf.matmul(x, x, transpose_b=True)

    np.testing.assert_array_equal(f(tf.constant(a)).numpy(), a @ np.swapaxes(a, 1, 2))
    assert "_MatMul(" in f.get_concrete_function(tf.constant(a)).graph.python_source()


def _src_and_run(fn, *args):
    f = tf.function(fn)
    tensors = [tf.constant(a) for a in args]
    got = f(*tensors)
    return f.get_concrete_function(*tensors).graph.python_source(), got


def test_a_temporary_used_once_is_overwritten_by_its_consumer():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((3, 2), np.float32)
    src, got = _src_and_run(lambda x, y: tf.matmul(x, y) * 0.5 + 1.0, a, b)
    assert "_np.multiply(" in src and "_np.add(" in src
    np.testing.assert_array_equal(got.numpy(), (a @ b) * np.float32(0.5) + np.float32(1))


def test_a_temporary_read_twice_or_returned_is_not_overwritten():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.ones((3, 2), np.float32)

    def twice(x, y):
        t = tf.matmul(x, y)
        return t * 2.0, t + 1.0, t

    src, (doubled, plus, t) = _src_and_run(twice, a, b)
    assert "out=" not in src
    np.testing.assert_array_equal(t.numpy(), a @ b)
    np.testing.assert_array_equal(doubled.numpy(), (a @ b) * 2)
    np.testing.assert_array_equal(plus.numpy(), (a @ b) + 1)


def test_a_temporary_smaller_than_the_result_is_not_overwritten():
    # (2, 1) + (2, 3) broadcasts to a larger result: it cannot be written in place.
    a = np.arange(2, dtype=np.float32).reshape(2, 1)
    c = np.ones((2, 3), np.float32)
    src, got = _src_and_run(lambda x, y: (x * 3.0) + y, a, c)
    assert "out=" not in src
    np.testing.assert_array_equal(got.numpy(), a * 3 + c)


def test_integer_temporaries_are_not_overwritten():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    src, got = _src_and_run(lambda x: (x * 3) + 1, a)
    assert "out=" not in src
    np.testing.assert_array_equal(got.numpy(), a * 3 + 1)


def test_temporaries_in_a_loop_body_are_reused_each_iteration():
    a = np.arange(4, dtype=np.float64)

    def loop(x, n):
        for _ in tf.range(n):
            x = (x * 2.0) + 1.0
        return x

    src, got = _src_and_run(loop, a, np.int32(3))
    want = a.copy()
    for _ in range(3):
        want = want * 2 + 1
    np.testing.assert_array_equal(got.numpy(), want)


def test_temporaries_with_an_unknown_batch_size_are_reused_when_safe():
    w = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.array([1.0, -1.0], np.float32)
    w2 = w[:, ::-1].copy()
    col = np.array([[2.0], [3.0]], np.float32)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32),
                                  tf.TensorSpec([None, 1], tf.float32)])
    def f(x, c):
        h = tf.matmul(x, w) + b          # (None, 2) + (2,): the result has the temp's shape
        g = tf.matmul(x, w2) * c         # (None, 2) * (None, 1): c's rows could outnumber x's
        k = tf.matmul(c, tf.ones([1, 2])) * tf.ones([2])   # second operand (2,) into (None, 2)
        return h, g, k

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    h, g, k = f(tf.constant(x), tf.constant(col))
    np.testing.assert_array_equal(h.numpy(), x @ w + b)
    np.testing.assert_array_equal(g.numpy(), (x @ w2) * col)
    np.testing.assert_array_equal(k.numpy(), col @ np.ones((1, 2), np.float32))
    src = f.get_concrete_function().graph.python_source()
    assert src.count("out=") == 2          # h and k reuse their temporaries, g does not
    # A (None, 2) temp times a (None, 1) operand can be (1, 2) * (2, 1) = (2, 2).
    wide = f(tf.constant(x[:1]), tf.constant(col))
    np.testing.assert_array_equal(wide[1].numpy(), (x[:1] @ w2) * col)


def test_bias_add_and_relu_write_into_a_fresh_conv_or_matmul_result():
    x = np.random.default_rng(1).standard_normal((2, 5, 5, 2)).astype(np.float32)
    f = np.random.default_rng(2).standard_normal((3, 3, 2, 4)).astype(np.float32)
    b = np.array([0.5, -0.5, 0.0, 1.0], np.float32)

    def layer(x, f, b):
        return tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "VALID"), b))

    src, got = _src_and_run(layer, x, f, b)
    assert "_np.add(Conv2D, b, out=Conv2D)" in src
    assert "_np.maximum(BiasAdd, _zero_float32, out=BiasAdd)" in src
    want = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, f, 1, "VALID"), b))   # eager kernels
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    w = np.ones((3, 4), np.float32)
    src, got = _src_and_run(lambda x, w, b: tf.nn.relu(tf.nn.bias_add(x @ w, b)),
                            x[0, 0, :3, :1].T.copy().repeat(2, 0), w, b)
    assert src.count("out=") == 2


def test_a_conv_result_read_twice_or_returned_is_not_overwritten():
    x = np.random.default_rng(1).standard_normal((1, 4, 4, 1)).astype(np.float32)
    f = np.ones((2, 2, 1, 2), np.float32)
    b = np.array([1.0, -100.0], np.float32)

    def both(x, f, b):
        y = tf.nn.conv2d(x, f, 1, "VALID")
        return tf.nn.relu(tf.nn.bias_add(y, b)), y

    src, (r, y) = _src_and_run(both, x, f, b)
    assert "out=Conv2D" not in src                    # y is returned: BiasAdd makes a new array
    assert "out=BiasAdd" in src                       # its result is still a fresh temporary
    conv = tf.nn.conv2d(x, f, 1, "VALID").numpy()
    np.testing.assert_array_equal(y.numpy(), conv)
    np.testing.assert_array_equal(r.numpy(), np.maximum(conv + b, 0))
    nan_x = np.full((1, 2, 2, 1), np.nan, np.float32)
    _, got = _src_and_run(lambda x, f, b: tf.nn.relu(tf.nn.bias_add(
        tf.nn.conv2d(x, f, 1, "VALID"), b)), nan_x, f, b)
    assert np.isnan(got.numpy()).all()                # relu keeps NaN, as the kernel does


@pytest.mark.parametrize("window, stride, padding, form", [
    (2, 2, "VALID", "_max_pool_grad_of_relu(AddV2, Mul, MaxPool"),  # folded, pooled first
    (3, 2, "SAME", "_np.multiply(MaxPoolGrad, Relu > 0, out=MaxPoolGrad)"),     # in place
])
def test_relu_grad_after_a_max_pool_gradient(window, stride, padding, form):
    x = np.random.default_rng(3).standard_normal((2, 4, 4, 3)).astype(np.float32)
    x[0, 0, 0, 0] = x[0, 0, 1, 0]                      # a tie inside a window
    x[1, 2:, 2:, 0] = -1.0                             # a window of ReLU zeros

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.nn.max_pool2d(tf.nn.relu(x * 2.0), window, stride, padding)
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, x)

    src, got = _src_and_run(grad, x)
    assert form in src
    want = grad(tf.constant(x)).numpy()               # eager: the kernels
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(np.signbit(got.numpy()), np.signbit(want))
