"""`tf.lookup`: tables eagerly, inside `tf.function` and in `tf.data` map.

Every expected value, dtype and message below is TensorFlow 2.21's, recorded
by running the same calls on tensorflow-cpu 2.21. Export order of the hash
tables is the hash map's in TF (unspecified), so those compare sorted; the
dense table's export is its bucket array, recorded exactly.
"""

import warnings

import pytest

import autograph
import runtime as tf
from tests.paths import ROOT as ROOT_PATH

INT64 = tf.int64


def _kv(keys, values, **kw):
    return tf.lookup.KeyValueTensorInitializer(keys, values, **kw)


def _static():
    return tf.lookup.StaticHashTable(_kv(["a", "b", "c"], [1, 2, 3], value_dtype=INT64), -1)


def _vocab():
    init = _kv(["emerson", "lake", "palmer"], tf.constant([0, 1, 2], INT64))
    return tf.lookup.StaticVocabularyTable(init, 5)


WORDS = ["emerson", "lake", "palmer", "king", "crimson", "", "a", "hello world", "tf"]
WORD_IDS = [0, 1, 2, 6, 7, 6, 7, 4, 6]                    # TF 2.21, 5 OOV buckets
INTS = [10, 20, 30, 0, 1, 2, 3, 42, -1, 100000, 2 ** 40]
INT_IDS = [0, 1, 2, 5, 8, 8, 5, 9, 7, 3, 3]                # TF 2.21, 7 OOV buckets


# --- namespace -----------------------------------------------------------------------

def test_namespace_names_are_tensorflows():
    assert sorted(n for n in dir(tf.lookup) if not n.startswith("_")) == [
        "KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
        "TextFileIndex", "TextFileInitializer", "experimental"]
    assert sorted(n for n in vars(tf.lookup.experimental)) == [
        "DenseHashTable", "MutableHashTable"]
    assert (tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER) == (-2, -1)


# --- StaticHashTable -------------------------------------------------------------------

def test_initializer_dtypes():
    init = _kv(["a", "b"], [1, 2])
    assert (init.key_dtype, init.value_dtype) == (tf.string, tf.int32)
    init = _kv(["a", "b"], [1, 2], value_dtype=INT64)
    assert (init.key_dtype, init.value_dtype) == (tf.string, INT64)


def test_static_lookup_size_export():
    t = _static()
    out = t.lookup(tf.constant(["a", "z", "c"]))
    assert out.dtype == INT64 and out.numpy().tolist() == [1, -1, 3]
    assert t[tf.constant(["a", "z"])].numpy().tolist() == [1, -1]
    assert t.lookup(tf.constant([["a", "b"], ["c", "q"]])).numpy().tolist() == [[1, 2], [3, -1]]
    size = t.size()
    assert size.dtype == INT64 and size.numpy() == 3
    keys, values = t.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == \
        [(b"a", 1), (b"b", 2), (b"c", 3)]
    assert t.default_value.numpy() == -1 and t.default_value.dtype == INT64
    assert (t.key_dtype, t.value_dtype, t.name) == (tf.string, INT64, None)


def test_static_int_keys():
    t = tf.lookup.StaticHashTable(_kv([1, 2, 3], [10., 20., 30.]), 0.0)
    assert (t.key_dtype, t.value_dtype) == (tf.int32, tf.float32)
    assert t.lookup(tf.constant([1, 5, 3])).numpy().tolist() == [10., 0., 30.]


def test_static_errors():
    t = _static()
    with pytest.raises(TypeError, match=r"Dtype of argument `keys` must be <dtype: 'string'>, "
                                        r"received: <dtype: 'int32'>"):
        t.lookup(tf.constant([1, 2]))
    t64 = tf.lookup.StaticHashTable(_kv(tf.constant([1, 2], INT64), [1., 2.]), 0.0)
    with pytest.raises(TypeError, match=r"must be <dtype: 'int64'>, received: <dtype: 'int32'>"):
        t64.lookup(tf.constant([1, 5]))
    with pytest.raises(TypeError, match="Cannot convert -1.5"):
        tf.lookup.StaticHashTable(_kv(["a"], [1], value_dtype=INT64), -1.5)
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="HashTable has different value for same key. Key a has 1 and "
                             "trying to add value 2"):
        tf.lookup.StaticHashTable(_kv(["a", "a"], [1, 2]), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[2\] for value, got \[3\]"):
        tf.lookup.StaticHashTable(_kv(["a", "b"], [1, 2, 3]), -1)


# --- StaticVocabularyTable: FarmHash OOV buckets ------------------------------------------

def test_vocabulary_string_buckets():
    v = _vocab()
    assert v.lookup(tf.constant(WORDS)).numpy().tolist() == WORD_IDS
    assert v.size().numpy() == 8 and v.size().dtype == INT64
    assert (v.key_dtype, v.value_dtype) == (tf.string, INT64)


def test_vocabulary_int_buckets():
    init = _kv(tf.constant([10, 20, 30], INT64), tf.constant([0, 1, 2], INT64))
    v = tf.lookup.StaticVocabularyTable(init, 7)
    assert v.lookup(tf.constant(INTS, INT64)).numpy().tolist() == INT_IDS
    with pytest.raises(TypeError, match=r"must be <dtype: 'int64'>, received: <dtype: 'int32'>"):
        v.lookup(tf.constant([10, 42]))
    v32 = tf.lookup.StaticVocabularyTable(init, 7, lookup_key_dtype=tf.int32)
    assert v32.lookup(tf.constant([10, 42, 7])).numpy().tolist() == [0, 9, 5]


def test_vocabulary_one_bucket_and_errors():
    init = _kv(["a"], tf.constant([0], INT64))
    assert tf.lookup.StaticVocabularyTable(init, 1).lookup(
        tf.constant(["a", "b"])).numpy().tolist() == [0, 1]
    for n in (0, -1):
        with pytest.raises(ValueError, match="`num_oov_buckets` must be > 0; use StaticHashTable."):
            tf.lookup.StaticVocabularyTable(init, n)
    with pytest.raises(TypeError, match=r"Invalid `key_dtype`, expected one of \(tf.int64, "
                                        r"tf.string\), but got <dtype: 'int32'>."):
        tf.lookup.StaticVocabularyTable(_kv([10], tf.constant([0], INT64)), 7)
    with pytest.raises(TypeError, match=r"Invalid `value_dtype`, expected <dtype: 'int64'> but "
                                        r"got <dtype: 'int32'>."):
        tf.lookup.StaticVocabularyTable(_kv(["a"], [0]), 7)
    with pytest.raises(TypeError, match=r"Invalid `key_dtype`, expected integer but got "
                                        r"<dtype: 'string'>."):
        tf.lookup.StaticVocabularyTable(init, 2, lookup_key_dtype=INT64)


# --- TextFileInitializer ---------------------------------------------------------------

@pytest.fixture
def files(tmp_path):
    paths = {}
    for name, text in {"v.tsv": "emerson\t10\nlake\t20\npalmer\t30\n", "dup.txt": "a\nb\nc\na\n",
                       "sp.txt": "x y\nz w\n", "blank.txt": "apple\nbanana\n\ncherry\n",
                       "short.tsv": "a\t1\nb\n"}.items():
        (tmp_path / name).write_text(text)
        paths[name] = str(tmp_path / name)
    return paths


WHOLE, LINE = tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER


def _file_table(path, kd, ki, vd, vi, default, **kw):
    return tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(path, kd, ki, vd, vi, **kw),
                                     default)


def test_text_file_columns(files):
    v = files["v.tsv"]
    t = _file_table(v, tf.string, 0, INT64, 1, -1)
    assert t.lookup(tf.constant(["lake", "x", "palmer"])).numpy().tolist() == [20, -1, 30]
    assert t.size().numpy() == 3
    t = _file_table(v, tf.string, WHOLE, INT64, LINE, -1)
    assert t.lookup(tf.constant(["lake\t20", "lake"])).numpy().tolist() == [1, -1]
    t = _file_table(v, tf.string, 0, INT64, LINE, -1)
    assert t.lookup(tf.constant(["emerson", "lake", "palmer"])).numpy().tolist() == [0, 1, 2]
    t = _file_table(v, INT64, LINE, tf.string, 0, "?")
    assert t.lookup(tf.constant([0, 2, 7], INT64)).numpy().tolist() == [b"emerson", b"palmer",
                                                                         b"?"]
    t = _file_table(files["sp.txt"], tf.string, 0, tf.string, 1, "?", delimiter=" ")
    assert t.lookup(tf.constant(["x", "z", "q"])).numpy().tolist() == [b"y", b"w", b"?"]
    t = _file_table(v, tf.string, 0, INT64, LINE, -1, vocab_size=2)
    assert t.lookup(tf.constant(["emerson", "lake", "palmer"])).numpy().tolist() == [0, 1, -1]
    t = _file_table(v, tf.string, 0, INT64, LINE, -1, value_index_offset=100)
    assert t.lookup(tf.constant(["emerson", "lake"])).numpy().tolist() == [100, 101]


def test_text_file_vocabulary(files):
    init = tf.lookup.TextFileInitializer(files["v.tsv"], tf.string, 0, INT64, LINE)
    v = tf.lookup.StaticVocabularyTable(init, 3)
    assert v.lookup(tf.constant(["emerson", "palmer", "king", "crimson"])).numpy().tolist() == \
        [0, 2, 4, 3]
    assert v.size().numpy() == 6


def test_text_file_run_errors(files):
    err = tf.errors
    cases = [
        (files["dup.txt"], (tf.string, WHOLE, INT64, LINE), {}, err.FailedPreconditionError,
         "HashTable has different value for same key. Key a has 0 and trying to add value 3"),
        (files["blank.txt"], (tf.string, WHOLE, INT64, LINE), {}, err.InvalidArgumentError,
         "empty line found at position 14."),
        (files["short.tsv"], (tf.string, 0, INT64, 1), {}, err.InvalidArgumentError,
         r"Invalid number of columns in .*short.tsv line 1 \(b\) : expected at least 2 got 1"),
        (files["v.tsv"], (tf.string, 0, INT64, LINE), {"vocab_size": 5},
         err.InvalidArgumentError, "Invalid vocab_size in .*v.tsv: expected 5 but got 3"),
        (files["v.tsv"], (tf.string, 1, INT64, 0), {}, err.InvalidArgumentError,
         "Field emerson in line 0 is not a valid int64."),
        (files["v.tsv"], (tf.string, 5, INT64, LINE), {}, err.InvalidArgumentError,
         r"line 0 \(emerson\t10\) : expected at least 6 got 2"),
    ]
    for path, args, kw, error, message in cases:
        with pytest.raises(error, match=message):
            _file_table(path, *args, -1, **kw)
    with pytest.raises(err.NotFoundError, match="nope.txt; No such file or directory"):
        _file_table(str(files["v.tsv"]) + ".nope.txt", tf.string, WHOLE, INT64, LINE, -1)


def test_text_file_argument_errors(files):
    v = files["v.tsv"]
    make = tf.lookup.TextFileInitializer
    with pytest.raises(ValueError, match=r"`key_dtype` must be int64 if `key_index` is -1, "
                                         r"received: <dtype: 'int32'>"):
        make(v, tf.int32, LINE, tf.string, 0)
    with pytest.raises(ValueError, match=r"`value_dtype` must be int64 for `value_index` -1, "
                                         r"received: <dtype: 'string'>"):
        make(v, tf.string, 0, tf.string, LINE)
    with pytest.raises(ValueError, match=r"`key_index` should be >= -2, received: -3."):
        make(v, tf.string, -3, INT64, 0)
    with pytest.raises(ValueError, match="`filename` argument required for "
                                         "tf.lookup.TextFileInitializer"):
        make("", tf.string, 0, INT64, 1)
    with pytest.raises(ValueError, match=r"^`value_index` should be >= -2, received: -3$"):
        make(v, tf.string, 0, INT64, -3)
    for size in (0, -1):
        with pytest.raises(ValueError, match=f"`vocab_size` should be > 0, received: {size}"):
            make(v, tf.string, 0, INT64, 1, vocab_size=size)
    with pytest.raises(ValueError, match=r"`key_dtype` should be either integer or string for "
                                         r"`key_index` -2, received: <dtype: 'float32'>"):
        make(v, tf.float32, WHOLE, INT64, 1)
    assert make(v, INT64, WHOLE, tf.string, 0).key_dtype == INT64


# --- MutableHashTable ------------------------------------------------------------------

def test_mutable_insert_remove_export():
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    assert m.size().numpy() == 0
    assert m.insert(tf.constant(["a", "b"]), tf.constant([1, 2], INT64)) is None
    m.insert(["c"], [3])
    assert m.lookup(tf.constant(["a", "c", "q"])).numpy().tolist() == [1, 3, -1]
    assert m.lookup(["a", "q"]).numpy().tolist() == [1, -1]
    assert m.size().numpy() == 3
    assert m.remove(tf.constant(["a", "zz"])) is None
    assert m.size().numpy() == 2
    keys, values = m.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"b", 2), (b"c", 3)]
    m.insert(tf.constant(["b"]), tf.constant([20], INT64))
    assert m.lookup(tf.constant(["b"])).numpy().tolist() == [20]
    m.insert(tf.constant([["p", "q"]]), tf.constant([[7, 8]], INT64))
    assert m.lookup(["p", "q"]).numpy().tolist() == [7, 8]
    m.insert(tf.constant("s"), tf.constant(9, INT64))
    assert m.lookup(tf.constant("s")).numpy() == 9 and m.name is None


def test_mutable_vector_values():
    mv = tf.lookup.experimental.MutableHashTable(INT64, tf.float32, [0., 0.])
    mv.insert(tf.constant([1, 2], INT64), tf.constant([[1., 2.], [3., 4.]]))
    assert mv.lookup(tf.constant([1, 3], INT64)).numpy().tolist() == [[1., 2.], [0., 0.]]
    assert mv.lookup(tf.constant([[1], [3]], INT64)).shape == (2, 1, 2)
    keys, values = mv.export()
    assert values.shape == (2, 2)
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == \
        [(1, [1., 2.]), (2, [3., 4.])]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[1,2\] for value, got \[1,3\]"):
        mv.insert(tf.constant([1], INT64), tf.constant([[1., 2., 3.]]))
    dyn = mv.lookup(tf.constant([1, 3], INT64),
                    dynamic_default_values=tf.constant([[7., 8.], [9., 10.]]))
    assert dyn.numpy().tolist() == [[1., 2.], [9., 10.]]


def test_mutable_errors():
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string for "
                                         "Tensor with dtype int32"):
        m.insert(tf.constant([1]), tf.constant([1], INT64))
    with pytest.raises(ValueError, match="values: Tensor conversion requested dtype int64 for "
                                         "Tensor with dtype int32"):
        m.insert(tf.constant(["x"]), tf.constant([1]))
    with pytest.raises(ValueError, match="keys: Tensor conversion requested dtype string"):
        m.lookup(tf.constant([1]))
    with pytest.raises(TypeError, match=r"Dtype of argument `keys` must be <dtype: 'string'>, "
                                        r"received: <dtype: 'int32'>"):
        m.remove(tf.constant([1]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected shape \[2\] for value, got \[1\]"):
        m.insert(tf.constant(["x", "y"]), tf.constant([1], INT64))


# --- DenseHashTable: TF's bucket layout -------------------------------------------------

def _dense(**kw):
    return tf.lookup.experimental.DenseHashTable(INT64, INT64, default_value=-1, empty_key=0,
                                                 deleted_key=-1, **kw)


def test_dense_lookup_erase_export():
    d = _dense()
    assert d.size().numpy() == 0
    d.insert(tf.constant([1, 2, 3], INT64), tf.constant([10, 20, 30], INT64))
    assert d.lookup(tf.constant([1, 5, 3], INT64)).numpy().tolist() == [10, -1, 30]
    assert d[tf.constant([1, 5], INT64)].numpy().tolist() == [10, -1]
    d.erase(tf.constant([2], INT64))
    assert d.size().numpy() == 2
    keys, values = d.export()
    assert keys.shape == (131072, 1) and values.shape == (131072, 1)
    assert keys.numpy()[:4, 0].tolist() == [0, 1, -1, 3]
    assert values.numpy()[:4, 0].tolist() == [0, 10, 20, 30]
    d.insert_or_assign(tf.constant([1], INT64), tf.constant([11], INT64))
    assert d.lookup(tf.constant([1], INT64)).numpy().tolist() == [11]


def test_dense_growth_and_probing_layout():
    d = _dense(initial_num_buckets=4)
    d.insert([1, 2, 3], [1, 2, 3])
    assert d.export()[0].shape == (4, 1)
    d.insert([4], [4])
    assert [x.numpy().ravel().tolist() for x in d.export()] == [[0, 1, 2, 3, 4, 0, 0, 0]] * 2
    d.insert([9, 17, 5, 13, 21], [9, 17, 5, 13, 21])
    d.remove(tf.constant([17], INT64))
    d.insert([25], [25])
    keys, values = (x.numpy().ravel().tolist() for x in d.export())
    assert keys == [0, 1, 2, 3, 4, 5, 21, -1, 0, 9, 25, 0, 0, 13, 0, 0]
    assert values == [0, 1, 2, 3, 4, 5, 21, 17, 0, 9, 25, 0, 0, 13, 0, 0]
    assert d.size().numpy() == 9
    assert d.lookup(tf.constant(5, INT64)).numpy() == 5


def test_dense_string_keys_layout():
    d = tf.lookup.experimental.DenseHashTable(tf.string, INT64, -1, "", "$",
                                              initial_num_buckets=8)
    d.insert(["a", "b", "hello world!"], [1, 2, 3])
    keys, values = (x.numpy().ravel().tolist() for x in d.export())
    assert keys == [b"", b"", b"b", b"", b"a", b"", b"", b"hello world!"]
    assert values == [0, 0, 2, 0, 1, 0, 0, 3]
    f = tf.lookup.experimental.DenseHashTable(tf.string, tf.float32, -1.0, "", "$")
    f.insert(["a", "b"], [1., 2.])
    assert f.lookup(["a", "c"]).numpy().tolist() == [1., -1.]


def test_dense_errors():
    d = _dense()
    err = tf.errors.InvalidArgumentError
    with pytest.raises(err, match="Using the empty_key as a table key is not allowed"):
        d.insert(tf.constant([0], INT64), tf.constant([1], INT64))
    with pytest.raises(err, match="Using the deleted_key as a table key is not allowed"):
        d.insert(tf.constant([-1], INT64), tf.constant([1], INT64))
    with pytest.raises(err, match="Using the empty_key as a table key is not allowed"):
        d.lookup(tf.constant([0], INT64))
    with pytest.raises(err, match="Using the empty_key as a table key is not allowed"):
        d.remove(tf.constant([0], INT64))
    with pytest.raises(err, match="Empty and deleted keys cannot be equal"):
        tf.lookup.experimental.DenseHashTable(INT64, INT64, -1, 0, 0)
    with pytest.raises(err, match="Number of buckets must be at least 4 and a power of 2, got: 5"):
        _dense(initial_num_buckets=5)
    with pytest.raises(err, match=r"Expected key shape \[2\] got \[2,2\]"):
        d.lookup(tf.constant([[1, 2], [3, 100]], INT64))


# --- graphs: tf.function and tf.data --------------------------------------------------------

def test_static_and_vocab_tables_captured_by_function():
    t, v = _static(), _vocab()

    @tf.function
    def f(x, w):
        return t.lookup(x), t.size(), v.lookup(w), v.size()

    keys = tf.constant(["a", "z", "c"])
    got = f(keys, tf.constant(WORDS))
    assert got[0].numpy().tolist() == t.lookup(keys).numpy().tolist() == [1, -1, 3]
    assert got[1].numpy() == 3 and got[1].dtype == INT64
    assert got[2].numpy().tolist() == WORD_IDS and got[3].numpy() == 8


def test_mutable_insert_in_function_runs_each_call_in_program_order():
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)

    @tf.function
    def g(k, v):
        m.insert(k, v)
        return m.lookup(k), m.size()

    out = g(tf.constant(["a"]), tf.constant([5], INT64))
    assert out[0].numpy().tolist() == [5] and out[1].numpy() == 1
    out = g(tf.constant(["b"]), tf.constant([6], INT64))
    assert out[0].numpy().tolist() == [6] and out[1].numpy() == 2
    assert m.size().numpy() == 2
    assert g.experimental_get_tracing_count() == 1

    @tf.function
    def h():
        a = m.size()
        m.insert(tf.constant(["z"]), tf.constant([1], INT64))
        b = m.size()
        m.remove(tf.constant(["z"]))
        return a, b, m.size()

    assert [x.numpy() for x in h()] == [2, 3, 2]
    assert [x.numpy() for x in h()] == [2, 3, 2]


def test_dense_table_in_function():
    d = _dense(initial_num_buckets=8)

    @tf.function
    def step(k):
        d.insert(k, k * 10)
        return d.lookup(k), d.size()

    vals, size = step(tf.constant([3, 4], INT64))
    assert vals.numpy().tolist() == [30, 40] and size.numpy() == 2
    vals, size = step(tf.constant([5], INT64))
    assert vals.numpy().tolist() == [50] and size.numpy() == 3


def test_table_made_inside_function():
    @tf.function
    def make(x):
        table = tf.lookup.StaticHashTable(_kv(["a", "b"], tf.constant([1, 2], INT64)), -1)
        return table.lookup(x)

    assert make(tf.constant(["b", "q"])).numpy().tolist() == [2, -1]
    assert make(tf.constant(["a"])).numpy().tolist() == [1]

    @tf.function
    def from_args(k, v, x):
        table = tf.lookup.StaticHashTable(_kv(k, v), -1)
        return table.lookup(x)

    k = tf.constant(["a", "b"])
    assert from_args(k, tf.constant([1, 2], INT64), tf.constant(["b"])).numpy().tolist() == [2]
    assert from_args(k, tf.constant([5, 6], INT64), tf.constant(["b"])).numpy().tolist() == [6]


def test_lookup_in_dataset_map():
    t, v = _static(), _vocab()
    ds = tf.data.Dataset.from_tensor_slices(["a", "b", "c", "q"]).map(lambda x: t.lookup(x))
    assert [int(x) for x in ds.as_numpy_iterator()] == [1, 2, 3, -1]
    ds = tf.data.Dataset.from_tensor_slices([WORDS]).map(v.lookup)
    assert [x.tolist() for x in ds.as_numpy_iterator()] == [WORD_IDS]


# --- checkpoints -------------------------------------------------------------------------

TF_TABLES = str(ROOT_PATH / "tests" / "runtime" / "train" / "fixtures" / "tf221_lookup_ckpt")


def test_checkpoint_round_trip_of_mutable_and_dense_tables(tmp_path):
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    m.insert(["a", "b"], tf.constant([1, 2], INT64))
    d = _dense(initial_num_buckets=4)
    d.insert(tf.constant([5, 6], INT64), tf.constant([50, 60], INT64))
    static = _static()
    path = tf.train.Checkpoint(m=m, d=d, s=static).write(str(tmp_path / "t"))
    # TF 2.21's keys: the tables' two tensors; a static table saves nothing
    assert sorted(name for name, _ in tf.train.list_variables(path)
                  if not name.startswith("_")) == ["d/.ATTRIBUTES/table-keys",
        "d/.ATTRIBUTES/table-values", "m/.ATTRIBUTES/table-keys", "m/.ATTRIBUTES/table-values"]
    m2 = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    m2.insert(["z"], tf.constant([9], INT64))         # restoring replaces the contents
    d2 = _dense()
    status = tf.train.Checkpoint(m=m2, d=d2, s=_static()).read(path)
    status.assert_consumed()
    assert sorted(m2.export()[0].numpy().tolist()) == [b"a", b"b"] and m2.size().numpy() == 2
    assert d2.export()[0].shape == (4, 1) and d2.size().numpy() == 2
    assert d2.lookup(tf.constant([5, 6, 7], INT64)).numpy().tolist() == [50, 60, -1]


def test_restores_tables_written_by_tensorflow():
    # tests/runtime/train/fixtures/make_tf_lookup_checkpoint.py, run with TensorFlow 2.21
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    d = tf.lookup.experimental.DenseHashTable(INT64, tf.float32, -1.0, 0, -1)
    tf.train.Checkpoint(m=m, d=d).read(TF_TABLES).assert_consumed()
    assert m.lookup(["a", "b", "c", "q"]).numpy().tolist() == [1, 2, 3, -1]
    keys, values = (x.numpy().ravel().tolist() for x in d.export())
    assert keys == [13, 0, 0, 0, 0, 5, -1, 0]
    assert values == [1.5, 0.0, 0.0, 0.0, 0.0, 0.5, 0.25, 0.0]
    assert d.size().numpy() == 2
    assert d.lookup(tf.constant([5, 6, 13], INT64)).numpy().tolist() == [0.5, -1.0, 1.5]


def test_a_table_missing_from_the_checkpoint_is_reported(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable(1)).write(str(tmp_path / "v"))
    m = tf.lookup.experimental.MutableHashTable(tf.string, INT64, -1)
    status = tf.train.Checkpoint(v=tf.Variable(0), m=m).read(path)
    with pytest.raises(AssertionError, match="m"):
        status.assert_existing_objects_matched()


def test_dtypes_without_a_tensorflow_kernel_are_not_found():
    # TF 2.21: NotFoundError "Could not find device for node: {{node HashTableV2}} ..."
    err = tf.errors.NotFoundError
    with pytest.raises(err, match=r"Could not find device for node: \{\{node HashTableV2\}\}"):
        tf.lookup.StaticHashTable(_kv([1.5], [1]), 0)
    with pytest.raises(err, match=r"\{\{node HashTableV2\}\}"):
        tf.lookup.StaticHashTable(_kv([True], [1]), 0)
    with pytest.raises(err, match=r"\{\{node MutableHashTableV2\}\}"):
        tf.lookup.experimental.MutableHashTable(tf.float64, INT64, 0)
    with pytest.raises(err, match=r"\{\{node MutableHashTableV2\}\}"):
        tf.lookup.experimental.MutableHashTable(tf.string, tf.string, "")
    with pytest.raises(err, match=r"\{\{node MutableDenseHashTableV2\}\}"):
        tf.lookup.experimental.DenseHashTable(tf.float32, INT64, 0, 0., 1.)
    m = tf.lookup.experimental.MutableHashTable(INT64, tf.string, "none")
    m.insert(tf.constant([3, 1], INT64), ["three", "one"])
    assert m.lookup(tf.constant([1, 2, 3], INT64)).numpy().tolist() == [b"one", b"none",
                                                                        b"three"]
    assert tf.lookup.experimental.MutableHashTable(tf.string, tf.bool, False).lookup(
        ["a"]).numpy().tolist() == [False]


def test_ragged_keys_keep_their_rows():
    # TF 2.21: [[1], [2, -1], []], [[0], [1, 3], []] and [[0, 1, 3], [1]]
    t = tf.lookup.StaticHashTable(_kv(["a", "b"], tf.constant([1, 2], INT64)), -1)
    v = tf.lookup.StaticVocabularyTable(_kv(["a", "b"], tf.constant([0, 1], INT64)), 3)
    r = tf.ragged.constant([["a"], ["b", "zz"], []])
    assert t.lookup(r).to_list() == [[1], [2, -1], []]
    assert tf.function(lambda x: t.lookup(x))(r).to_list() == [[1], [2, -1], []]
    assert v.lookup(r).to_list() == [[0], [1, 3], []]
    assert v.lookup(tf.strings.split(["a b c", "b"])).to_list() == [[0, 1, 3], [1]]


class _Vocab(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.lookup.experimental.MutableHashTable(INT64, INT64, -1)

    @tf.function
    def fill(self, n):
        for i in tf.range(n):
            self.table.insert(tf.reshape(tf.cast(i, INT64), [1]), tf.constant([7], INT64))
        return self.table.size()


def test_insert_in_a_tensor_loop_runs_each_iteration_without_a_side_effect_warning():
    m = tf.lookup.experimental.MutableHashTable(INT64, INT64, 0)

    @tf.function
    def fill(n):
        for i in tf.range(n):
            k = tf.reshape(tf.cast(i, INT64), [1])
            m.insert(k + 100, k * k)
            if i > 1:
                m.remove(k + 100)
        return m.size()

    with warnings.catch_warnings():
        warnings.simplefilter("error", autograph.SideEffectWarning)
        assert fill(tf.constant(4)).numpy() == 2
        assert m.lookup(tf.constant([100, 101, 102], INT64)).numpy().tolist() == [0, 1, 0]
        assert _Vocab().fill(tf.constant(3)).numpy() == 3
