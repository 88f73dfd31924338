"""Record the config keys (in order) of every Keras 3.15 layer class built with
small arguments (`ARGS`), for tests/keras/layers/test_layer_config_keys.py.

    $BENCH_TF_PYTHON tools/record_keras_layer_config_keys.py
    # writes tests/data/keras_layer_config_keys.json

`config_keys(layers)` is shared with the test (`layers`: keras.layers or ours).
"""

import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "keras_layer_config_keys.json"

# the positional arguments each layer class needs (None: not built here)
ARGS = {
    "Dense": (2,), "Conv1D": (2, 3), "Conv2D": (2, 3), "Conv3D": (2, 3),
    "Conv1DTranspose": (2, 3), "Conv2DTranspose": (2, 3), "Conv3DTranspose": (2, 3),
    "SeparableConv1D": (2, 3), "SeparableConv2D": (2, 3), "DepthwiseConv1D": (3,),
    "DepthwiseConv2D": (3,), "Embedding": (5, 2), "ReversibleEmbedding": (5, 2), "LSTM": (2,),
    "GRU": (2,), "SimpleRNN": (2,), "LSTMCell": (2,), "GRUCell": (2,), "SimpleRNNCell": (2,),
    "ConvLSTM1D": (2, 3), "ConvLSTM2D": (2, 3), "ConvLSTM3D": (2, 3), "Dropout": (0.5,),
    "SpatialDropout1D": (0.5,), "SpatialDropout2D": (0.5,), "SpatialDropout3D": (0.5,),
    "GaussianNoise": (0.1,), "GaussianDropout": (0.1,), "AlphaDropout": (0.1,),
    "Reshape": ((2, 2),), "Permute": ((2, 1),), "RepeatVector": (2,), "Resizing": (4, 4),
    "CenterCrop": (4, 4), "RandomCrop": (4, 4), "RandomRotation": (0.1,), "RandomZoom": (0.1,),
    "RandomTranslation": (0.1, 0.1), "RandomContrast": (0.1,), "RandomBrightness": (0.1,),
    "RandomHeight": (0.1,), "RandomWidth": (0.1,), "Rescaling": (0.5,), "Hashing": (4,),
    "CategoryEncoding": (3,), "EinsumDense": ("ab,bc->ac", 3), "MultiHeadAttention": (2, 3),
    "GroupQueryAttention": (2, 4, 2), "Activation": ("relu",), "GroupNormalization": (2,),
    "MaxNumBoundingBoxes": (3,), "RandomShear": (0.1,), "RandomPosterization": (4,),
    "RandomColorDegeneration": (0.5,), "RandomSaturation": (0.5,), "RandomHue": (0.5,),
    "RandomSharpness": (0.5,), "HashedCrossing": (4,), "AdaptiveAveragePooling1D": (2,),
    "AdaptiveAveragePooling2D": (2,), "AdaptiveAveragePooling3D": (2,),
    "AdaptiveMaxPooling1D": (2,), "AdaptiveMaxPooling2D": (2,), "AdaptiveMaxPooling3D": (2,),
    "TimeDistributed": None, "Bidirectional": None, "RNN": None, "StackedRNNCells": None,
    "Pipeline": None, "SpectralNormalization": None, "Wrapper": None, "TFSMLayer": None,
    "Input": None, "InputLayer": None, "InputSpec": None, "Layer": None, "Lambda": None,
}


def config_keys(layers):
    """{class name: its config's keys} of each layer class that builds with its ARGS."""
    found = {}
    for name in sorted(dir(layers)):
        cls = getattr(layers, name)
        if not isinstance(cls, type) or not name[0].isupper() or ARGS.get(name, ()) is None:
            continue
        try:
            found[name] = list(cls(*ARGS.get(name, ())).get_config())
        except Exception:  # noqa: BLE001 - a class that needs other arguments: not listed
            continue
    return found


if __name__ == "__main__":
    import keras
    OUT.write_text(json.dumps(config_keys(keras.layers), indent=0, sort_keys=True) + "\n")
    print("wrote", OUT)
