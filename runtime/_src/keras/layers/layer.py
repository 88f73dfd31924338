"""`Layer`: the Keras building block, a `Module` with `build` and `call`.

    class Scale(Layer):
        def build(self, input_shape):             # runs once, on the first call
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

        def call(self, inputs, training=None):     # the computation
            return inputs * self.w

    layer = Scale()
    layer(tf.ones([2, 3]))       # builds (creates w of shape (3,)), then calls
    layer.trainable_variables    # (w,)

Calling a layer (`Layer.__call__`):
1. converts numpy arrays and Python values to tensors, and floating inputs to
   the layer's dtype (float32, or `keras.config.dtype_policy()`'s);
2. checks the input against `input_spec` (rank, last dimension): a wrong input
   is a ValueError naming the layer and what it expects;
3. builds the layer on its first call (`build(input_shape)`, which creates
   the weights with `add_weight`; weights created while a `tf.function` traces
   are lifted out of the graph, so they exist once);
4. resolves `training` as Keras does: the value passed to this call, else the
   value of the enclosing layer call, else `call`'s default; layers called
   inside `call` see it without being passed it;
5. runs `call`, converted by autograph when a graph is being traced (so a
   Python `if` on a tensor inside `call` becomes a `cond`).

Weights are listed in creation order, own weights first, then those of the
layers held in attributes, in the order the attributes were set (as Keras
does; `tf.Module` sorts attribute names instead).
"""

import inspect
import threading
import warnings

import numpy as np

from autograph.integration import call as _ag_call

from runtime._src.core import determinism, dtypes, nest
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import Tensor, convert_to_tensor
from runtime._src.function.function import Function
from runtime._src.function.module import Module
from runtime._src.function.variables import Variable
from runtime._src.graph.graph import current_graph
from runtime._src.keras.backend import keras_config
from runtime._src.keras.dtype_policies import dtype_policy as dtype_policies
from runtime._src.keras.quantizers import quantization_config
from runtime._src.keras.initializers import initializers
from runtime._src.keras.utils import naming
from runtime._src.keras.regularizers import regularizers
from runtime._src.keras.saving import serialization_lib as serialization
from runtime._src.keras.backend import masking
from runtime._src.keras.backend.keras_tensor import (KerasTensor, any_symbolic, symbolic_call,
                                                    symbolic_value)
from runtime._src.keras.saving.auto_config import (AutoConfigured, as_shape_structure, plain_shape,
                                                   recording_build)
from runtime._src.keras.utils.naming import to_snake_case, unique_name
from runtime._src.keras.random.random import SeedGenerator as _SeedGenerator
from runtime._src.keras.backend.stateless_scope import get_stateless_scope
from runtime._src.keras.backend.variables import KerasVariable, autocast_scope
from runtime._src.ops import array_ops, math_ops

__all__ = ["Layer", "InputSpec", "base_config", "ConfigurableLayer"]

_ALLOWED_KWARGS = {"input_shape", "batch_input_shape", "batch_size", "input_dim", "autocast",
                   "activity_regularizer"}
_context = threading.local()          # .training: the enclosing layer call's value
#                                       .layer_scopes: layers being called or built


class InputSpec:
    """`keras.InputSpec(dtype=None, shape=None, ndim=None, max_ndim=None,
    min_ndim=None, axes=None, allow_last_axis_squeeze=False, name=None,
    optional=False)`: what a layer accepts (rank, dtype, sizes of `axes`,
    a shape with None for any size), checked on every call."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype).name
        self.shape = None if shape is None else plain_shape(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.name, self.optional = name, optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: "
                            f"axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed "
                                 f"value: {max_dim}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                          ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                          ("min_ndim", self.min_ndim), ("axes", self.axes))
                 if v]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
                "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _shape_text(shape):
    return "<unknown>" if shape.dims is None else str(tuple(shape.dims))


def _check_spec_dtype(layer, index, spec, x):
    if spec.dtype is not None and x.dtype.name != spec.dtype:
        raise ValueError(f"Input {index} with name '{spec.name}' of layer '{layer.name}' is "
                         f"incompatible with the layer: expected dtype={spec.dtype}, found "
                         f"dtype={x.dtype.name}")


def _squeezed(spec, dims):
    """(spec shape, input dims), each without a last 1 when the spec allows it."""
    expected, got = list(spec.shape), list(dims)
    if spec.allow_last_axis_squeeze:
        if got and got[-1] == 1:
            got = got[:-1]
        if expected and expected[-1] == 1:
            expected = expected[:-1]
    return expected, got


def check_input_spec(layer, inputs):
    """Raise ValueError when `inputs` do not fit `layer.input_spec`."""
    specs = layer.input_spec
    if specs is None:
        return
    specs = specs if isinstance(specs, (list, tuple)) else [specs]
    flat = nest.flatten(inputs)
    for i, (spec, x) in enumerate(zip(specs, flat)):
        if spec is None or not isinstance(x, Tensor) or x.shape.rank is None:
            continue
        shape, rank = x.shape, x.shape.rank
        _check_spec_dtype(layer, i, spec, x)
        head = (f"Input {i} with name '{spec.name}' of layer '{layer.name}' is incompatible "
                "with the layer: ")
        tail = f"Full shape received: {_shape_text(shape)}"
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and rank != spec.ndim:
            raise ValueError(f"{head}expected ndim={spec.ndim}, found ndim={rank}. {tail}")
        if spec.min_ndim is not None and rank < spec.min_ndim:
            raise ValueError(f"{head}expected min_ndim={spec.min_ndim}, found ndim={rank}. "
                             f"{tail}")
        if spec.max_ndim is not None and rank > spec.max_ndim:
            raise ValueError(f"{head}expected max_ndim={spec.max_ndim}, found ndim={rank}. "
                             f"{tail}")
        for axis, size in spec.axes.items():
            got = shape.dims[axis] if -rank <= axis < rank else None
            if size is not None and got is not None and got != size:
                raise ValueError(f"{head}expected axis {axis} of input shape to have value "
                                 f"{size}, but received input with shape {_shape_text(shape)}")
        if spec.shape is not None:
            for expected, got in zip(*_squeezed(spec, shape.dims)):
                if expected is not None and got is not None and expected != got:
                    raise ValueError(f"{head}expected shape={spec.shape}, found shape="
                                     f"{_shape_text(shape)}")


def _call_parameters(layer):
    """(has a `training` parameter, its default) of `layer.call`."""
    fn = type(layer).call
    if isinstance(fn, Function):
        fn = fn._python_function
    params = inspect.signature(fn).parameters
    p = params.get("training")
    if p is None:
        takes_kwargs = any(q.kind is q.VAR_KEYWORD for q in params.values())
        return takes_kwargs, None
    return True, None if p.default is p.empty else p.default


def _in_layer_call():
    return getattr(_context, "layer_scopes", 0) > 0


class _NameScope:
    """Opens a layer's name scope while it is called or built (the weights'
    paths; see `naming.current_path`)."""

    override_parent = None

    def __init__(self, name):
        self.name = name
        self.caller = None

    def __enter__(self):
        naming.scope_entries().append(self)
        _context.layer_scopes = getattr(_context, "layer_scopes", 0) + 1

    def __exit__(self, *exc):
        naming.scope_entries().pop()
        _context.layer_scopes -= 1


def _propagated_mask(layer, args, kwargs):
    """(the input's mask, the call's keyword arguments): the mask is `mask=` when
    given, else the first argument's `_keras_mask` (a list of them for a list of
    tensors, as `Attention` takes), passed on as `mask=` to a `call` that takes
    one (Keras 3)."""
    mask = kwargs.get("mask")
    kwargs = {**kwargs, **masking.argument_masks(layer, args, kwargs)}
    if mask is not None or not args:
        return mask, kwargs
    mask = masking.input_mask(args[0])
    if mask is not None and masking.accepts_mask(layer):
        return mask, {**kwargs, "mask": mask}
    return mask, kwargs


def _set_output_mask(layer, inputs, mask, outputs):
    """Each output's `_keras_mask`: `compute_mask(inputs, mask)` of a layer that
    defines it, the input's mask through a layer that `supports_masking`
    (traced on placeholders for KerasTensors), as Keras 3 sets it."""
    if not isinstance(outputs, (Tensor, KerasTensor, list, tuple)):
        return
    compute = getattr(layer, "compute_mask", None)
    if compute is None:
        out_mask = mask if getattr(layer, "supports_masking", False) else None
    elif any_symbolic((inputs, mask), {}):
        out_mask = symbolic_value(layer.name, compute, (inputs, mask), {})
    else:
        out_mask = compute(inputs, mask)
    if out_mask is None:
        return
    masks = out_mask if isinstance(out_mask, (list, tuple)) else [out_mask]
    for tensor, m in zip(nest.flatten(outputs), masks):
        if m is not None and isinstance(tensor, (Tensor, KerasTensor)) \
                and getattr(tensor, "_keras_mask", None) is None:
            tensor._keras_mask = m


class _FirstCallTensors:
    """`layer.input` / `layer.output`: the KerasTensors of the layer's first call
    on KerasTensors (one tensor alone, else a list), as Keras 3.15. A non-data
    descriptor, so a layer that sets its own `output` (InputLayer) keeps it."""

    def __init__(self, attr):
        self.attr = attr

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, layer, owner=None):
        if layer is None:
            return self
        if not layer._inbound_nodes:
            raise AttributeError(f"The layer {layer.name} has never been called and thus "
                                 f"has no defined {self.name}.")
        values = getattr(layer._inbound_nodes[0], self.attr)
        return values[0] if len(values) == 1 else values


class Layer(AutoConfigured, Module):
    """`tf.keras.layers.Layer(trainable=True, name=None, dtype=None,
    activity_regularizer=None)`."""

    _config_module = "keras.layers"
    _wraps_containers = False   # lists and dicts stay plain, as in Keras 3's layers
    _config_keys = None     # a tuple: the attributes get_config lists (no automatic config)
    input = _FirstCallTensors("input_tensors")
    output = _FirstCallTensors("output_tensors")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = recording_build(cls.__dict__["build"])

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        unknown = set(kwargs) - _ALLOWED_KWARGS
        if unknown:
            unknown = {k: v for k, v in kwargs.items() if k in unknown}
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {unknown}")
        super().__init__(name=name if name is not None else
                         unique_name(to_snake_case(type(self).__name__)))
        self._losses = []
        self.activity_regularizer = regularizers.get(kwargs.get("activity_regularizer"))
        self._own_weights = []
        self._trainable = bool(trainable)
        dtype = keras_config.dtype_policy() if dtype is None else dtype
        compute, variable, self._policy_name = dtype_policies.layer_policy(dtype)
        self._quantized_policy = dtype_policies.quantized_layer_policy(dtype)
        self._dtype = dtypes.as_dtype(compute)              # inputs and outputs
        self._variable_dtype = dtypes.as_dtype(variable)    # weights
        self.built = False
        self.input_spec = None
        self._batch_input_shape = _batch_input_shape(kwargs)
        if kwargs.get("input_shape") is not None or kwargs.get("input_dim") is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When "
                          "using Sequential models, prefer using an `Input(shape)` object as "
                          "the first layer in the model instead.", UserWarning, stacklevel=3)
        self._call_has_training, self._training_default = _call_parameters(self)
        self._inbound_nodes = []     # calls on KerasTensors (the functional API)
        self._build_output_shape = None   # the first call's output shape (summary)

    @staticmethod
    def _check_name(name):
        """Keras's rule, not tf.Module's: any string without `/` (`"3_layer_mlp"`)."""
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name} (of type {type(name)})")

    # --- properties -----------------------------------------------------------

    @property
    def dtype(self):
        """The dtype of the weights (Keras's `variable_dtype`)."""
        return self._variable_dtype.name

    @property
    def dtype_policy(self):
        """The layer's `keras.DTypePolicy`."""
        return self._quantized_policy or dtype_policies.DTypePolicy(self._policy_name)

    @dtype_policy.setter
    def dtype_policy(self, value):
        """`layer.dtype_policy = policy` (a DTypePolicy or its name), as Keras 3.15:
        new compute and variable dtypes (the weights made keep theirs); a quantized
        policy ("int8_from_float32") quantizes a built float layer with the mode's
        default config, or has build make the quantized weights."""
        policy = dtype_policies.get(value)
        was_quantized = self._quantized_policy is not None
        compute, variable, self._policy_name = dtype_policies.layer_policy(policy)
        self._dtype, self._variable_dtype = dtypes.as_dtype(compute), dtypes.as_dtype(variable)
        self._quantized_policy = dtype_policies.quantized_layer_policy(policy)
        if self._quantized_policy is not None and self.built and not was_quantized:
            mode = self._quantized_policy.quantization_mode
            self._quantize(mode, True,
                           quantization_config.validate_and_resolve_config(mode, None))

    @property
    def quantization_mode(self):
        """The quantization mode ("int8", "int4", "float8"), None when not quantized."""
        return None if self._quantized_policy is None else \
            self._quantized_policy.quantization_mode

    @property
    def compute_dtype(self):
        return self._dtype.name

    @property
    def variable_dtype(self):
        return self._variable_dtype.name

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        """Freeze (False) or unfreeze this layer and every layer inside it, as
        Keras 3 does (a frozen BatchNormalization also runs in inference mode)."""
        self._trainable = bool(value)
        for layer in self._all_sublayers():
            layer._trainable = bool(value)

    @property
    def weights(self):
        """Every weight: this layer's own, then its sublayers', each once."""
        return self._collect("all")

    @property
    def trainable_weights(self):
        return self._collect("trainable")

    @property
    def non_trainable_weights(self):
        return self._collect("non_trainable")

    trainable_variables = trainable_weights

    @property
    def variables(self):
        """Every weight and the state of the `keras.random.SeedGenerator`s held
        in attributes, as Keras 3's (`weights` leaves the seeds out)."""
        return self._collect("all", seeds=True)

    @property
    def non_trainable_variables(self):
        """The non-trainable weights and the SeedGenerators' states."""
        return self._collect("non_trainable", seeds=True)

    def _collect(self, which, seeds=False):
        found, seen = [], set()
        self._collect_into(which, found, seen, self._trainable, seeds)
        return found

    def _collect_into(self, which, found, seen, trainable, seeds=False):
        def add(v):
            if id(v) in seen:
                return
            seen.add(id(v))
            is_trainable = trainable and v.trainable
            if which == "all" or (which == "trainable") == is_trainable:
                found.append(v)
        for v in self._own_weights_in_order():
            add(v)
        if seeds:
            for generator in _tracked_values(self, _SeedGenerator):
                add(generator.state)
        for value in _tracked_values(self):
            if isinstance(value, KerasVariable):
                add(value)
            elif id(value) not in seen:
                seen.add(id(value))
                value._collect_into(which, found, seen, trainable and value._trainable, seeds)

    def _own_weights_in_order(self):
        """Own weights created trainable first, then the others, as Keras 3's
        tracker lists them (a weight frozen later, as LoRA's kernel, keeps its place)."""
        return sorted(self._own_weights, key=lambda w: not getattr(w, "_created_trainable",
                                                                   w.trainable))

    @property
    def layers(self):
        """The layers held in attributes (directly, or in lists, tuples, dicts)."""
        return [v for v in _tracked_values(self) if isinstance(v, Layer)]

    # --- building -------------------------------------------------------------

    def build(self, input_shape):
        """Create the weights; called once, with the first input's shape."""
        self.built = True

    def _weights_scopes(self):
        """The scopes of this layer's existing weights' paths (a weight made
        outside any call, as `quantize` makes them, joins its siblings)."""
        for weight in self.__dict__.get("_own_weights", ()):
            parts = weight.path.split("/")[:-1]
            if parts and parts[-1] == self.name:
                return parts
        return []

    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, aggregation="none",
                   overwrite_with_gradient=False, name=None, **kwargs):
        """A new Variable owned by this layer, initialized by `initializer`
        ("glorot_uniform" for floats by default, as Keras; "zeros" otherwise).
        The arguments are in Keras 3's order: shape first, name last. Its
        `path` is the layers being called (or this one) and `name`;
        `regularizer` adds its penalty to `losses`."""
        unknown = set(kwargs) - {"synchronization", "use_resource"}
        if unknown:
            raise TypeError(f'Layer "{self.name}": add_weight() got an unexpected keyword '
                            f"argument {sorted(unknown)[0]!r}")
        dtype = dtypes.as_dtype(dtype or self._variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        shape = tuple(() if shape is None else shape)
        with init_scope():
            value = init(shape, dtype=dtype)   # as Keras: tf.random.normal works
        scopes = [p for p in naming.current_path().split("/") if p] or self._weights_scopes()
        if not scopes or scopes[-1] != self.name:
            scopes.append(self.name)
        name = name or unique_name("variable")    # Keras 3: variable, variable_1, ...
        variable = KerasVariable(value, trainable=trainable, dtype=dtype, name=name,
                                 path="/".join(scopes + [name]),
                                 regularizer=regularizers.get(regularizer),
                                 constraint=constraint, aggregation=aggregation,
                                 autocast=autocast)
        variable.overwrite_with_gradient = bool(overwrite_with_gradient)
        variable._created_trainable = bool(trainable)
        self._own_weights.append(variable)
        return variable

    # --- quantization -----------------------------------------------------------

    def quantize(self, mode=None, type_check=True, config=None):
        """`layer.quantize(mode=None, config=None)`: replace the built layer's
        weights by `mode`'s ("int8", "int4", "float8"; or a QuantizationConfig's).
        Dense, EinsumDense, Embedding and ReversibleEmbedding have it; other
        layers raise NotImplementedError."""
        config = quantization_config.validate_and_resolve_config(mode, config)
        mode = config.mode
        if not self.built:
            raise ValueError("Cannot quantize a layer that isn't yet built. Layer "
                             f"'{self.name}' (of type '{type(self).__name__}') is not built "
                             "yet.")
        if self._quantized_policy is not None:
            raise ValueError(f"Layer '{self.name}' is already quantized with "
                             f"dtype_policy='{self.dtype_policy.name}'. Received: mode={mode}")
        if mode == "int8" and self.compute_dtype == "float16":
            raise ValueError(f"Quantization mode='{mode}' doesn't work well with "
                             "compute_dtype='float16'. Consider loading model/layer with "
                             "another dtype policy such as 'mixed_bfloat16' or "
                             "'mixed_float16' before calling `quantize()`.")
        self._quantize(mode, type_check, config)

    def _quantize(self, mode, type_check, config):
        raise self._not_implemented_error("quantize")

    def _not_implemented_error(self, name):
        return NotImplementedError(f"Layer {type(self).__name__} does not have a `{name}` "
                                   "method implemented.")

    # --- losses -----------------------------------------------------------------

    def add_loss(self, loss):
        """Add a scalar (or a tensor, summed) to `losses`: `fit` adds it to the
        compiled loss. Losses added in `call` are kept until the next call (and
        gathered by a StatelessScope with `collect_losses`)."""
        self._losses.append(loss)
        scope = get_stateless_scope()
        if scope is not None and scope.collect_losses:
            scope.add_loss(loss)

    @property
    def losses(self):
        """The losses added by `add_loss` in the last call (this layer's, then its
        sublayers'), then each trainable weight's regularization penalty."""
        found = list(self._losses)
        for layer in self._all_sublayers():
            found.extend(layer._losses)
        for variable in self.trainable_weights:
            regularizer = getattr(variable, "regularizer", None)
            if regularizer is not None:
                found.append(regularizer(variable))
        return found

    def _all_sublayers(self):
        """Every layer below this one, each once, in weight order."""
        found, seen = [], {id(self)}
        stack = list(reversed(self.layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            found.append(layer)
            stack.extend(reversed(layer.layers))
        return found

    def _clear_losses(self):
        self._losses = []
        for layer in self._all_sublayers():
            layer._losses = []

    # --- config -----------------------------------------------------------------

    def get_config(self):
        """The constructor arguments, in one way for every layer: Keras 3's base
        keys (name, trainable, dtype), then the attributes the class lists in
        `_config_keys`; a layer that lists none and keeps this method (a user
        layer whose `__init__` takes only plain values) gets its constructor
        arguments automatically, as in Keras 3. A layer may also extend the
        dict in its own `get_config`."""
        config = self._base_config()
        if self._config_keys is not None:
            config.update({key: getattr(self, key) for key in self._config_keys})
        elif getattr(type(self).get_config, "_automatic", False):
            auto = getattr(self, "_auto_config", None)
            if auto is None:
                raise NotImplementedError(
                    f"Layer {type(self).__name__} was created by passing non-serializable "
                    "argument values in `__init__()`, and therefore the layer must override "
                    "`get_config()` in order to be serializable. Please implement "
                    "`get_config()`.")
            config.update({k: v for k, v in auto.items() if k not in config})
        return config

    get_config._automatic = True        # Model.get_config is this one too

    def _base_config(self):
        """Keras 3's base keys: name, trainable, dtype (and activity_regularizer)."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": serialization.dtype_policy_config(self._policy_name)
                  if self._quantized_policy is None else
                  serialization.serialize_keras_object(self._quantized_policy)}
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = serialization.serialize_keras_object(
                self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        """A new layer from `get_config()`'s dict (nested objects deserialized)."""
        return cls(**config)

    def get_build_config(self):
        """{"input_shape": ...} of the first build (None when not built), or
        Keras's {"shapes_dict": {"query_shape": ..., ...}} for a build by
        argument names."""
        shape = getattr(self, "_build_input_shape", None)
        if isinstance(shape, dict) and len(shape) > 1:
            return {"shapes_dict": {k: plain_shape(v) for k, v in shape.items()}}
        if isinstance(shape, dict):
            shape = next(iter(shape.values()))
        return None if shape is None else {"input_shape": plain_shape(shape)}

    def build_from_config(self, config):
        if not config or self.built:
            return
        if config.get("input_shape") is not None:
            self.build(as_shape_structure(config["input_shape"]))
            self.built = True
        elif config.get("shapes_dict"):
            self.build(**{k: as_shape_structure(v) for k, v in config["shapes_dict"].items()})
            self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def _saved_own_weights(self):
        """This layer's own weights in the order Keras 3 saves them (a quantized
        layer's `_saved_weights_order`; a LoRA layer's merged kernel)."""
        order = getattr(self, "_saved_weights_order", None)
        return (order and order()) or self._own_weights_in_order()

    def save_own_variables(self, store):
        """`layer.save_own_variables(store)`: this layer's own weights into the
        dict `store` under "0", "1", ... as Keras 3 saves them (with LoRA, the
        kernel with LoRA merged in and not the LoRA pair)."""
        for i, v in enumerate(self._saved_own_weights()):
            store[str(i)] = v.numpy() if hasattr(v, "covers") else v

    def load_own_variables(self, store):
        """`layer.load_own_variables(store)`: assign `store["0"]`, `store["1"]`,
        ... to the weights `save_own_variables` writes (a LoRA layer zeros its
        LoRA pair)."""
        own = self._saved_own_weights()
        if not getattr(self, "lora_enabled", False):
            self._check_load_own_variables(store)
        for i, v in enumerate(own):
            v.assign(store[str(i)])

    def _check_load_own_variables(self, store):
        expected = self._own_weights_in_order()
        if len(store.keys()) == len(expected):
            return
        if not expected and not self.built:
            raise ValueError(
                f"Layer '{self.name}' was never built and thus it doesn't have any "
                f"variables. However the weights file lists {len(store.keys())} variables for "
                "this layer.\nIn most cases, this error indicates that either:\n\n1. The layer "
                "is owned by a parent layer that implements a `build()` method, but calling "
                "the parent's `build()` method did NOT create the state of the child layer "
                f"'{self.name}'. A `build()` method must create ALL state for the layer, "
                "including the state of any children layers.\n\n2. You need to implement the "
                "`def build_from_config(self, config)` method on layer "
                f"'{self.name}', to specify how to rebuild it during loading. In this case, "
                "you might also want to implement the method that generates the build config "
                "at saving time, `def get_build_config(self)`. The method "
                "`build_from_config()` is meant to create the state of the layer (i.e. its "
                "variables) upon deserialization.")
        raise ValueError(f"Layer '{self.name}' expected {len(expected)} variables, but "
                         f"received {len(store.keys())} variables during loading. Expected: "
                         f"{[v.name for v in expected]}")

    def get_weights(self):
        """The values of `weights`, as numpy arrays."""
        return [np.array(w.numpy()) for w in self.weights]

    def set_weights(self, weights):
        """Assign each array to the weight at the same position in `weights`."""
        own = self.weights
        if len(own) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with "
                             f"a weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(own)} weights.")
        for variable, value in zip(own, weights):
            value = np.asarray(value)
            if tuple(variable.shape.dims) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape.dims)} "
                                 f"is not compatible with provided weight shape "
                                 f"{value.shape}.")
            variable.assign(value.astype(variable.dtype.as_numpy_dtype))

    def compute_output_shape(self, input_shape):
        raise NotImplementedError(f"{type(self).__name__}.compute_output_shape")

    # --- calling --------------------------------------------------------------

    def count_params(self):
        """The number of scalars in this layer's weights."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', "
                             "but the layer isn't built. You can build it manually via: "
                             f"`layer.build(input_shape)`.")
        return sum(weight_size(w) for w in self.weights)

    def __call__(self, *args, **kwargs):
        if not _in_layer_call():
            self._clear_losses()          # the outermost call starts afresh, as Keras
        with _NameScope(self.name):
            mask, call_kwargs = _propagated_mask(self, args, kwargs)
            if any_symbolic(args, kwargs):
                declared = type(self).compute_output_shape is not Layer.compute_output_shape
                outputs = symbolic_call(self, self._call_tensors, args, call_kwargs,
                                        self.compute_output_shape if declared else None,
                                        recorded=kwargs)
            else:
                outputs = self._call_tensors(*args, **call_kwargs)
            if args:
                _set_output_mask(self, args[0], mask, outputs)
            return outputs

    def _call_tensors(self, *args, **kwargs):
        if not args:
            if "inputs" not in kwargs:
                raise TypeError(f'Layer "{self.name}": call() missing the inputs argument')
            args = (kwargs.pop("inputs"),)
        inputs = nest.map_structure(self._convert_input, args[0])
        check_input_spec(self, inputs)
        if not self.built:
            named = _named_build_shapes(self, (inputs,) + args[1:], kwargs)
            if named:               # build(query_shape, value_shape, ...), as Keras 3
                self._build_input_shape = named
                self.build(**named)
                self.built = True
            else:
                self._build_for(inputs)
        training = kwargs.pop("training", None)
        if training is None:
            training = getattr(_context, "training", None)
        if training is None:
            training = self._training_default
        if self._call_has_training and training is not None:
            kwargs["training"] = training
        outer = getattr(_context, "training", None)
        _context.training = training
        try:
            outputs = self._run_call(inputs, *args[1:], **kwargs)
        finally:
            _context.training = outer
        if self.activity_regularizer is not None:
            self._add_activity_loss(outputs)
        if getattr(self, "_build_output_shape", 0) is None and isinstance(outputs, Tensor) \
                and outputs.shape.dims is not None:
            self._build_output_shape = tuple(outputs.shape.dims)
        return outputs

    def _add_activity_loss(self, outputs):
        """activity_regularizer(output) / batch size for each output, as Keras 3."""
        for out in nest.flatten(outputs):
            if not isinstance(out, Tensor):
                continue
            loss = self.activity_regularizer(out)
            if out.shape.rank:
                batch = math_ops.cast(array_ops.shape(out)[0], loss.dtype)
                loss = math_ops.divide(loss, batch)
            self.add_loss(loss)

    def _run_call(self, *args, **kwargs):
        """`call`, converted by autograph while a graph is traced; under a mixed
        policy the weights read as the compute dtype. Under op determinism its
        unseeded random ops run (runtime/_src/core/determinism.py)."""
        if determinism.enabled():
            with determinism.unseeded_allowed():
                return self._autocast_call(*args, **kwargs)
        return self._autocast_call(*args, **kwargs)

    def _autocast_call(self, *args, **kwargs):
        call = self.call
        mixed = self._dtype if self._dtype != self._variable_dtype else None
        with autocast_scope(mixed):
            if current_graph() is None or isinstance(call, Function):
                return call(*args, **kwargs)
            return _ag_call(call, *args, **kwargs)

    def _convert_input(self, x):
        if isinstance(x, Variable):
            x = x.read_value()
        if not isinstance(x, Tensor):
            try:
                x = convert_to_tensor(x)
            except (TypeError, ValueError):
                return x
            if x.dtype.is_floating and x.dtype != self._dtype:
                return math_ops.cast(x, self._dtype)
            return x
        if x.dtype.is_floating and x.dtype != self._dtype:
            return math_ops.cast(x, self._dtype)
        return x

    def _build_for(self, inputs):
        shapes = nest.map_structure(_shape_of, inputs)
        self._build_input_shape = shapes
        self.build(shapes)
        self.built = True
        if type(self).build is Layer.build and any(not lay.built for lay in self.layers):
            self._build_by_tracing(inputs)

    def _build_by_tracing(self, inputs):
        """Build the sublayers of a layer without a `build` of its own by running
        its `call` once on placeholders of the inputs' shapes, as Keras 3.15 does
        (so a `print` in `call` shows twice on the first call there too); a call
        that cannot run so is left to build them in the real call."""
        specs = nest.map_structure(
            lambda t: KerasTensor(t.shape.dims, t.dtype, name="build_input")  # no counter
            if isinstance(t, Tensor) and t.shape.dims is not None else t, inputs)
        everyone = [self] + self._all_sublayers()
        losses = [list(layer._losses) for layer in everyone]
        try:
            symbolic_value(self.name, self._run_call, (specs,), {})
        except Exception:  # noqa: BLE001 - as Keras: the eager call builds them instead
            pass
        finally:
            for layer, kept in zip(everyone, losses):
                layer._losses = kept

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def _batch_input_shape(kwargs):
    """(None, *input_shape) from `input_shape=` / `input_dim=` / `batch_input_shape=`."""
    if kwargs.get("batch_input_shape") is not None:
        return tuple(kwargs["batch_input_shape"])
    if kwargs.get("input_shape") is not None:
        return (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
    if kwargs.get("input_dim") is not None:
        return (kwargs.get("batch_size"), kwargs["input_dim"])
    return None


_UNTRACKED = frozenset({"_own_weights", "_name", "input_spec", "_keras_state", "_nodes",
                        "_inbound_nodes", "_node_depths", "inputs", "outputs", "_losses",
                        "_auto_config", "activity_regularizer", "_build_input_shape",
                        "_rnn_states"})


def weight_size(variable):
    """The number of scalars in `variable`."""
    n = 1
    for d in variable.shape.dims:
        n *= d
    return n


def _tracked_values(layer, kinds=None):
    """Layers and Keras variables (or `kinds`) in `layer`'s attributes, in the
    order they were set. A plain `tf.Variable` is not a weight, as in Keras 3 on
    TF: `layer.variables` leaves it out (a `tf.train.Checkpoint` still saves it)."""
    out = []
    kinds = kinds or (Layer, KerasVariable)

    def visit(value):
        if isinstance(value, kinds):
            out.append(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                visit(item)
        elif isinstance(value, dict):
            for item in value.values():
                visit(item)
    for key, value in vars(layer).items():
        if key not in _UNTRACKED:
            visit(value)
    return out


def base_config(layer):
    """The config entries every layer has: name, trainable, dtype (for a layer
    that writes its own `get_config`)."""
    return Layer._base_config(layer)


def _shape_of(t):
    return tuple(t.shape.dims) if isinstance(t, Tensor) and t.shape.dims is not None else None


def _named_build_shapes(layer, args, kwargs):
    """{"<arg>_shape": shape} for a `build` whose parameters are all named
    after call arguments (`query_shape` for `query`), or None."""
    params = list(inspect.signature(layer.build).parameters)
    if len(params) < 2 or not all(p.endswith("_shape") for p in params) \
            or params[0] == "input_shape":
        return None
    try:
        bound = inspect.signature(layer.call).bind_partial(*args, **kwargs).arguments
    except TypeError:
        return None
    found = {}
    for p in params:
        value = bound.get(p[:-len("_shape")])
        shape = None if value is None else nest.map_structure(_any_shape, value)
        if shape is not None:
            found[p] = shape
    return found if params[0] in found else None


def _any_shape(value):
    """The shape of a tensor or array argument (None: unknown or not one)."""
    if isinstance(value, Tensor):
        return _shape_of(value)
    shape = getattr(value, "shape", None)
    return tuple(shape) if isinstance(shape, tuple) else None


class ConfigurableLayer(Layer):
    """A Layer whose `get_config()` lists the constructor arguments kept as the
    attributes named in `_config_keys`, so `type(layer).from_config(layer.get_config())`
    builds an equal layer."""

    _config_keys = ()
