"""Every way a user gets a dataset (tests/runtime/data/dataset_kinds.py) gives a
tf.data.Dataset with TensorFlow's repr and elements, including the datasets a
pipeline hands to user code (windows, groups, load's shards, a tf.function's
dataset argument): node.py's layout, where the node classes sit below the
public Dataset, keeps them public. TF 2.21's recorded values
(tools/record_dataset_kinds.py)."""

import ast

import pytest

import runtime as tf
from runtime._src.data import dataset, node
from tests.runtime.data import dataset_kinds

S = "TensorSpec(shape=(), dtype=tf.int64, name=None)"

# name: (isinstance of tf.data.Dataset, repr, first elements), TF 2.21's
TF = {
    'window': (True, '<_FlatMapDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>',
        [[0, 1], [2, 3], [4, 5]]),
    'window element': (True, '<_VariantDataset element_spec={S}>',
        [0, 1, 2, 3]),
    'flat_map of windows': (True, '<_FlatMapDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>',
        [[0, 1, 2], [3, 4, 5]]),
    'group_by_window': (True, '<_GroupByWindowDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>',
        [[0, 2], [1, 3], [4], [5]]),
    'bucket_by_sequence_length': (True, '<_GroupByWindowDataset element_spec=TensorSpec(shape=(None, 2), dtype=tf.int32, name=None)>',
        [[[1, 2], [1, 2]], [[1, 2]]]),
    'load': (True, '<_LoadDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'load with reader_func': (True, '<_LoadDataset element_spec={S}>',
        [1, 2, 3, 4, 5, 6]),
    'experimental.load': (True, '<_LoadDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'snapshot': (True, '<_MapDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'experimental.snapshot': (True, '<_MapDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'ignore_errors': (True, '<_IgnoreErrorsDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'copy_to_device': (True, '<_CopyToDeviceDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'prefetch_to_device': (True, '<_PrefetchDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'assert_cardinality': (True, '<_AssertCardinalityDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'from_variant': (True, '<_VariantDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'TFRecordDataset': (True, '<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>',
        [b'abc']),
    'TextLineDataset': (True, '<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>',
        [b'x,y', b'1,2', b'3,4']),
    'FixedLengthRecordDataset': (True, '<FixedLengthRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>',
        [b'x,y\n', b'1,2\n', b'3,4\n']),
    'CsvDataset': (True, '<CsvDatasetV2 element_spec=(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None))>',
        [(1, 2), (3, 4)]),
    'make_csv_dataset': (True, "<_PrefetchDataset element_spec=OrderedDict([('x', TensorSpec(shape=(None,), dtype=tf.int32, name=None)), ('y', TensorSpec(shape=(None,), dtype=tf.int32, name=None))])>",
        [[[1, 3], [2, 4]]]),
    'Counter': (True, '<_ScanDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'choose_from_datasets': (True, '<_DirectedInterleaveDataset element_spec={S}>',
        [0, 0, 1, -1]),
    'with_options': (True, '<_OptionsDataset element_spec={S}>',
        [0, 1, 2, 3, 4, 5]),
    'parallel map': (True, '<_ParallelMapDataset element_spec={S}>',
        [0, 3, 6, 9, 12, 15]),
}

@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    return dataset_kinds.kinds(tf, str(tmp_path_factory.mktemp("kinds")))


@pytest.mark.parametrize("name", sorted(TF))
def test_every_kind_of_dataset_is_public_and_prints_as_tf(kinds, name):
    is_dataset, text, elements = TF[name]
    ds = kinds[0][name]()
    assert isinstance(ds, tf.data.Dataset) == is_dataset
    assert repr(ds) == text.replace("{S}", S)
    assert dataset_kinds.values(tf, ds) == elements


def test_the_datasets_user_code_receives_are_public(kinds):
    built, seen = kinds
    for name in ("flat_map of windows", "group_by_window", "load with reader_func"):
        list(built[name]())
    assert len(seen) >= 4 and all(seen)           # TF 2.21: each (4, traced once) a tf.data.Dataset


def test_a_dataset_argument_and_from_variant_inside_a_function():
    seen, total = dataset_kinds.in_function(tf)
    assert seen == [(True, f"<_VariantDataset element_spec={S}>")] * 2
    assert total == 12                  # TF 2.21: (0 + 1 + 2 + 3) * 2


NODE_MODULES = ("batching", "mapping", "passthrough", "persistence", "readers", "selection",
                "shuffling", "sources", "sql", "transforms")


def test_the_node_modules_never_import_the_public_layer_nor_build_bare_nodes():
    """node.py's layout: dataset.py imports the node modules, none imports it,
    and a node module builds a node only through `self._public(...)` (a bare
    node has no Dataset methods)."""
    modules = (node, *[getattr(dataset, m) for m in NODE_MODULES])
    nodes = {name for module in modules for name, value in vars(module).items()
             if isinstance(value, type) and issubclass(value, node.DatasetNode)}
    assert {"Stored", "_Shard", "Map", "FromHandle"} <= nodes
    for module in modules:
        tree = ast.parse(open(module.__file__).read())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "runtime._src.data.dataset" not in imported, module.__name__
        built = [n.func.id for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and getattr(n.func, "id", None) in nodes]
        assert built == [], (module.__name__, built)


def test_public_classes_are_the_node_classes_with_the_dataset_methods():
    assert dataset.public(dataset.mapping.Map) is dataset.Map
    assert issubclass(dataset.Map, dataset.mapping.Map) and dataset.Map.__name__ == "Map"
    ds = tf.data.Dataset.range(3).map(lambda x: x)
    assert type(ds) is dataset.Map and ds.batch(2).element_spec.shape.as_list() == [None]
    with pytest.raises(NotImplementedError, match="Map is not a public dataset"):
        dataset.mapping.Map._public(object.__new__(dataset.mapping.Map), dataset.batching.Stored)
