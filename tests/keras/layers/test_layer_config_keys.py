"""Every layer class's config has Keras 3.15's keys (tests/data/
keras_layer_config_keys.json, recorded by tools/record_keras_layer_config_keys.py
from each class built with small arguments), so a model's config loads in
Keras and Keras's loads here: a key Keras does not know fails its loading
(`kernel_initializer` of a SeparableConv2D, `trainable` of a SpatialDropout
did), and a missing one drops a setting (Conv1D's regularizers did)."""

import json

import runtime as tf
from tools.record_keras_layer_config_keys import OUT, config_keys

RECORD = json.loads(OUT.read_text())
# keys where we differ on purpose: Keras writes `seed` for SimpleRNN's cell only,
# and MaxNumBoundingBoxes here also keeps its bounding_box_format (Keras accepts both)
EXTRA = {"SimpleRNN": {"seed"}, "MaxNumBoundingBoxes": {"bounding_box_format"}}
# the same keys in another order (dicts compare equal; JSON shows the order)
ORDER_ONLY = {"ContrastLimitedAdaptiveHistogramEqualization", "ELU", "Equalization",
              "MaxPool1D", "MaxPooling1D", "MixUp", "SpatialDropout1D", "SpatialDropout2D",
              "SpatialDropout3D"}


def test_every_layer_config_has_keras_keys():
    ours = config_keys(tf.keras.layers)
    assert sorted(set(RECORD) - set(ours)) == []
    wrong = {name: (sorted(set(keys) - set(ours[name])),
                    sorted(set(ours[name]) - set(keys) - EXTRA.get(name, set())))
             for name, keys in RECORD.items()
             if set(keys) != set(ours[name]) - EXTRA.get(name, set())}
    assert wrong == {}


def test_the_keys_come_in_keras_order():
    ours = config_keys(tf.keras.layers)
    unordered = sorted(name for name, keys in RECORD.items() if name not in ORDER_ONLY
                       and keys != [k for k in ours[name] if k not in EXTRA.get(name, ())])
    assert unordered == []
