"""Record Keras 3.15's behaviour for keras.config, keras.tree, keras.utils
(Progbar, PyDataset, pad_sequences, ...) and the other names of
tests/keras/test_keras_config.py, test_keras_tree.py and test_keras_utils_breadth.py.

    /tmp/tfvenv/bin/python tools/record_keras_misc.py     # -> tests/data/keras_misc.json

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


def main():
    import keras
    data = {"keras": keras.__version__, "config": record_config(keras),
            "tree": record_tree(keras)}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
