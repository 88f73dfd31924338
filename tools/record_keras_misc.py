"""Record Keras 3.15's behaviour for keras.config, keras.tree, keras.utils
(Progbar, PyDataset, pad_sequences, ...) and the other names of
tests/keras/test_keras_config.py, test_keras_tree.py and test_keras_utils_breadth.py.

    $BENCH_TF_PYTHON tools/record_keras_misc.py     # -> tests/data/keras_misc.json

Runs where TensorFlow 2.21 and Keras 3.15 are installed (never a dependency).
"""

import collections
import contextlib
import io
import json
import pathlib
import warnings

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / "keras_misc.json"


def _error(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except Exception as e:          # noqa: BLE001 - recording the exception is the point
        return [type(e).__name__, str(e)]
    return None


def record_config(keras):
    c = keras.config
    out = {"defaults": [c.floatx(), c.epsilon(), c.image_data_format(), c.backend(),
                        c.dtype_policy().name, c.is_interactive_logging_enabled(),
                        c.is_traceback_filtering_enabled(), c.max_epochs(),
                        c.max_steps_per_epoch(), c.is_flash_attention_enabled(),
                        c.is_nnx_enabled()]}
    out["errors"] = {"set_floatx": _error(c.set_floatx, "int32"),
                     "set_image_data_format": _error(c.set_image_data_format, "foo"),
                     "set_dtype_policy": _error(c.set_dtype_policy, 3)}
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    x, y = np.ones((64, 3), "float32"), np.ones((64, 1), "float32")
    c.set_max_epochs(2)
    c.set_max_steps_per_epoch(1)
    seen = []
    cb = keras.callbacks.LambdaCallback(
        on_train_batch_end=lambda b, logs: seen.append(["t", b]),
        on_test_batch_end=lambda b, logs: seen.append(["e", b]),
        on_epoch_end=lambda e, logs: seen.append(["E", e]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        h = m.fit(x, y, epochs=5, verbose=0, callbacks=[cb], validation_data=(x, y))
    out["capped_fit"] = {"warnings": [str(i.message) for i in w], "calls": list(seen),
                         "params": h.params}
    seen.clear()
    m.evaluate(x, y, verbose=0, callbacks=[cb])
    out["capped_evaluate"] = list(seen)
    out["capped_predict_rows"] = int(m.predict(x, verbose=0).shape[0])
    c.set_max_epochs(None)
    c.set_max_steps_per_epoch(None)
    c.disable_interactive_logging()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        m.fit(x, y, epochs=2, verbose=1)
        m.evaluate(x, y)
    c.enable_interactive_logging()
    out["quiet_stdout"] = buf.getvalue()
    return out


P = collections.namedtuple("P", "a b")
OD = collections.OrderedDict([("z", 1), ("a", 2)])
STRUCTURES = ["42", "None", "[1]", "(1,)", "[[1]]", "{'b': 2, 'a': (1, [3])}", "OD",
              "P(1, [2, 3])", "[]", "{}", "()", "[None, (None,)]",
              "collections.deque([1, 2])", "collections.defaultdict(int, {'y': 1, 'x': 2})",
              "'str'"]
TREE_CASES = [f"T.{fn}({s})" for s in STRUCTURES
              for fn in ("is_nested", "flatten", "flatten_with_path", "lists_to_tuples")]
TREE_CASES += [f"T.map_structure(lambda v: ('m', v), {s})" for s in STRUCTURES] + [
    "T.map_structure(lambda v: v, [1, None], none_is_leaf=False)",
    "T.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)])",
    "T.map_structure(lambda x, y: 0, {'a': 1}, OD.__class__(a=1))",
    "T.pack_sequence_as({'b': 0, 'a': (0, [0])}, [1, 2, 3])",
    "T.pack_sequence_as(OD, [5, 6])", "T.pack_sequence_as(P(0, [0, 0]), [1, 2, 3])",
    "T.pack_sequence_as(0, [7])", "T.pack_sequence_as([0, 0], [1])",
    "T.pack_sequence_as([0], [1, 2])", "T.pack_sequence_as(0, [1, 2])",
    "T.map_structure_up_to([1, 2], lambda a, b: (a, b), [[1, 1], [2]], [10, [20, 30]])",
    "T.map_structure_up_to({'a': 1}, str, {'a': [1, 2]})",
    "T.map_structure_up_to([1, [2]], str, [1, 2])",
    "T.map_structure_up_to([1, [2]], str, [1, [2, 3]])",
    "T.map_shape_structure(lambda s: ('S', s), [(1, 2), (None, 3), {'a': (4,)}, [5, 6], ()])",
    "T.map_shape_structure(lambda s: ('S', s), (1, 2))",
    "T.traverse(lambda x: 'X' if isinstance(x, tuple) and len(x) == 2 else None, "
    "[(1, 2), [3, (4, 5)], 6])",
    "T.traverse(lambda x: 'X' if isinstance(x, tuple) and len(x) == 2 else None, "
    "[(1, 2), [3, (4, 5)], 6], top_down=False)",
    "T.traverse(lambda x: T.MAP_TO_NONE if x == 3 else None, [1, [3, 4]])",
    "T.traverse(lambda x: T.MAP_TO_NONE if x == 3 else None, [1, [3, 4]], top_down=False)",
    "T.traverse(lambda x: x * 10 if isinstance(x, int) else None, {'b': [1, 2], 'a': 3}, "
    "top_down=False)",
    "T.traverse(lambda x: x * 10 if isinstance(x, int) else None, {'b': [1, 2], 'a': 3})",
    "T.traverse(lambda x: x if x == 1 else None, [[1], 1], top_down=False)",
    "T.flatten(P(a=[1], b={'q': 2}))",
]
PAIRS = ["[1], (1,)", "[1, 2], [1]", "{'a': 1}, {'b': 1}", "P(1, 2), (1, 2)",
         "{'a': 1}, OD.__class__(a=1)", "[1, [2]], [1, 2]", "[1, 2], [1, [2]]",
         "(1, [2, 3]), (4, [5, 6])"]
TREE_CASES += [f"T.{fn}({p})" for p in PAIRS
               for fn in ("assert_same_structure", "assert_same_paths")]
TREE_CASES += [f"T.map_structure(lambda x, y: 0, {p})" for p in PAIRS]


def tree_outcome(T, case):
    """repr of the result of `case`, or [exception name, message]."""
    try:
        # the cases are the literal strings of TREE_CASES above
        return repr(eval(case, {"T": T, "P": P, "OD": OD,  # noqa: S307
                                "collections": collections}))
    except Exception as e:          # noqa: BLE001
        return [type(e).__name__, str(e)]


def record_tree(keras):
    return {case: tree_outcome(keras.tree, case) for case in TREE_CASES}


class FakeClock:
    """time.time() that moves only when told: Progbar's output becomes exact."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


# (Progbar kwargs, [(seconds to advance, method, args, kwargs)])
PROGBAR_CASES = {
    "basic": ({"target": 5}, [(0.5, "update", [i], {"values": [("loss", 1.0 / i)]})
                              for i in range(1, 6)]),
    "unknown_target": ({"target": None}, [(0.002, "update", [i], {"values": [("acc", 0.5)]})
                                          for i in (1, 2, 3)] +
                       [(0.0, "update", [3], {"finalize": True})]),
    "verbose2_stateful": ({"target": 3, "verbose": 2, "stateful_metrics": ["acc"]},
                          [(1.5, "update", [i], {"values": [("loss", 2.0 * i), ("acc", i / 4)]})
                           for i in (1, 2, 3)]),
    "add_and_interval": ({"target": 100, "interval": 1.0, "width": 10},
                         [(0.3, "add", [10], {"values": [("m", 1e-5)]}) for _ in range(10)]),
    "long_eta_samples": ({"target": 10000, "unit_name": "sample"},
                         [(2.0, "update", [1], {}), (90.0, "update", [2], {}),
                          (0.00001, "update", [3], {}), (5000.0, "update", [9000], {}),
                          (1.0, "update", [10000], {"values": [("v", -0.5)]})]),
    "stateless_list": ({"target": 2, "stateless_metrics": ["a"]},
                       [(0.1, "update", [1], {"values": [("a", 1.0), ("b", 3.0)]}),
                        (0.1, "update", [2], {"values": [("a", 3.0), ("b", 5.0)]})]),
    "zero_target": ({"target": 0}, [(0.1, "update", [0], {"values": [("x", 1.0)]})]),
    "silent": ({"target": 2, "verbose": 0}, [(0.1, "update", [2], {})]),
    "shrinking_line": ({"target": 3}, [(0.1, "update", [1], {"values": [("loss", 12345.0)]}),
                                       (0.1, "update", [2], {"values": [("loss", -99999.0)]}),
                                       (0.1, "update", [3], {})]),
}


def run_progbar(progbar_cls, time_module, case):
    """The text a Progbar prints for `case`, under a fake clock."""
    kwargs, steps = PROGBAR_CASES[case]
    clock = FakeClock()
    real, time_module.time = time_module.time, clock
    try:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            bar = progbar_cls(**kwargs)
            for advance, method, args, kw in steps:
                clock.now += advance
                getattr(bar, method)(*args, **kw)
    finally:
        time_module.time = real
    return buf.getvalue()


def record_progbar(keras):
    import time
    return {case: run_progbar(keras.utils.Progbar, time, case) for case in PROGBAR_CASES}


def show(ds):
    """A dataset's elements as nested Python lists."""
    out = []
    for b in ds:
        if isinstance(b, tuple):
            out.append(tuple(np.asarray(t).tolist() for t in b))
        else:
            out.append(np.asarray(b).tolist())
    return out


UTILS_CASES = [
    "U.pack_x_y_sample_weight(1)", "U.pack_x_y_sample_weight(1, 2)",
    "U.pack_x_y_sample_weight(1, 2, 3)", "U.pack_x_y_sample_weight((1, 2))",
    "U.pack_x_y_sample_weight([1], None, 3)",
    "U.unpack_x_y_sample_weight(1)", "U.unpack_x_y_sample_weight((1,))",
    "U.unpack_x_y_sample_weight((1, 2))", "U.unpack_x_y_sample_weight([1, 2, 3])",
    "U.unpack_x_y_sample_weight([[1, 2]])", "U.unpack_x_y_sample_weight((1, 2, 3, 4))",
] + [f"U.standardize_dtype({v})" for v in (
    "'float'", "'int'", "'float32'", "np.float64", "'bool'", "'str'", "int", "float", "bool",
    "str", "complex", "np.dtype('int8')", "'double'", "None", "'uint8'", "'string'",
    "'bfloat16'", "'foo'", "'float8_e4m3fn'")] + [
    "U.Config(a=1, b=[2])", "U.Config(a=1).a", "U.Config(a=1, b=[2])['b']",
    "U.Config(a=1, b=[2]).to_json()", "dict(U.Config(a=1, b=[2]))", "len(U.Config(a=1, b=2))",
    "list(U.Config(a=1, b=2).keys())", "'a' in U.Config(a=1)", "U.Config(a=1).as_dict()",
    "U.Config(a=1).xx", "U.Config(a=1)['xx']", "U.Config(a=1).frozen",
    "U.Config(a=1).get('b', 5)", "U.Config(a=1).pop('a')",
] + [f"show(U.split_dataset(np.arange(10), **{kw})[{i}])" for i in (0, 1) for kw in (
    "dict(left_size=0.8)", "dict(right_size=3)", "dict(left_size=4, right_size=2)",
    "dict(left_size=0.25, right_size=0.75)", "dict(left_size=7)", "dict(left_size=0.35)",
    "dict(right_size=0.35)", "dict(left_size=0.45)")] + [
    f"U.split_dataset(np.arange(10), **{kw})" for kw in (
        "dict()", "dict(left_size=11)", "dict(left_size=0)", "dict(left_size=1.5)",
        "dict(left_size=-1)", "dict(left_size=0.8, right_size=0.8)",
        "dict(left_size=6, right_size=6)")] + [
    "[show(d) for d in U.split_dataset((np.arange(6).reshape(3, 2), np.arange(3)), 2)]",
    "[show(d) for d in U.split_dataset([np.arange(2), np.arange(2) + 5, np.arange(2) + 9], "
    "left_size=0.5)]",
    "[show(d) for d in U.split_dataset(np.arange(3), right_size=0.5)]",
    "[show(d) for d in U.split_dataset(np.arange(7), left_size=0.5)]",
    "sorted(sum((show(d) for d in U.split_dataset(np.arange(9), 0.5, shuffle=True, seed=1)),"
    " []))",
] + [f"show(U.timeseries_dataset_from_array(np.arange(10), **{kw}))" for kw in (
    "dict(targets=None, sequence_length=3, batch_size=2)",
    "dict(targets=np.arange(10) * 10, sequence_length=4, sequence_stride=2, batch_size=3)",
    "dict(targets=None, sequence_length=3, sampling_rate=2, batch_size=None)",
    "dict(targets=np.arange(3, 10), sequence_length=3, start_index=2, end_index=8, "
    "batch_size=4)",
    "dict(targets=None, sequence_length=11)",
    "dict(targets=None, sequence_length=3, sequence_stride=0)",
    "dict(targets=None, sequence_length=3, sampling_rate=0)")] + [
    "show(U.timeseries_dataset_from_array(np.arange(12.).reshape(6, 2), None, 2, "
    "batch_size=2))",
    "sorted(sum(show(U.timeseries_dataset_from_array(np.arange(8), None, 3, batch_size=2, "
    "shuffle=True, seed=7)), []))",
]


def utils_outcome(U, case):
    """repr of the result of `case` (one of UTILS_CASES), or [exception, message]."""
    try:
        # the cases are the literal strings of UTILS_CASES above
        return repr(eval(case, {"U": U, "np": np, "show": show}))  # noqa: S307
    except Exception as e:          # noqa: BLE001
        return [type(e).__name__, str(e)]


def record_pydataset(keras):
    """Losses, weights and predictions of a Dense(1) trained on a PyDataset."""
    class Batches(keras.utils.PyDataset):
        def __init__(self, x, y, batch_size, **kwargs):
            super().__init__(**kwargs)
            self.x, self.y, self.batch_size = x, y, batch_size

        def __len__(self):
            return -(-len(self.x) // self.batch_size)

        def __getitem__(self, i):
            s = slice(i * self.batch_size, (i + 1) * self.batch_size)
            return self.x[s], self.y[s]

    x = np.linspace(-1, 1, 30, dtype="float32").reshape(10, 3)
    y = (x.sum(1, keepdims=True) * 0.5).astype("float32")
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(
        1, kernel_initializer="ones", bias_initializer="zeros")])
    m.compile(keras.optimizers.SGD(0.1), "mse")
    h = m.fit(Batches(x, y, 4, workers=2), epochs=2, verbose=0, shuffle=False)
    return {"loss": h.history["loss"], "kernel": m.get_weights()[0].ravel().tolist(),
            "evaluate": float(m.evaluate(Batches(x, y, 4), verbose=0)),
            "predict": m.predict(Batches(x, y, 4), verbose=0).ravel().tolist()}


TEXT_FILES = {"a_cls/2.txt": "hello world", "a_cls/10.txt": "zzz", "a_cls/sub/n.txt": "nested",
              "b_cls/x.txt": "bee text here", "b_cls/y.md": "ignored", "root.txt": "root",
              "empty/.keep": ""}
TEXT_CASES = [
    "dict(shuffle=False)", "dict(shuffle=False, label_mode='categorical')",
    "dict(shuffle=False, label_mode=None, batch_size=2)",
    "dict(shuffle=False, max_length=4, batch_size=None)",
    "dict(shuffle=False, class_names=['b_cls', 'a_cls'])",
    "dict(shuffle=False, class_names=['b_cls', 'a_cls'], label_mode='binary')",
    "dict(shuffle=False, validation_split=0.5, subset='training', seed=1)",
    "dict(shuffle=False, validation_split=0.5, subset='validation', seed=1)",
    "dict(shuffle=False, validation_split=0.25, subset='both', seed=1)",
    "dict(shuffle=False, label_mode='binary')", "dict(labels=[0, 1, 1], shuffle=False)",
    "dict(labels=[0, 1, 1, 0, 1], shuffle=False)", "dict(labels=None, shuffle=False)",
    "dict(shuffle=False, validation_split=0.5)", "dict(labels='foo')",
    "dict(shuffle=True, seed=3, batch_size=None)", "dict(shuffle=False, verbose=False)",
]


def make_text_folder(root):
    """The folder of TEXT_FILES under `root` (pathlib.Path)."""
    for name, text in TEXT_FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def text_outcome(make_dataset, root, case):
    """What text_dataset_from_directory(root, **case) prints and returns
    (the folder's path written <DIR>); a shuffled dataset's texts sorted."""
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            # the cases are the literal strings of TEXT_CASES above
            kwargs = eval(case)  # noqa: S307
            result = make_dataset(str(root), **kwargs)
        datasets = result if isinstance(result, list) else [result]
        shown = [[getattr(d, "class_names", None), show(d)] for d in datasets]
        if kwargs.get("shuffle", True):
            shown = [[names, sorted(repr(e) for e in elements)] for names, elements in shown]
        out = repr(shown)
    except Exception as e:          # noqa: BLE001
        out = repr([type(e).__name__, str(e)])
    return (buf.getvalue() + out).replace(str(root), "<DIR>")


def record_text(keras):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp) / "texts"
        make_text_folder(root)
        return {c: text_outcome(keras.utils.text_dataset_from_directory, root, c)
                for c in TEXT_CASES}


def get_file_outcomes(get_file):
    """What get_file returns and prints for local origins in a fresh cache
    (paths relative to the temporary folder, the download speed masked)."""
    import hashlib
    import os
    import re
    import tarfile
    import tempfile
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = pathlib.Path(tmp_name)
        src, cache = tmp / "src", tmp / "cache"
        src.mkdir()
        cache.mkdir()
        (src / "data.csv").write_text("a,b\n1,2\n")
        with tarfile.open(src / "pack.tar", "w") as t:
            t.add(src / "data.csv", arcname="inner/data.csv")

        def run(*args, **kwargs):
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    result = os.path.relpath(get_file(*args, cache_dir=str(cache), **kwargs),
                                             tmp)
            except Exception as e:          # noqa: BLE001
                result = [type(e).__name__, str(e).replace(str(tmp), "<T>")]
            printed = re.sub(r"\d+(us|ms)/step", "N/step", buf.getvalue())
            return [result, printed.replace(str(tmp), "<T>")]
        url = (src / "data.csv").as_uri()
        sha = hashlib.sha256(b"a,b\n1,2\n").hexdigest()
        md5 = hashlib.md5(b"a,b\n1,2\n").hexdigest()
        tar = (src / "pack.tar").as_uri()
        out = [run("data.csv", url), run("data.csv", url), run(origin=url),
               run("data.csv", url, file_hash=sha), run("d2.csv", url, md5_hash=md5),
               run("d3.csv", url, file_hash="0" * 64), run("data.csv", url, file_hash="0" * 32),
               run("pack.tar", tar, extract=True), run("pk", tar, untar=True),
               run("sub/x.csv", url), run("x.csv")]
        out.append(sorted(str(p.relative_to(cache)) for p in cache.rglob("*")))
    return out


PAD_CASES = [
    "P([[1], [2, 3], [4, 5, 6]])", "P([[1], [2, 3], [4, 5, 6]], padding='post')",
    "P([[1], [2, 3], [4, 5, 6]], maxlen=2)",
    "P([[1], [2, 3], [4, 5, 6]], maxlen=2, truncating='post')",
    "P([[1], [2, 3], [4, 5, 6]], value=-1, padding='post', maxlen=4)",
    "P([[1.5], [2.5, 3]])", "P([[1.5], [2.5, 3]], dtype='float32')",
    "P([['a'], ['b', 'c']], dtype=object, value='x')", "P([['a'], ['b', 'c']], value='x')",
    "P([['a'], ['b', 'c']], dtype='<U1', value='x')", "P([[], [1]])", "P([])", "P([[], []])",
    "P([[1], [2, 3]], maxlen=0)", "P([[1], [2, 3]], padding='middle')",
    "P([[1], [2, 3]], truncating='middle', maxlen=1)", "P([np.ones((2, 3)), np.ones((1, 3))])",
    "P([np.ones((2, 3)), np.ones((1, 2))])", "P(np.array([[1, 2], [3, 4]]), maxlen=3)",
    "P([(1, 2), (3,)])", "P([[1], [2, 3]], value=0.5)", "P([[True], [False, True]])",
    "P([[1], [2, 3]], dtype='int64').dtype", "P([[1], [2, 3]]).dtype", "P([1, 2])",
]


def pad_outcome(pad_sequences, case):
    """repr of pad_sequences' array (value, dtype) for `case`, or [exception, message]."""
    try:
        # the cases are the literal strings of PAD_CASES above
        out = eval(case, {"P": pad_sequences, "np": np})  # noqa: S307
        return repr(out) if not isinstance(out, np.ndarray) else [out.tolist(), str(out.dtype)]
    except Exception as e:          # noqa: BLE001
        return [type(e).__name__, str(e)]


def schedules_and_regularizers(keras):
    """CosineDecayRestarts' rates, schedule (de)serialization, OrthogonalRegularizer."""
    S, R = keras.optimizers.schedules, keras.regularizers
    out = {}
    for kw in ("dict()", "dict(t_mul=1.0)", "dict(t_mul=1.5, m_mul=0.5, alpha=0.1)",
               "dict(t_mul=3.0, m_mul=0.9)"):
        schedule = S.CosineDecayRestarts(0.1, 4, **eval(kw))  # noqa: S307 - literal above
        out[kw] = [float(schedule(i)) for i in (0, 1, 2, 3, 4, 5, 7, 11, 12, 13, 27, 28, 100)]
    back = S.deserialize(S.serialize(S.CosineDecayRestarts(0.1, 4, t_mul=1.5)))
    out["round_trip"] = [type(back).__name__, back.get_config(), S.serialize(back)]
    w = keras.ops.convert_to_tensor(np.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0],
                                              [-1.0, 0.3, 2.0], [0.2, -0.7, 1.1]], "float32"))
    out["orthogonal"] = [float(R.OrthogonalRegularizer()(w)),
                         float(R.OrthogonalRegularizer(0.5, "columns")(w)),
                         float(R.OrthogonalRegularizer(2.0)(keras.ops.eye(3)))]
    out["orthogonal_config"] = [R.OrthogonalRegularizer(0.5, "columns").get_config(),
                                R.serialize(R.OrthogonalRegularizer(0.5))]
    out["errors"] = [_error(R.OrthogonalRegularizer, mode="x"),
                     _error(R.OrthogonalRegularizer(), keras.ops.ones(3)),
                     _error(S.CosineDecayRestarts, 0.1, 0)]
    return out


def mixed_float16_run(keras):
    """A two-Dense model under the global "mixed_float16" policy: its float16
    predictions, then two epochs of SGD (weights kept in float32)."""
    keras.config.set_dtype_policy("mixed_float16")
    try:
        x = np.linspace(-1, 1, 24, dtype="float32").reshape(8, 3)
        y = x @ np.array([[0.5], [-1.0], [2.0]], "float32")
        k1 = np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.6, -0.7, 0.8], [-0.9, 1.0, 0.2, -0.1]],
                      "float32")
        m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(
            4, activation="relu", kernel_initializer=keras.initializers.Constant(k1)),
            keras.layers.Dense(1, kernel_initializer="ones")])
        before = m.predict(x, verbose=0)
        m.compile(keras.optimizers.SGD(0.05), "mse")
        h = m.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        return {"predict_dtype": str(before.dtype), "predict": before.ravel().tolist(),
                "loss": h.history["loss"], "evaluate": float(m.evaluate(x, y, verbose=0)),
                "weights": [w.ravel().tolist() for w in m.get_weights()],
                "weight_dtypes": [str(w.dtype) for w in m.get_weights()],
                "layer": [m.layers[0].dtype, m.layers[0].compute_dtype,
                          str(m.layers[0].dtype_policy),
                          m.layers[0].get_config()["dtype"]["config"]["name"]]}
    finally:
        keras.config.set_dtype_policy("float32")


def main():
    import keras
    data = {"keras": keras.__version__, "config": record_config(keras),
            "tree": record_tree(keras),
            "progbar": record_progbar(keras),
            "utils": {c: utils_outcome(keras.utils, c) for c in UTILS_CASES},
            "pydataset": record_pydataset(keras),
            "text_dataset": record_text(keras),
            "get_file": get_file_outcomes(keras.utils.get_file),
            "pad_sequences": {c: pad_outcome(keras.preprocessing.sequence.pad_sequences, c)
                              for c in PAD_CASES},
            "schedules_regularizers": schedules_and_regularizers(keras),
            "mixed_float16": mixed_float16_run(keras)}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
