"""`tf.keras`: a Keras-style subset (layers, `Model`, `Sequential`, losses,
metrics, optimizers, `compile` / `fit` / `evaluate` / `predict`), defined in
runtime/_src/keras/.

    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    model.fit(x, y, epochs=5)
"""

from runtime._src.core.devices import device
from runtime._src.keras.backend.config import KERAS_VERSION as __version__, version
from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.dtype_policies.dtype_policy import DTypePolicy, FloatDTypePolicy
from runtime._src.keras.models.function import Function
from runtime._src.keras.initializers.initializers import Initializer
from runtime._src.keras.layers.core.input_layer import Input
from runtime._src.keras.backend.keras_tensor import KerasTensor
from runtime._src.keras.losses.loss import Loss
from runtime._src.keras.metrics.metrics import Metric
from runtime._src.keras.models.model import Model, Sequential
from runtime._src.keras.utils.naming import name_scope
from runtime._src.keras.ops.keras_operation import Operation, RematScope, remat
from runtime._src.keras.optimizers.optimizer import Optimizer
from runtime._src.keras.quantizers.quantizers import Quantizer
from runtime._src.keras.regularizers.regularizers import Regularizer
from runtime._src.keras.backend.stateless_scope import StatelessScope, SymbolicScope
from runtime._src.keras.backend.variables import KerasVariable as Variable
from runtime.keras import (activations, backend, callbacks, config, constraints,
                           distillation, dtype_policies, export, initializers, layers, legacy, losses, metrics,
                           mixed_precision, models, ops, optimizers, preprocessing, quantizers,
                           random, regularizers, saving, tree, utils, visualization)

__all__ = ["DTypePolicy", "FloatDTypePolicy", "Function", "Initializer", "Input", "InputSpec",
           "KerasTensor", "Layer", "Loss", "Metric", "Model", "Operation", "Optimizer", "Quantizer",
           "Regularizer", "RematScope", "StatelessScope", "SymbolicScope", "remat",
           "Sequential", "Variable", "activations", "backend", "callbacks", "config", "constraints", "distillation", "dtype_policies",
           "device", "export", "initializers", "layers", "legacy", "losses", "metrics", "mixed_precision", "models", "name_scope",
           "ops", "optimizers", "preprocessing", "quantizers", "random", "regularizers", "saving", "tree",
           "utils", "version", "visualization"]
