"""Record TensorFlow 2.21's results for the public names no other test
covered (tools/name_tests.py), in tests/data/name_audit_tf221.json.

Run under a Python with TensorFlow 2.21 (the oracle):

    $BENCH_TF_PYTHON tools/record_name_audit.py

Each case is Python code over `tf` and `np`: an expression, or statements
that leave their result in `out`. Its result is recorded in a plain form
(`plain`: a tensor's dtype, shape and values, a dataset's elements, a
class's name and bases, ...), or the exception's type when TF raises. A
case whose key ends in " @function" also runs its code inside
`tf.function` (the result must be tensors). tests/runtime/test_name_audit.py
replays every case on the runtime with this module's `run`.
"""

import enum
import json
import math
import pathlib
import sys

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "name_audit_tf221.json"

DS = "tf.data.Dataset"
CASES = {
    # tf.errors: the codes, each class's code and base, and what an instance carries
    "errors": [f"tf.errors.{c}" for c in (
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED")] + [
        f"out = tf.errors.{c}(None, None, 'went wrong'); "
        f"out = [type(out).__mro__[1].__name__, out.error_code, str(out), out.message, "
        f"out.op, out.node_def]" for c in (
            "AbortedError", "DeadlineExceededError", "UnauthenticatedError",
            "UnavailableError", "CancelledError", "DataLossError")] + [
        "issubclass(tf.errors.UnavailableError, tf.errors.OpError)",
        "out = tf.errors.OpError(None, None, 'm', tf.errors.UNAVAILABLE); "
        "out = [out.error_code, str(out)]",
    ],
    # tf.data.experimental: constants, options, and the transformations
    "data": [
        "tf.data.experimental.AUTOTUNE", "tf.data.experimental.INFINITE_CARDINALITY",
        "tf.data.experimental.UNKNOWN_CARDINALITY", "tf.data.experimental.SHARD_HINT",
        "[a.name for a in tf.data.experimental.AutotuneAlgorithm]",
        "[a.value for a in tf.data.experimental.AutotuneAlgorithm]",
        "[p.name for p in tf.data.experimental.ExternalStatePolicy]",
        "[p.value for p in tf.data.experimental.ExternalStatePolicy]",
        "o = tf.data.experimental.AutotuneOptions(); "
        "out = [o.enabled, o.cpu_budget, o.ram_budget, o.autotune_algorithm]",
        "o = tf.data.experimental.OptimizationOptions(); "
        "out = [o.apply_default_optimizations, o.map_parallelization, o.parallel_batch, "
        "o.noop_elimination, o.shuffle_and_repeat_fusion]",
        "o = tf.data.experimental.ThreadingOptions(); "
        "out = [o.max_intra_op_parallelism, o.private_threadpool_size]",
        "o = tf.data.ThreadingOptions(); o.private_threadpool_size = 2; "
        "out = [o.max_intra_op_parallelism, o.private_threadpool_size]",
        "tf.data.experimental.ThreadingOptions is tf.data.ThreadingOptions",
        "o = tf.data.experimental.DistributeOptions(); "
        "out = [o.auto_shard_policy.name, o.num_devices]",
        "o = tf.data.Options(); o.threading.private_threadpool_size = 3; "
        "o.autotune.enabled = False; out = [o.threading.private_threadpool_size, "
        "o.autotune.enabled, o.experimental_distribute.auto_shard_policy.name]",
        "list(tf.data.experimental.Counter(start=3, step=2).take(3))",
        "list(tf.data.experimental.Counter(dtype=tf.int32).take(2))",
        "tf.data.experimental.Counter().element_spec",
        "ds = tf.data.experimental.RandomDataset(seed=5).take(4); "
        "out = [ds.element_spec, len(list(ds))]",
        f"tf.data.experimental.cardinality({DS}.range(7).batch(2))",
        f"tf.data.experimental.cardinality({DS}.range(7).repeat())",
        f"tf.data.experimental.cardinality({DS}.range(7).filter(lambda x: x > 2))",
        f"list(tf.data.experimental.choose_from_datasets([{DS}.range(3), "
        f"{DS}.range(10, 13)], {DS}.from_tensor_slices(tf.constant([0, 1, 1, 0, 0], "
        "tf.int64))))",
        f"list(tf.data.experimental.sample_from_datasets([{DS}.range(3), {DS}.range(3)], "
        "weights=[1.0, 0.0], seed=1))",
        f"list({DS}.from_tensor_slices([[1, 2], [3, 4], [5, 6]])"
        ".apply(tf.data.experimental.dense_to_ragged_batch(2)))",
        f"list({DS}.from_tensor_slices(tf.constant([[1, 0], [0, 2]], tf.int64))"
        ".map(lambda x: tf.boolean_mask(x, x > 0))"
        ".apply(tf.data.experimental.dense_to_sparse_batch(2, [3])))",
        f"tf.data.experimental.get_single_element({DS}.from_tensors([1, 2]))",
        f"tf.data.experimental.get_single_element({DS}.range(2))",
        f"list({DS}.range(10).apply(tf.data.experimental.group_by_window("
        "lambda x: x % 2, lambda k, w: w.batch(3), window_size=3)))",
        f"list({DS}.range(4).apply(tf.data.experimental.parallel_interleave("
        f"lambda x: {DS}.from_tensors(x).repeat(2), cycle_length=2)))",
        f"list({DS}.range(5).apply(tf.data.experimental.scan("
        "tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10 + x))))",
        f"list({DS}.range(9).apply(tf.data.experimental.take_while(lambda x: x < 4)))",
        f"list({DS}.from_tensor_slices([[1, 2], [3, 4]]).apply("
        "tf.data.experimental.unbatch()))",
        f"list({DS}.from_tensor_slices([3, 1, 3, 2, 1]).apply(tf.data.experimental.unique()))",
        f"list({DS}.from_tensor_slices([1, 2, 3, 1]).map(lambda n: tf.range(n) + 1)"
        ".apply(tf.data.experimental.bucket_by_sequence_length("
        "lambda x: tf.shape(x)[0], [2], [2, 2])))",
        f"it = iter({DS}.range(2)); out = [isinstance(it, tf.data.Iterator), next(it), "
        "it.get_next(), it.element_spec]",
    ],
    # tf.config: device records, soft placement, switches that are no-ops on a CPU
    "config": [
        "d = tf.config.LogicalDevice('/job:localhost/device:CPU:0', 'CPU'); "
        "out = [d.name, d.device_type, d == tf.config.LogicalDevice("
        "'/job:localhost/device:CPU:0', 'CPU'), tuple(d)]",
        "d = tf.config.list_physical_devices('CPU')[0]; "
        "out = [isinstance(d, tf.config.PhysicalDevice), d.name, d.device_type]",
        "str(tf.config.PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU'))",
        "tf.config.get_soft_device_placement()",
        "tf.config.set_soft_device_placement(False); a = tf.config.get_soft_device_placement(); "
        "tf.config.set_soft_device_placement(True); out = [a, tf.config.get_soft_device_placement()]",
        "[tf.config.experimental.enable_mlir_bridge(), tf.config.experimental.disable_mlir_bridge()]",
        "tf.config.experimental.set_synchronous_execution(True)",
        "tf.config.experimental.reset_memory_stats('CPU:0')",
        "tf.config.experimental.reset_memory_stats('GPU:7')",
    ],
    # tf.experimental.numpy's NumPy types, and tf.experimental's ragged shape names
    "numpy": [f"tf.experimental.numpy.{n}" for n in (
        "bool_", "complex128", "complex64", "complex_", "float16", "int16", "object_",
        "string_", "uint16", "uint32", "uint64", "uint8", "unicode_")] + [
        "tf.experimental.numpy.zeros(2, tf.experimental.numpy.uint8) @function",
        "tf.experimental.numpy.ones(2, dtype=tf.experimental.numpy.complex_) @function",
        "tf.experimental.numpy.asarray([1, 2], tf.experimental.numpy.int16) @function",
        "tf.experimental.numpy.asarray([True], tf.experimental.numpy.bool_) @function",
        "tf.experimental.numpy.asarray([1.5], tf.experimental.numpy.float16) @function",
        "tf.experimental.numpy.asarray([7], tf.experimental.numpy.uint16) @function",
        "tf.experimental.numpy.asarray([7], tf.experimental.numpy.uint32) @function",
        "tf.experimental.numpy.asarray([7], tf.experimental.numpy.uint64) @function",
        "tf.experimental.numpy.asarray([1j], tf.experimental.numpy.complex64) @function",
        "tf.experimental.numpy.asarray([1j], tf.experimental.numpy.complex128) @function",
        "tf.experimental.numpy.asarray([b'a'], tf.experimental.numpy.string_)",
    ],
    "ragged_shape": [
        "p = tf.experimental.RowPartition.from_row_lengths([2, 0, 3]); "
        "out = [p.row_splits(), p.row_lengths(), p.value_rowids(), p.nrows(), p.nvals()]",
        "p = tf.experimental.RowPartition.from_row_splits([0, 1, 1, 4]); "
        "out = [p.row_lengths(), p.static_nrows, p.is_uniform()]",
        "p = tf.experimental.RowPartition.from_value_rowids([0, 0, 2], nrows=3); "
        "out = [p.row_splits(), p.dtype]",
        "p = tf.experimental.RowPartition.from_uniform_row_length(2, nvals=6); "
        "out = [p.row_splits(), p.uniform_row_length(), p.is_uniform()]",
        "s = tf.experimental.DynamicRaggedShape.from_tensor(tf.ragged.constant([[1, 2], [3]]));"
        " out = [s.rank, s.num_row_partitions, s.inner_shape, s[0], s.static_lengths()]",
        "s = tf.experimental.DynamicRaggedShape.from_tensor(tf.zeros([2, 3])); "
        "out = [s.rank, s.num_row_partitions, s.inner_shape, s.static_lengths()]",
        "s = tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1), 3]); "
        "out = [s.rank, s.static_lengths(), s.num_row_partitions]",
        "tf.ones(tf.experimental.DynamicRaggedShape.from_lengths([2, (2, 1)]))",
        "tf.reshape(tf.ragged.constant([[1, 2], [3]]), "
        "tf.experimental.DynamicRaggedShape.from_lengths([3]))",
    ],
    "summary": [
        "tf.summary.should_record_summaries()",
        "w = tf.summary.create_noop_writer(); "
        "out = [isinstance(w, tf.summary.SummaryWriter), w.flush(), w.close()]",
        "with tf.summary.create_noop_writer().as_default(step=1): "
        "out = [tf.summary.should_record_summaries(), tf.summary.write('t', 1.0)]",
        "w = tf.summary.create_file_writer(TMP); out = []\n"
        "with w.as_default(step=3):\n"
        "    out += [tf.summary.should_record_summaries(), tf.summary.write('t', [1.0, 2.0]),"
        " tf.summary.write('u', 1.0, step=4, metadata=None)]\n"
        "with w.as_default(step=3), tf.summary.record_if(False):\n"
        "    out += [tf.summary.should_record_summaries(), tf.summary.write('t', 2.0)]\n"
        "w.close(); out += [isinstance(w, tf.summary.SummaryWriter)]",
        "tf.summary.write('t', 1.0)",
        "tf.summary.trace_on(graph=True); out = tf.summary.trace_off()",
        "tf.summary.trace_off()",
    ],
    "test": [
        "tf.test.is_built_with_xla()", "tf.test.is_cpu_target_available('x86')",
        "tf.test.is_cpu_target_available('nonsense')",
        "type(tf.test.benchmark_config()).__name__",
        "str(tf.test.benchmark_config()).split()",
        "calls = []\n"
        "@tf.test.disable_with_predicate(pred=lambda: True, skip_message='off')\n"
        "def f(self): calls.append(1)\n"
        "class T(tf.test.TestCase):\n"
        "    def test_a(self): f(self)\n"
        "r = unittest.TestResult(); T('test_a').run(r); out = [calls, r.skipped[0][1]]",
        "calls = []\n"
        "@tf.test.disable_with_predicate(pred=lambda: False, skip_message='off')\n"
        "def f(self): calls.append(1)\n"
        "class T(tf.test.TestCase):\n"
        "    def test_a(self): f(self)\n"
        "r = unittest.TestResult(); T('test_a').run(r); out = [calls, len(r.skipped)]",
        "calls = []\n"
        "@tf.test.with_eager_op_as_function\n"
        "class T(tf.test.TestCase):\n"
        "    def test_a(self): calls.append(tf.executing_eagerly())\n"
        "r = unittest.TestResult(); unittest.defaultTestLoader.loadTestsFromTestCase(T).run(r); "
        "out = [sorted(n for n in dir(T) if n.startswith('test')), calls, r.wasSuccessful()]",
    ],
    "train_and_more": [
        "o = tf.train.CheckpointOptions(); "
        "out = [o.experimental_io_device, o.experimental_enable_async_checkpoint, "
        "o.enable_async, o.experimental_skip_slot_variables, o.experimental_sharding_callback]",
        "o = tf.train.CheckpointOptions(experimental_io_device='/job:localhost', "
        "enable_async=True); out = [o.experimental_io_device, o.enable_async]",
        "c = tf.train.Checkpoint(v=tf.Variable(1.0)); "
        "m = tf.train.CheckpointManager(c, TMP, max_to_keep=2); m.save(); m.save(); "
        "s = tf.train.get_checkpoint_state(TMP); "
        "out = [s.model_checkpoint_path[len(TMP):], "
        "[p[len(TMP):] for p in s.all_model_checkpoint_paths]]",
        "tf.train.get_checkpoint_state(TMP)",
        "c = tf.train.Checkpoint(v=tf.Variable(2.0)); "
        "p = c.write(TMP + '/ck', options=tf.train.CheckpointOptions()); "
        "c.v.assign(5.0); c.read(p, options=tf.train.CheckpointOptions()); out = c.v",
        "o = tf.saved_model.LoadOptions(); "
        "out = [o.experimental_io_device, o.allow_partial_checkpoint, "
        "o.experimental_skip_checkpoint]",
        "o = tf.saved_model.LoadOptions(allow_partial_checkpoint=True, "
        "experimental_io_device='/job:localhost'); "
        "out = [o.allow_partial_checkpoint, o.experimental_io_device]",
        "m = tf.Module(); "
        "m.f = tf.function(lambda x: x * 2.0, input_signature=[tf.TensorSpec([2])]); "
        "tf.saved_model.save(m, TMP); "
        "out = tf.saved_model.load(TMP, options=tf.saved_model.LoadOptions()).f("
        "tf.constant([3.0, 4.0]))",
        "sorted(n for n in vars(tf.image.ResizeMethod) if not n.startswith('_'))",
        "[tf.image.ResizeMethod.BILINEAR, tf.image.ResizeMethod.NEAREST_NEIGHBOR, "
        "tf.image.ResizeMethod.BICUBIC, tf.image.ResizeMethod.AREA, "
        "tf.image.ResizeMethod.LANCZOS3, tf.image.ResizeMethod.LANCZOS5, "
        "tf.image.ResizeMethod.GAUSSIAN, tf.image.ResizeMethod.MITCHELLCUBIC]",
        "tf.image.resize([[[1.0], [3.0]]], [1, 4], method=tf.image.ResizeMethod.BILINEAR) "
        "@function",
        "tf.image.resize([[[1.0], [3.0]]], [1, 3], "
        "method=tf.image.ResizeMethod.NEAREST_NEIGHBOR) @function",
        "x = tf.constant([[[0.9, 0.2, 0.1], [0.3, 0.3, 0.3]]]); "
        "y = tf.image.random_saturation(x, 0.5, 0.5000001, seed=1); "
        "out = tf.reduce_max(tf.abs(y - tf.image.adjust_saturation(x, 0.5))) < 1e-5",
        "x = tf.constant([[[0.9, 0.2, 0.1]]]); "
        "y = tf.image.random_saturation(x, 0.0, 3.0); "
        "out = [y.shape, y.dtype, bool(tf.reduce_max(y) <= 0.9 + 1e-6)]",
        "tf.image.random_saturation(tf.zeros([1, 1, 3]), 2.0, 1.0)",
        "tf.image.random_saturation(tf.zeros([1, 1, 3]), -1.0, 1.0)",
        "[s in tf.io.gfile.get_registered_schemes() for s in ('', 'file')]",
        "g = tf.random.Generator.from_seed(7); tf.random.set_global_generator(g); "
        "out = tf.random.get_global_generator() is g",
        "g = tf.random.Generator.from_seed(7); "
        "tf.random.experimental.set_global_generator(g); "
        "out = [tf.random.get_global_generator() is g, "
        "tf.random.experimental.set_global_generator is tf.random.set_global_generator]",
        "q = tf.queue.FIFOQueue(3, tf.int32); "
        "out = [isinstance(q, tf.queue.QueueBase), q.enqueue(4), q.size(), q.dequeue()]",
        "q = tf.queue.QueueBase.from_list(1, [tf.queue.FIFOQueue(2, tf.int32), "
        "tf.queue.FIFOQueue(2, tf.int32)]); out = q.dtypes",
        # TF 2.21 has no CPU kernel for conv2d_backprop_input_v2 (NotFoundError): the
        # test compares ours with this, the same gradient through conv2d_transpose
        "tf.nn.conv2d_transpose(tf.reshape(tf.range(1.0, 9.0), [1, 2, 2, 2]), "
        "tf.reshape(tf.range(1.0, 13.0), [2, 1, 3, 2]), [1, 3, 2, 3], 1, 'VALID') @function",
    ],
}


# tf.sort/argsort/top_k of rows holding NaN (TF's kernel order, sort_ops._tf_row_order):
# rows of 5 to 120 values with NaNs, infinities and ties
_ROW = ("np.random.RandomState({seed}).choice([np.nan, -np.inf, np.inf, 0.0, 1.0, -2.5, 3.0, "
        "7.0, -1.0, 0.5], {n})")
CASES["sort_nan"] = [
    f"{fn}(tf.constant({_ROW.format(seed=seed, n=n)}, tf.{dtype}){extra}) @function"
    for seed, n in ((1, 8), (2, 16), (6, 5), (3, 17), (4, 40), (5, 120))
    for dtype in ("float32", "float64")
    for fn, extra in (("tf.sort", ""), ("tf.sort", ", direction='DESCENDING'"),
                      ("tf.argsort", ""), ("tf.argsort", ", direction='DESCENDING'"),
                      ("tf.math.top_k", f", k={n}"))
] + [f"tf.sort(tf.constant([[1.0, np.nan, -1.0], [np.nan, 2.0, np.nan]]), axis={a}) @function"
     for a in (0, 1)]


# names added with this audit: tf.dtypes.experimental, tf.saved_model.experimental's
# VariablePolicy, tf.summary.experimental.summary_scope, tf.linalg.experimental's
# conjugate_gradient
_SPD = ("tf.linalg.LinearOperatorFullMatrix(tf.constant([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], "
        "[0.0, 0.5, 2.0]], tf.{dt}), is_self_adjoint=True, is_positive_definite=True)")
_CG = "tf.linalg.experimental.conjugate_gradient"
CASES["added"] = [
    f"[tf.dtypes.experimental.{n}.name, tf.dtypes.experimental.{n} is tf.experimental.{n}]"
    for n in ("float4_e2m1fn", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
              "float8_e5m2", "float8_e5m2fnuz", "int2", "int4", "uint2", "uint4")] + [
    "list(tf.saved_model.experimental.VariablePolicy)",
    "[tf.saved_model.experimental.VariablePolicy.from_obj(v) for v in "
    "(None, 'save_variable_devices', 'EXPAND_DISTRIBUTED_VARIABLES')]",
    "tf.saved_model.experimental.VariablePolicy.from_obj('bad')",
    "[tf.saved_model.SaveOptions().experimental_variable_policy, "
    "tf.saved_model.SaveOptions(experimental_variable_policy='expand_distributed_variables')"
    ".experimental_variable_policy, tf.saved_model.LoadOptions().experimental_variable_policy]",
    "out = []\n"
    "with tf.name_scope('outer'):\n"
    "    for args in (('loss',), ('loss', 'd'), (None, 'd'), ('a b:c',)):\n"
    "        with tf.summary.experimental.summary_scope(*args) as (tag, scope):\n"
    "            out.append([tag, scope])\n"
    "with tf.summary.experimental.summary_scope('x') as (tag, scope): out.append([tag, scope])",
    "out = []\n"
    "def f():\n"
    "    with tf.name_scope('o'):\n"
    "        with tf.summary.experimental.summary_scope('loss') as pair: out.append(list(pair))\n"
    "    for _ in range(2):\n"
    "        with tf.summary.experimental.summary_scope('loss') as pair: out.append(list(pair))\n"
    "    return tf.constant(1)\n"
    "tf.function(f)()",
    f"s = {_CG}({_SPD.format(dt='float64')}, tf.constant([1.0, 2.0, 3.0], tf.float64)); "
    "out = [type(s).__name__, list(s._fields), s.i, s.x, s.gamma]",
    f"{_CG}({_SPD.format(dt='float32')}, tf.constant([[1.0, 2.0, 3.0], [0.0, 0.0, 1.0]]), "
    "max_iter=2) @function",
    f"{_CG}({_SPD.format(dt='float64')}, tf.constant([1.0, -1.0, 0.5], tf.float64), "
    "x=tf.constant([0.2, -0.4, 0.1], tf.float64), tol=1e-3) @function",
    f"{_CG}({_SPD.format(dt='float64')}, tf.constant([1.0, -1.0, 0.5], tf.float64), "
    "preconditioner=tf.linalg.LinearOperatorDiag(tf.constant([0.25, 1 / 3, 0.5], tf.float64)))"
    " @function",
    f"{_CG}({_SPD.format(dt='float32')}, tf.zeros([3])) @function",
    f"{_CG}(tf.linalg.LinearOperatorFullMatrix(tf.eye(2)), tf.ones([2]))",
    "with tf.experimental.async_scope(): out = tf.constant(1) + 1",
    "out = []\n"
    "it = iter(tf.data.Dataset.range(2))\n"
    "try:\n"
    "    with tf.experimental.async_scope():\n"
    "        for _ in range(3): out.append(it.get_next())\n"
    "except tf.errors.OutOfRangeError:\n"
    "    out.append(tf.experimental.async_clear_error())",
    "with tf.experimental.function_executor_type('SINGLE_THREADED_EXECUTOR') as e: "
    "out = [e, tf.function(lambda: tf.constant(2) * 3)()]",
    "from tensorboard.compat.proto import event_pb2, summary_pb2\n"
    "from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader\n"
    "def pb(tag, v):\n"
    "    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=v)])"
    ".SerializeToString()\n"
    "w = tf.summary.create_file_writer(TMP); out = []\n"
    "with w.as_default(step=7):\n"
    "    out.append(tf.summary.experimental.write_raw_pb(pb('a', 1.5)))\n"
    "    out.append(tf.summary.experimental.write_raw_pb([pb('a', 1.5), pb('b', 2.5)], step=8))\n"
    "    out.append(tf.function(lambda: tf.summary.experimental.write_raw_pb(pb('c', 3.0), "
    "step=9))())\n"
    "    try:\n"
    "        tf.summary.experimental.write_raw_pb(b'junk')\n"
    "    except tf.errors.DataLossError as e:\n"
    "        out.append(str(e).split('Bad ')[1].split(' [')[0])\n"
    "out.append(tf.summary.experimental.write_raw_pb(pb('a', 1.0), step=1))\n"
    "w.close()\n"
    "import glob\n"
    "for f in glob.glob(TMP + '/*'):\n"
    "    for raw in RawEventFileLoader(f).Load():\n"
    "        e = event_pb2.Event.FromString(raw)\n"
    "        out.append([e.step, [[v.tag, v.simple_value] for v in e.summary.value]])",
    # TF's Simon-cipher shuffle: block sizes 16 to 64 bits, rounds, seeds per row (uint64
    # eagerly only: TF's tf.function gives another value for 2**64 - 2)
    "tf.random.experimental.index_shuffle(tf.range(10), [5, 8], 9) @function",
    "tf.random.experimental.index_shuffle(tf.range(3, dtype=tf.int64), "
    "tf.constant([[1, 2], [3, 4], [-5, 6]], tf.int64), tf.constant([2, 70000, 2**40], tf.int64))"
    " @function",
    "tf.random.experimental.index_shuffle(4, [1, 2], 3)",
    "tf.random.experimental.index_shuffle(1, [1, 2, 3], 3)",
] + [f"tf.random_index_shuffle(tf.constant({idx}, tf.{dt}), tf.constant({seed}, tf.{sdt}), "
     f"tf.constant({top}, tf.{dt}){rounds}){'' if dt == 'uint64' else ' @function'}"
     for idx, seed, top, dt, sdt, rounds in (
         ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3], 9, "int32", "int32", ""),
         ([0, 5, 65535], [7, -1, 2**31 - 1], 65535, "int64", "int64", ", rounds=6"),
         ([0, 65536, 3], [4, 5, 6], 65536, "uint32", "int32", ""),
         ([123456789012, 5], [9, 8, 7], 2**40 + 7, "int64", "int64", ", rounds=8"),
         ([2**63 - 2, 0], [11, 12, 13], 2**63 - 1, "int64", "uint64", ""),
         ([2**64 - 2, 17], [1, 1, 1], 2**64 - 1, "uint64", "int64", ""),
         (0, [1, 2, 3], 0, "int32", "int32", ""),
         ([3, 4], [[1, 2, 3], [4, 5, 6]], [5, 4], "int32", "int32", ""),
     )]


def keys():
    """Every case's key: '<section>: <code>'."""
    return [f"{section}: {code}" for section, codes in CASES.items() for code in codes]


def plain(value):
    """A JSON-able form of a result, the same for TF's objects and ours."""
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if isinstance(value, enum.Enum):
        return {"enum": value.name, "value": plain(value.value)}
    if isinstance(value, type):
        return {"class": value.__name__}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items())}
    kind = type(value).__name__
    if kind == "DType":
        return {"dtype": value.name}
    if kind == "TensorShape":
        return {"shape": value.as_list() if value.rank is not None else None}
    if hasattr(value, "to_list") and hasattr(value, "flat_values"):
        return {"ragged": plain(value.to_list()), "dtype": value.dtype.name}
    if hasattr(value, "dense_shape") and hasattr(value, "indices"):
        return {"sparse": [plain(value.indices), plain(value.values), plain(value.dense_shape)]}
    if kind in ("TensorSpec", "RaggedTensorSpec", "SparseTensorSpec"):
        return {"spec": kind, "shape": plain(value.shape), "dtype": value.dtype.name}
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        array = np.asarray(value.numpy())
        return {"dtype": value.dtype.name, "shape": list(array.shape),
                "values": _array(array)}
    if isinstance(value, (np.ndarray, np.generic)):
        return {"dtype": str(np.asarray(value).dtype), "values": _array(np.asarray(value))}
    raise TypeError(f"no plain form for {type(value)}")


def _array(array):
    if array.dtype.kind in "SO":
        return [v.decode("latin-1") if isinstance(v, bytes) else str(v)
                for v in array.ravel().tolist()]
    if array.dtype.kind == "c":
        return [[plain(float(v.real)), plain(float(v.imag))] for v in array.ravel()]
    return [plain(v) for v in array.astype(np.float64 if array.dtype.kind == "f"
                                           else array.dtype).ravel().tolist()]


def run(tf, key, mode, tmp, reraise=False):
    """The plain result of one case under `tf` ('eager' or 'function'), or its
    error's type (`reraise`: the error itself)."""
    import unittest
    code = key.split(": ", 1)[1].replace(" @function", "")
    env = {"tf": tf, "np": np, "TMP": str(tmp), "unittest": unittest}
    try:
        if mode == "function":
            return plain(tf.function(lambda: eval(code, env))())  # noqa: S307 - the table
        if "out =" in code or "\n" in code:
            exec(code, env)  # noqa: S102 - the table above
            return plain(env["out"])
        return plain(eval(code, env))  # noqa: S307
    except Exception as e:  # noqa: BLE001 - the error's type is the record
        if reraise:
            raise
        return {"error": type(e).__name__}


def main():
    import tempfile

    import tensorflow as tf
    records = {}
    for key in keys():
        modes = ["eager"] + (["function"] if key.endswith("@function") else [])
        for mode in modes:
            with tempfile.TemporaryDirectory() as tmp:
                records[f"{key}|{mode}"] = run(tf, key, mode, tmp)
    OUT.write_text(json.dumps({"source": f"TensorFlow {tf.__version__}",
                               "records": records}, indent=1) + "\n")
    print(f"{len(records)} records -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
