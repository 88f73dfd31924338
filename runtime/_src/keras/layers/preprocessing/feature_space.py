"""`keras.utils.FeatureSpace`: one layer that turns a dict of structured
columns (numbers, categories, strings) into model inputs, as Keras 3.15's.

    space = FeatureSpace({"age": "float_normalized", "city": "string_categorical"},
                         crosses=[("age_bin", "city")], output_mode="concat")
    space.adapt(dataset_of_dicts)         # learns the vocabularies, means, bins
    space(batch_dict)                     # one float matrix ("concat") or a dict
    ds.map(lambda x, y: (space(x), y))    # inside tf.data as well

Each feature has a preprocessor layer (Normalization, StringLookup, Hashing,
Discretization, ...) and an output mode: "float" as it is, "int" the
preprocessor's indices, "one_hot" those as a multi-hot row of the
preprocessor's cardinality. Crosses hash the preprocessed indices of several
features into `crossing_dim` bins (HashedCrossing). With "concat" the features
are concatenated in sorted name order, crosses last. A single example (scalars)
comes back without its batch dimension.
"""

from runtime._src.core import dtypes
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.data.dataset import Dataset
from runtime._src.keras.layers.core.input_layer import Input
from runtime._src.keras.layers.layer import Layer
from runtime._src.keras.layers.preprocessing.bucketing import Discretization, Hashing
from runtime._src.keras.layers.preprocessing.category_encoding import CategoryEncoding
from runtime._src.keras.layers.preprocessing.hashed_crossing import HashedCrossing
from runtime._src.keras.layers.preprocessing.index_lookup import IntegerLookup, StringLookup
from runtime._src.keras.layers.preprocessing.normalization import Normalization
from runtime._src.keras.layers.preprocessing.rescaling import Rescaling
from runtime._src.keras.layers.preprocessing.text_vectorization import TextVectorization
from runtime._src.keras.saving import serialization_lib
from runtime._src.keras.utils.naming import unique_name
from runtime._src.ops import array_ops

__all__ = ["FeatureSpace", "Feature", "Cross"]

_MODULE = "keras.src.layers.preprocessing.feature_space"     # where Keras's configs name them


def _mode(value, allowed):
    if value not in allowed:
        names = "{" + ", ".join(repr(a) for a in allowed) + "}"
        raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {names}. "
                         f"Received: output_mode={value}")


class Cross:
    """A crossing of features: their preprocessed indices hashed together."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        _mode(output_mode, ("int", "one_hot"))
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self):
        return "_X_".join(self.feature_names)

    def get_config(self):
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """A feature: its input dtype, its preprocessor layer and its output mode."""

    def __init__(self, dtype, preprocessor, output_mode):
        _mode(output_mode, ("int", "one_hot", "float"))
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            preprocessor = serialization_lib.deserialize_keras_object(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self):
        return {"dtype": self.dtype,
                "preprocessor": serialization_lib.serialize_keras_object(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _Identity(Layer):
    """A float feature's preprocessor: the values as they are."""

    def call(self, x):
        return x


class _Concat(Layer):
    """The "concat" output: the encoded features side by side."""

    def call(self, xs):
        return array_ops.concat(list(xs), axis=-1)


class FeatureSpace(Layer):
    """`keras.utils.FeatureSpace(features, output_mode="concat", crosses=None,
    crossing_dim=32, hashing_dim=32, num_discretization_bins=32, name=None)`."""

    # --- the kinds of feature --------------------------------------------------------

    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or unique_name("float")
        return Feature("float32", _Identity(dtype="float32", name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        name = name or unique_name("float_rescaled")
        return Feature("float32", Rescaling(scale=scale, offset=offset,
                                            name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_normalized(cls, name=None):
        name = name or unique_name("float_normalized")
        return Feature("float32", Normalization(axis=-1, name=f"{name}_preprocessor"),
                       "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot",
                          name=None):
        name = name or unique_name("float_discretized")
        return Feature("float32", Discretization(num_bins=num_bins,
                                                 bin_boundaries=bin_boundaries,
                                                 name=f"{name}_preprocessor"), output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                            name=None):
        name = name or unique_name("integer_categorical")
        return Feature("int32", IntegerLookup(name=f"{name}_preprocessor",
                                              max_tokens=max_tokens,
                                              num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot",
                           name=None):
        name = name or unique_name("string_categorical")
        return Feature("string", StringLookup(name=f"{name}_preprocessor",
                                              max_tokens=max_tokens,
                                              num_oov_indices=num_oov_indices), output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("string_hashed")
        return Feature("string", Hashing(name=f"{name}_preprocessor", num_bins=num_bins),
                       output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        name = name or unique_name("integer_hashed")
        return Feature("int32", Hashing(name=f"{name}_preprocessor", num_bins=num_bins),
                       output_mode)

    # --- building ------------------------------------------------------------------

    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32,
                 hashing_dim=32, num_discretization_bins=32, name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {key: self._standardize(key, value) for key, value in features.items()}
        self.crosses = [self._cross(c, features, crossing_dim) for c in crosses or []]
        self.crosses_by_name = {c.name: c for c in self.crosses}
        if output_mode not in ("dict", "concat"):
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{{'dict', 'concat'}}. Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {key: Input(shape=(1,), dtype=f.dtype, name=key)
                       for key, f in self.features.items()}
        self.preprocessors = {key: f.preprocessor for key, f in self.features.items()}
        self.crossers = {c.name: HashedCrossing(c.crossing_dim, name=c.name)
                         for c in self.crosses}
        self.one_hot_encoders = {}
        self.concat = None
        self.encoded_features = None
        self._is_adapted = False
        self._sublayers_built = False

    def _standardize(self, key, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return serialization_lib.deserialize_keras_object(feature)
        kinds = {"float": lambda: self.float(name=key),
                 "float_normalized": lambda: self.float_normalized(name=key),
                 "float_rescaled": lambda: self.float_rescaled(name=key),
                 "float_discretized": lambda: self.float_discretized(
                     name=key, num_bins=self.num_discretization_bins),
                 "integer_categorical": lambda: self.integer_categorical(name=key),
                 "string_categorical": lambda: self.string_categorical(name=key),
                 "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=key),
                 "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=key)}
        if not isinstance(feature, str) or feature not in kinds:
            raise ValueError(f"Invalid feature type: {feature}")
        return kinds[feature]()

    @staticmethod
    def _cross(cross, features, crossing_dim):
        if isinstance(cross, dict):
            cross = serialization_lib.deserialize_keras_object(cross)
        if isinstance(cross, Cross):
            return cross
        if not crossing_dim:
            raise ValueError("When specifying `crosses`, the argument `crossing_dim` "
                             "(dimensionality of the crossing space) should be specified "
                             "as well.")
        if any(key not in features for key in cross):
            raise ValueError("All features referenced in the `crosses` argument should be "
                             f"present in the `features` dict. Received unknown features: "
                             f"{cross}")
        return Cross(cross, crossing_dim=crossing_dim)

    def _adaptable(self):
        names = []
        for key in self.features:
            p = self.preprocessors[key]
            if isinstance(p, Normalization) and getattr(p, "input_mean", None) is not None:
                continue
            if isinstance(p, TextVectorization) and getattr(p, "_has_input_vocabulary", False):
                continue
            if hasattr(p, "adapt"):
                names.append(key)
        return names

    def adapt(self, dataset):
        """Learn each adaptable preprocessor's state from a Dataset of dicts
        (or a dict of arrays)."""
        if not isinstance(dataset, Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict "
                                 f"of arrays/lists. Received instead: {dataset} (of type "
                                 f"{type(dataset)})")
            dataset = Dataset.from_tensor_slices(dataset)
        for key in self._adaptable():
            column = dataset.map(lambda x, key=key: x[key])
            first = next(iter(column))
            if len(first.shape) == 0:
                column = column.batch(32)
            if len(first.shape) in (0, 1):
                column = column.map(lambda x: array_ops.expand_dims(x, -1))
            self.preprocessors[key].adapt(column)
        self._is_adapted = True
        self.get_encoded_features()
        self.built = True
        self._sublayers_built = True

    def _check_adapted(self):
        if not self._is_adapted:
            if self._adaptable():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace "
                                 "before you can start using it.")
            self._is_adapted = True

    def _check_built(self):
        if not self._sublayers_built:
            self._check_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    def get_inputs(self):
        """The Keras Inputs, one per feature (a functional model starts here)."""
        self._check_built()
        return self.inputs

    def get_encoded_features(self):
        """The encoded features of `get_inputs()`, as symbolic tensors."""
        self._check_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess(self.inputs)
            self.encoded_features = self._merge(preprocessed, self._crossed(preprocessed))
        return self.encoded_features

    def _preprocess(self, features):
        return {key: self.preprocessors[key](features[key]) for key in features}

    def _crossed(self, features):
        return {c.name: self.crossers[c.name]([features[k] for k in c.feature_names])
                for c in self.crosses}

    def _merge(self, preprocessed, crossed):
        names = sorted(preprocessed) + sorted(crossed)
        values = {**preprocessed, **crossed}
        out = {}
        for key in names:
            value = values[key]
            if not self._sublayers_built and self._spec(key).output_mode == "one_hot":
                self.one_hot_encoders[key] = self._one_hot_encoder(key, value)
            encoder = self.one_hot_encoders.get(key)
            out[key] = encoder(value) if encoder is not None else value
        if self.output_mode == "dict":
            return out
        for key in names:
            dtype = dtypes.as_dtype(out[key].dtype).name
            if dtype.startswith("int") or dtype == "string":
                raise ValueError(f"Cannot concatenate features because feature '{key}' has "
                                 f"not been encoded (it has dtype {dtype}). Consider using "
                                 f"`output_mode='dict'`.")
        if self.concat is None:
            self.concat = _Concat()
        return self.concat([out[key] for key in names])

    def _spec(self, key):
        return self.features[key] if key in self.features else self.crosses_by_name[key]

    def _one_hot_encoder(self, key, value):
        dtype = dtypes.as_dtype(value.dtype).name
        if not dtype.startswith("int"):
            raise ValueError(f"Feature '{key}' has `output_mode='one_hot'`. Thus its "
                             f"preprocessor should return an integer dtype. Instead it "
                             f"returns a {dtype} dtype.")
        p = self.preprocessors.get(key) or self.crossers.get(key)
        if isinstance(p, (IntegerLookup, StringLookup)):
            cardinality = p.vocabulary_size()
        elif isinstance(p, CategoryEncoding):
            cardinality = p.num_tokens
        elif isinstance(p, (Discretization, HashedCrossing, Hashing)):
            cardinality = p.num_bins
        else:
            raise ValueError(f"Feature '{key}' has `output_mode='one_hot'`. However it isn't "
                             "a standard feature and the dimensionality of its output space "
                             "is not known, thus it cannot be one-hot encoded. Try using "
                             "`output_mode='int'`.")
        return CategoryEncoding(num_tokens=cardinality, output_mode="multi_hot")

    # --- calling -------------------------------------------------------------------

    def __call__(self, data):
        self._check_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: "
                             f"data={data} (of type {type(data)}")
        data = {key: value if isinstance(value, Tensor) or hasattr(value, "_type_spec")
                else convert_to_tensor(value) for key, value in data.items()}
        single = False
        for key, value in data.items():
            if len(value.shape) == 0:
                data[key] = array_ops.reshape(value, (1, 1))
                single = True
            elif len(value.shape) == 1:
                data[key] = array_ops.expand_dims(value, -1)
        preprocessed = self._preprocess(data)
        merged = self._merge(preprocessed, self._crossed(preprocessed))
        if not single:
            return merged
        if self.output_mode == "concat":
            return array_ops.squeeze(merged, axis=0)
        return {key: array_ops.squeeze(v, axis=0) if len(v.shape) == 2 and v.shape[0] == 1
                else v for key, v in merged.items()}

    def get_config(self):
        return {"features": serialization_lib.serialize_keras_object(self.features),
                "output_mode": self.output_mode,
                "crosses": serialization_lib.serialize_keras_object(self.crosses),
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


for _cls in (Cross, Feature):
    serialization_lib.register_builtin(_MODULE, _cls, exported=False)
