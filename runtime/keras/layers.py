"""`tf.keras.layers`: `Layer`, `InputSpec` and the layers (runtime/_src/keras/)."""

from runtime._src.keras.layers.layer import InputSpec, Layer
from runtime._src.keras.layers.convolutional.conv2d import Conv2D
from runtime._src.keras.layers.pooling.pooling import MaxPooling2D
from runtime._src.keras.layers.core.dense import Dense
from runtime._src.keras.layers.activations.activation_layers import Activation, ReLU, Softmax
from runtime._src.keras.layers.regularization.dropout import Dropout
from runtime._src.keras.layers.reshaping.reshaping import Flatten, Reshape
from runtime._src.keras.layers.core.lambda_layer import Lambda
from runtime._src.keras.layers.core.embedding import Embedding
from runtime._src.keras.layers.core.input_layer import Input, InputLayer
from runtime._src.keras.layers.merging.merging import (Add, Average, Concatenate, Maximum, Minimum,
                                                       Multiply, Subtract, add, average,
                                                       concatenate, maximum, minimum, multiply,
                                                       subtract)
from runtime._src.keras.layers.normalization.normalization import (BatchNormalization,
                                                                   LayerNormalization)
from runtime._src.keras.layers.activations.activation_layers import ELU, LeakyReLU, PReLU
from runtime._src.keras.layers.attention.attention import Attention
from runtime._src.keras.layers.attention.multi_head_attention import MultiHeadAttention
from runtime._src.keras.layers.convolutional.separable_conv import SeparableConv2D
from runtime._src.keras.layers.convolutional.depthwise_conv import DepthwiseConv2D
from runtime._src.keras.layers.convolutional.conv2d_transpose import Conv2DTranspose
from runtime._src.keras.layers.convolutional.conv1d import Conv1D
from runtime._src.keras.layers.regularization.noise import (GaussianNoise, SpatialDropout1D,
                                                            SpatialDropout2D)
from runtime._src.keras.layers.pooling.pooling import (AveragePooling1D, AveragePooling2D,
                                                       GlobalAveragePooling1D,
                                                       GlobalAveragePooling2D, GlobalMaxPooling1D,
                                                       GlobalMaxPooling2D, MaxPooling1D)
from runtime._src.keras.layers.preprocessing.index_lookup import IntegerLookup, StringLookup
from runtime._src.keras.layers.preprocessing.normalization import Normalization
from runtime._src.keras.layers.preprocessing.rescaling import Rescaling
from runtime._src.keras.layers.preprocessing.category_encoding import CategoryEncoding
from runtime._src.keras.layers.rnn.recurrent import GRU, LSTM, SimpleRNN
from runtime._src.keras.layers.rnn.recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell
from runtime._src.keras.layers.reshaping.reshaping import (Cropping2D, Permute, RepeatVector,
                                                           UpSampling2D, ZeroPadding2D)
from runtime._src.keras.layers.rnn.rnn_wrappers import Bidirectional, TimeDistributed
from runtime._src.keras.saving.serialization_lib import deserialize_layer as deserialize
from runtime._src.keras.layers.preprocessing.bucketing import Discretization, Hashing
from runtime._src.keras.layers.convolutional.conv1d_transpose import Conv1DTranspose
from runtime._src.keras.layers.merging.dot import Dot
from runtime._src.keras.layers.normalization.group_normalization import GroupNormalization
from runtime._src.keras.layers.preprocessing.image_preprocessing.image_layers import (CenterCrop,
                                                                                      RandomFlip,
                                                                                      Resizing)
from runtime._src.keras.layers.core.identity import Identity
from runtime._src.keras.layers.normalization.unit_normalization import UnitNormalization
from runtime._src.keras.layers.regularization.activity_regularization import ActivityRegularization
from runtime._src.keras.layers.core.masking import Masking
from runtime._src.keras.saving.serialization_lib import serialize_layer as serialize

from runtime._src.keras.layers.convolutional.conv3d import Conv3D, Conv3DTranspose
from runtime._src.keras.layers.regularization.dropout import (AlphaDropout, GaussianDropout,
                                                              SpatialDropout3D)
from runtime._src.keras.layers.pooling.pooling3d import (AdaptiveAveragePooling1D,
                                                         AdaptiveAveragePooling2D,
                                                         AdaptiveAveragePooling3D,
                                                         AdaptiveMaxPooling1D, AdaptiveMaxPooling2D,
                                                         AdaptiveMaxPooling3D, AveragePooling3D,
                                                         GlobalAveragePooling3D, GlobalMaxPooling3D,
                                                         MaxPooling3D)
from runtime._src.keras.layers.reshaping.reshaping_nd import (Cropping1D, Cropping3D, UpSampling1D,
                                                              UpSampling3D, ZeroPadding1D,
                                                              ZeroPadding3D)

from runtime._src.keras.layers.rnn.rnn import RNN, StackedRNNCells
from runtime._src.keras.layers.preprocessing.text_vectorization import TextVectorization
from runtime._src.keras.layers.preprocessing.image_preprocessing.image_augmentation import (AutoContrast,
                                                                                            CutMix,
                                                                                            Equalization,
                                                                                            MaxNumBoundingBoxes,
                                                                                            MixUp,
                                                                                            Pipeline,
                                                                                            RandAugment,
                                                                                            RandomBrightness,
                                                                                            RandomContrast,
                                                                                            RandomCrop,
                                                                                            RandomGrayscale,
                                                                                            RandomColorDegeneration,
                                                                                            RandomColorJitter,
                                                                                            RandomErasing,
                                                                                            RandomInvert,
                                                                                            RandomPerspective,
                                                                                            RandomGaussianBlur,
                                                                                            RandomHue,
                                                                                            RandomPosterization,
                                                                                            RandomSaturation,
                                                                                            RandomSharpness,
                                                                                            RandomRotation,
                                                                                            RandomShear,
                                                                                            RandomTranslation,
                                                                                            RandomZoom,
                                                                                            Solarization)
from runtime._src.keras.layers.merging.dot import dot
from runtime._src.keras.layers.convolutional.separable_conv import SeparableConv1D
from runtime._src.keras.layers.convolutional.depthwise_conv import DepthwiseConv1D
from runtime._src.keras.layers.normalization.spectral_normalization import SpectralNormalization
from runtime._src.keras.layers.core.wrapper import Wrapper
from runtime._src.keras.layers.normalization.rms_normalization import RMSNormalization
from runtime._src.keras.layers.attention.additive_attention import AdditiveAttention
from runtime._src.keras.layers.core.einsum_dense import EinsumDense
from runtime._src.keras.layers.rnn.conv_lstm import ConvLSTM1D, ConvLSTM2D, ConvLSTM3D
from runtime._src.keras.layers.core.reversible_embedding import ReversibleEmbedding
from runtime._src.keras.layers.attention.grouped_query_attention import (GroupedQueryAttention as GroupQueryAttention)
__all__ = ["Layer", "InputSpec", "Activation", "Add", "Average", "BatchNormalization",
           "Concatenate", "Conv2D", "Dense", "Dropout", "Embedding", "Flatten", "Input",
           "InputLayer", "Lambda", "LayerNormalization", "MaxPooling2D", "Maximum", "Minimum",
           "Multiply", "ReLU", "Reshape", "Softmax", "Subtract", "serialize", "deserialize"]
__all__ += ["Attention", "MultiHeadAttention"]
__all__ += ["add", "average", "concatenate", "maximum", "minimum", "multiply", "subtract"]
__all__ += ["CategoryEncoding", "IntegerLookup", "Normalization", "Rescaling", "StringLookup"]
__all__ += ["AveragePooling1D", "AveragePooling2D", "Conv1D", "Conv2DTranspose", "Cropping2D",
            "DepthwiseConv2D", "ELU", "GaussianNoise", "GlobalAveragePooling1D",
            "GlobalAveragePooling2D", "GlobalMaxPooling1D", "GlobalMaxPooling2D", "LeakyReLU",
            "MaxPooling1D", "PReLU", "Permute", "RepeatVector", "SeparableConv2D",
            "SpatialDropout1D", "SpatialDropout2D", "UpSampling2D", "ZeroPadding2D"]
__all__ += ["Bidirectional", "TimeDistributed", "GRU", "GRUCell", "LSTM", "LSTMCell",
            "SimpleRNN", "SimpleRNNCell"]
__all__ += ["ActivityRegularization", "Dot", "Identity", "Masking", "UnitNormalization"]
__all__ += ["GroupNormalization"]
__all__ += ["CenterCrop", "RandomFlip", "Resizing"]
__all__ += ["Discretization", "Hashing"]
__all__ += ["Conv1DTranspose"]
# Keras's other names for the same classes
Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose, Convolution2DTranspose = Conv1DTranspose, Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D
MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D

__all__ += ["Conv3D", "Conv3DTranspose", "AlphaDropout", "GaussianDropout", "SpatialDropout3D",
            "AdaptiveAveragePooling1D", "AdaptiveAveragePooling2D", "AdaptiveAveragePooling3D",
            "AdaptiveMaxPooling1D", "AdaptiveMaxPooling2D", "AdaptiveMaxPooling3D",
            "AveragePooling3D", "GlobalAveragePooling3D", "GlobalMaxPooling3D", "MaxPooling3D",
            "Cropping1D", "Cropping3D", "UpSampling1D", "UpSampling3D", "ZeroPadding1D",
            "ZeroPadding3D", "Convolution1D", "Convolution2D", "Convolution3D",
            "Convolution1DTranspose", "Convolution2DTranspose", "Convolution3DTranspose",
            "SeparableConvolution2D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D",
            "AvgPool2D", "AvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
            "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D", "RNN", "StackedRNNCells",
            "TextVectorization", "AutoContrast", "Pipeline", "RandomBrightness",
            "RandomContrast", "RandomCrop", "RandomGrayscale", "RandomInvert",
            "RandomPosterization", "RandomRotation", "RandomTranslation", "RandomZoom",
            "Solarization", "AdditiveAttention", "DepthwiseConv1D", "RMSNormalization",
            "SeparableConv1D", "SeparableConvolution1D", "SpectralNormalization", "Wrapper",
            "dot", "EinsumDense", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D",
            "RandomSaturation", "RandomColorDegeneration", "ReversibleEmbedding", "RandomSharpness",
            "RandomHue", "MixUp", "RandomGaussianBlur",
            "RandomShear", "Equalization", "RandomColorJitter", "CutMix",
            "RandomErasing", "GroupQueryAttention", "RandomPerspective",
            "MaxNumBoundingBoxes", "RandAugment"]

from runtime._src.keras.layers.preprocessing.hashed_crossing import HashedCrossing  # noqa: E402
__all__ += ["HashedCrossing"]
from runtime._src.keras.layers.preprocessing.stft_spectrogram import STFTSpectrogram  # noqa: E402
from runtime._src.keras.layers.preprocessing.mel_spectrogram import MelSpectrogram  # noqa: E402
__all__ += ["STFTSpectrogram", "MelSpectrogram"]
from runtime._src.keras.layers.preprocessing.image_preprocessing.clahe import (  # noqa: E402
    ContrastLimitedAdaptiveHistogramEqualization)
__all__ += ["ContrastLimitedAdaptiveHistogramEqualization"]
from runtime._src.keras.layers.preprocessing.image_preprocessing.random_elastic_transform import (  # noqa: E402,E501
    RandomElasticTransform)
__all__ += ["RandomElasticTransform"]
from runtime._src.keras.layers.preprocessing.image_preprocessing.aug_mix import AugMix  # noqa: E402
__all__ += ["AugMix"]
from runtime._src.keras.export.tfsm_layer import TFSMLayer  # noqa: E402
__all__ += ["TFSMLayer"]

# tf.keras's (TF 2.21) Keras 2 layers, absent from plain keras.layers
from runtime._src.keras.layers.preprocessing.legacy_layers import (  # noqa: E402
    RandomHeight, RandomWidth, ThresholdedReLU)

__all__ += ["RandomHeight", "RandomWidth", "ThresholdedReLU"]
