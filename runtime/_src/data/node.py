"""The node a `tf.data` pipeline is made of, below the public `Dataset`.

The layout, lowest first:

  node.py         `DatasetNode`: what every dataset is (its element_spec,
                  static cardinality, repr, options, iteration and the
                  Streamable protocol), with no method that builds a node.
  sources.py, transforms.py, mapping.py, batching.py, shuffling.py,
  selection.py, passthrough.py, persistence.py, readers.py, sql.py
                  the node classes: `DatasetNode` subclasses that say how to
                  iterate (`_iterate(env)` yields elements as nested structures
                  of numpy values; `env` binds the symbolic tensors a dataset
                  built while tracing holds, see env.py).
  dataset.py      the public `tf.data.Dataset`: a `DatasetNode` subclass that
                  adds the methods that build nodes (`map`, `batch`...), and
                  the public class of each node class, made by
                  `public(node_class)`: `class <Node>(<node class>, Dataset)`,
                  named as the node class (so reprs stay TensorFlow's,
                  `<_MapDataset element_spec=...>`). The methods name those
                  classes directly: dataset.py imports the node modules, no
                  node module imports it.

A node that hands a dataset to user code (the windows of `window`, the groups
of `group_by_window`, the shards `Dataset.load` gives its `reader_func`, an
empty dataset to probe a `flat_map` function with) builds it through two
hooks on itself, which the public `Dataset` implements, so the node never
names the layer above it:

    self._public(Stored)(items, spec)     # the public class of a node class
    self._dataset_spec(element_spec)      # a tf.data.DatasetSpec

Every dataset a user sees is therefore an instance of the public `Dataset`
(`isinstance(ds, tf.data.Dataset)`), and a bare `DatasetNode` never leaves the
package.
"""

import numpy as np

from runtime._src.core.composite import CompositeSpec
from runtime._src.core.context import current_graph
from runtime._src.core.tensor import Tensor, wrap_numpy
from runtime._src.data.env import EMPTY, symbolic_leaves
from runtime._src.data.iterator import NumpyIterator, OwnedIterator
from runtime._src.data.iterator_ops import DatasetStream, GraphIterator
from runtime._src.data.options import Options

__all__ = [
    "AUTOTUNE",
    "INFINITE_CARDINALITY",
    "UNKNOWN_CARDINALITY",
    "DatasetNode",
    "FromHandle",
    "is_dataset_spec",
    "static_int",
]

INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
AUTOTUNE = -1


def static_int(value, what, op):
    """A Python int from an int, numpy integer or eager scalar tensor."""
    if isinstance(value, Tensor):
        if not hasattr(value, "_value"):
            raise TypeError(f"{op}: {what} must be known when the dataset is built; got the "
                            f"symbolic tensor {value.name}")
        value = value._value
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{op}: {what} must be an integer, got {type(value).__name__} "
                        f"{value!r}")
    return int(value)


def is_dataset_spec(spec):
    """Whether `spec` is the type of a dataset (a tf.data.DatasetSpec)."""
    return isinstance(spec, CompositeSpec) and issubclass(spec.value_type, DatasetNode)


class DatasetNode:
    """A pipeline of elements: one node and, through `_inputs`, the nodes it
    reads. The public `Dataset` (dataset.py) adds the methods that chain them."""

    _inputs = ()            # the datasets this node reads
    _params = ()            # the tensors this node was built from
    _options = None

    def __init__(self, spec):
        self._spec = spec

    # --- what a node implements --------------------------------------------
    def _iterate(self, env):
        raise NotImplementedError(type(self).__name__)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _plan(self, env):
        """An index plan (batching.Plan) when elements are rows of arrays, for
        the fused batch path; None otherwise."""
        return

    # --- what the public Dataset implements (see the module docstring) --------
    def _public(self, node_class):
        """The public class of `node_class`: the class to build a dataset
        that user code will see."""
        raise NotImplementedError(f"{type(self).__name__} is not a public dataset")

    def _dataset_spec(self, element_spec):
        """The tf.data.DatasetSpec of datasets of `element_spec`."""
        raise NotImplementedError(f"{type(self).__name__} is not a public dataset")

    # --- facts ----------------------------------------------------------------
    @property
    def element_spec(self):
        return self._spec

    def cardinality(self):
        return wrap_numpy(np.int64(self._cardinality()))

    def __len__(self):
        n = self._cardinality()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self):
        return True

    # The class TensorFlow's repr names: `_<Ours>Dataset` unless set (a class
    # named like TF's own, `TFRecordDatasetV2`, keeps its name).
    _tf_class = None

    def __repr__(self):
        name = self._tf_class or type(self).__name__
        if not (name.endswith("Dataset") or name.endswith("DatasetV2")):
            name = f"_{name}Dataset"
        return f"<{name} element_spec={self._spec!r}>"

    def options(self):
        """The options set on this dataset or upstream (later ones win)."""
        if self._options is not None:
            return self._options
        out = Options()
        for source in self._inputs:
            out = out.merge(source.options())
        return out

    def _symbolic(self):
        """The symbolic tensors this pipeline was built from (inputs of its
        iterator op when iterated inside a graph)."""
        out = []
        for d in self._inputs:
            symbolic_leaves(d._symbolic(), out)
        return symbolic_leaves(self._params, out)

    # --- the protocols of core/protocols.py ------------------------------------
    def _autograph_stream(self):
        """Streamable: a staged `for` reads the dataset through a graph iterator."""
        return DatasetStream(GraphIterator(self))

    # --- iteration -------------------------------------------------------------
    def __iter__(self):
        if current_graph() is not None:
            return GraphIterator(self)
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        if current_graph() is not None:
            raise RuntimeError("as_numpy_iterator() is not supported inside a tf.function; "
                               "iterate the dataset directly (for x in ds)")
        return NumpyIterator(self)


class FromHandle(DatasetNode):
    """While tracing: the dataset argument, read from its placeholder when the
    graph runs."""
    _tf_class = "_VariantDataset"   # TensorFlow's repr

    def __init__(self, placeholder, element_spec):
        self._params = (placeholder,)
        super().__init__(element_spec)

    def _cardinality(self):
        return UNKNOWN_CARDINALITY

    def _iterate(self, env):
        return env.value(self._params[0]).dataset._iterate(EMPTY)
