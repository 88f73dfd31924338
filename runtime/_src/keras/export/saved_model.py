"""`keras.export.ExportArchive` and `Model.export`: a model's inference as a
SavedModel that `tf.saved_model.load` (or `keras.layers.TFSMLayer`) runs
without the model's Python code, as Keras 3 on TensorFlow.

    model.export("path")                     # the endpoint "serve"
    reloaded = tf.saved_model.load("path")
    reloaded.serve(x)                        # also reloaded.signatures["serving_default"]

    archive = keras.export.ExportArchive()
    archive.track(model)
    archive.add_endpoint("call", model.call, input_signature=[keras.InputSpec(shape=(None, 3))])
    archive.add_variable_collection("optimizer_variables", model.optimizer.variables)
    archive.write_out("path")

The files are this runtime's SavedModel format (runtime/_src/saved_model);
TensorFlow cannot read them.
"""

import inspect

from runtime._src.core import nest
from runtime._src.core.tensor import TensorSpec
from runtime._src.function.function import Function, function
from runtime._src.function.module import Module
from runtime._src.function.variables import Variable
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.utils import io_utils
from runtime._src.saved_model import save as saved_model_save

__all__ = ["ExportArchive", "export_saved_model", "DEFAULT_ENDPOINT_NAME"]

DEFAULT_ENDPOINT_NAME = "serve"


class _Archive(Module):
    """The object written: endpoints and variable lists as attributes (the
    reloaded object lists every variable in `variables` and
    `trainable_variables`, as TF's)."""


class ExportArchive:
    """`keras.export.ExportArchive()`: endpoints and variables to write as a
    SavedModel for inference."""

    def __init__(self):
        self._endpoint_names = []
        self._endpoint_signatures = {}
        self._tracked = []
        self._archive = _Archive(name="export_archive")
        self._archive.tracked_trainable = []
        self._archive.tracked_non_trainable = []

    @property
    def variables(self):
        return self.trainable_variables + self.non_trainable_variables

    @property
    def trainable_variables(self):
        return list(self._archive.tracked_trainable)

    @property
    def non_trainable_variables(self):
        return list(self._archive.tracked_non_trainable)

    def track(self, resource):
        """Keep the variables of `resource` (a built layer or model, or a
        `tf.Module`) in the archive."""
        if isinstance(resource, Layer):
            if not resource.built:
                raise ValueError("The layer provided has not yet been built. It must be built "
                                 "before export.")
            self._add_variables(resource.trainable_variables, resource.non_trainable_variables)
        elif isinstance(resource, Module):
            variables = list(resource.variables)
            self._add_variables([v for v in variables if v.trainable],
                                [v for v in variables if not v.trainable])
        else:
            raise ValueError("Invalid resource type. Expected a Keras `Layer` or `Model` or a "
                             f"TensorFlow `Trackable` object. Received object {resource} of "
                             f"type '{type(resource)}'. ")
        self._tracked.append(resource)

    def _add_variables(self, trainable, non_trainable):
        known = {id(v) for v in self.variables}
        for kept, variables in ((self._archive.tracked_trainable, trainable),
                                (self._archive.tracked_non_trainable, non_trainable)):
            for v in variables:
                if id(v) not in known:
                    known.add(id(v))
                    kept.append(v)

    def add_endpoint(self, name, fn, input_signature=None, **kwargs):
        """Serve `fn` as the endpoint `name`: traced on `input_signature` (a
        structure of `keras.InputSpec`/`tf.TensorSpec`/KerasTensors), or a
        `tf.function` already called."""
        if name in self._endpoint_names:
            raise ValueError(f"Endpoint name '{name}' is already taken.")
        if "jax2tf_kwargs" in kwargs or "is_static" in kwargs:
            raise ValueError("'jax2tf_kwargs' and 'is_static' are only supported with the jax "
                             "backend. Current backend: tensorflow")
        if input_signature is None:
            if not isinstance(fn, Function):
                raise ValueError(_NEEDS_SIGNATURE)
            if not fn._list_all_concrete_functions():
                raise ValueError(f"The provided tf.function '{fn}' has never been called. To "
                                 "specify the expected shape and dtype of the function's "
                                 "arguments, you must either provide a function that has been "
                                 "called at least once, or alternatively pass an "
                                 "`input_signature` argument in `add_endpoint()`.")
            decorated = fn
        else:
            input_signature = nest.map_structure(_tensor_spec, input_signature)
            decorated = function(_positional(fn), input_signature=input_signature,
                                 autograph=False)
            self._endpoint_signatures[name] = input_signature
        setattr(self._archive, name, decorated)
        self._endpoint_names.append(name)
        return decorated

    def track_and_add_endpoint(self, name, resource, input_signature, **kwargs):
        """`track(resource)`, then `resource` itself as the endpoint `name`."""
        self.track(resource)
        return self.add_endpoint(name, resource.__call__, input_signature, **kwargs)

    def add_variable_collection(self, name, variables):
        """Keep `variables` (a list, tuple or set of variables) as the attribute
        `name` of the reloaded object."""
        if not isinstance(variables, (list, tuple, set)):
            raise ValueError("Expected `variables` to be a list/tuple/set. Received instead "
                             f"object of type '{type(variables)}'.")
        if not all(isinstance(v, Variable) for v in variables):
            raise ValueError("Expected all elements in `variables` to be `tf.Variable` "
                             "instances. Found instead the following types: "
                             f"{list(set(type(v) for v in variables))}")
        setattr(self._archive, name, list(variables))

    def write_out(self, filepath, options=None, verbose=True):
        """Write the SavedModel. The first endpoint is also the signature
        "serving_default" (unless one is named so), as TF-Serving needs."""
        if not self._endpoint_names:
            raise ValueError("No endpoints have been set yet. Call add_endpoint().")
        # The endpoints are the archive's functions (`reloaded.serve(x)` gives
        # what the function returns); the first is also the signature
        # "serving_default" (outputs in a dict). TF also lists every endpoint
        # in `signatures`; our format names a function once (tf_differences.md).
        signatures = {"serving_default": _concrete(getattr(self._archive, name))
                      for name in self._endpoint_names[:1]}
        if "serving_default" in self._endpoint_names:
            signatures = None
        saved_model_save(self._archive, str(filepath), signatures=signatures, options=options)
        if verbose:
            endpoints = "\n\n".join(_printed_signature(getattr(self._archive, name), name)
                                    for name in self._endpoint_names)
            io_utils.print_msg(f"Saved artifact at '{filepath}'. The following endpoints are "
                               f"available:\n\n{endpoints}")


_NEEDS_SIGNATURE = (
    "If the `fn` argument provided is not a `tf.function`, you must provide an "
    "`input_signature` argument to specify the shape and dtype of the function arguments. "
    "Example:\n\nexport_archive.add_endpoint(\n    name='call',\n    fn=model.call,\n"
    "    input_signature=[\n        keras.InputSpec(\n            shape=(None, 224, 224, 3),\n"
    "            dtype='float32',\n        )\n    ],\n)")


def export_saved_model(model, filepath, verbose=None, input_signature=None, **kwargs):
    """`model.export(filepath)`: the model's inference as the endpoint "serve"."""
    archive = ExportArchive()
    if input_signature is None:
        input_signature = input_signature_of(model)
    archive.track_and_add_endpoint(DEFAULT_ENDPOINT_NAME, model, input_signature, **kwargs)
    archive.write_out(filepath, verbose=True if verbose is None else verbose)


def input_signature_of(model):
    """The specs of a built model's inputs, batch dimension free, named
    "keras_tensor" as Keras's."""
    if not model.built:
        raise ValueError("The layer provided has not yet been built. It must be built before "
                         "export.")
    state = getattr(model, "_keras_state", None)
    specs = None if state is None else state.input_specs
    if specs is None:
        raise ValueError(f"Model '{model.name}' has no known input shape: pass "
                         "`input_signature=` to export it, or call it once first.")
    return [nest.map_structure(lambda s: TensorSpec(s.shape, s.dtype, name="keras_tensor"),
                               specs)]


def _tensor_spec(spec):
    if isinstance(spec, TensorSpec):
        return spec
    if isinstance(spec, InputSpec):
        return TensorSpec(spec.shape, spec.dtype or "float32")
    if hasattr(spec, "shape") and hasattr(spec, "dtype"):      # a KerasTensor or a tensor
        return TensorSpec(tuple(spec.shape), spec.dtype, name=getattr(spec, "name", None))
    raise TypeError(f"Unsupported x={spec} of the type ({type(spec)})")


def _positional(fn):
    """`fn` itself, or for one with `**kwargs` (a layer's `__call__`) a function
    of its positional arguments only: the signature describes every input."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return fn
    if not any(p.kind == p.VAR_KEYWORD for p in params):
        return fn

    def args(*args):
        return fn(*args)
    args.__name__ = getattr(fn, "__name__", "endpoint")
    return args


def _concrete(fn):
    """The endpoint's traced function (traced now from its input_signature)."""
    found = fn._list_all_concrete_functions()
    return found[0] if found else fn.get_concrete_function()


def _printed_signature(fn, name):
    lines = _concrete(fn).pretty_printed_signature(verbose=True).split("\n")
    return "\n".join([f"* Endpoint '{name}'"] + lines[1:])
