"""`keras.layers.Conv1D(filters, kernel_size, strides=1, padding="valid")`: kernel
(k, in, filters) on (batch, steps, in); padding "valid", "same" or "causal"
(zeros before the first step only)."""

from runtime._src.keras.layers.core.lora import LoraMixin
from runtime._src.ops import conv_ops, shape_ops
from runtime._src.keras.layers.convolutional.base_conv import (BaseConv, CONV_KEYS, _positive, checked_groups)

__all__ = ["Conv1D"]


class Conv1D(LoraMixin, BaseConv):
    """`keras.layers.Conv1D(filters, kernel_size, strides=1, padding="valid",
    dilation_rate=1, groups=1, activation=None, use_bias=True)`; padding "valid",
    "same" or "causal" (zeros before the first step only)."""

    _rank = 1
    _keras_keys = CONV_KEYS

    def __init__(self, filters, kernel_size, padding="valid", groups=1, **kwargs):
        self.filters = _positive(filters, "filters")
        self.groups = checked_groups(groups, self.filters)
        causal = str(padding).lower() == "causal"
        self._init_lora(kwargs)
        super().__init__(kernel_size, padding="valid" if causal else padding, **kwargs)
        if causal:
            self.padding = "causal"


    def call(self, inputs):
        fmt = "NWC" if self.data_format == "channels_last" else "NCW"
        padding = self.padding
        if padding == "causal":     # left zeros, so step t sees steps <= t only
            left = self.dilation_rate[0] * (self.kernel_size[0] - 1)
            pads = [[0, 0], [left, 0], [0, 0]] if fmt == "NWC" else [[0, 0], [0, 0], [left, 0]]
            inputs, padding = shape_ops.pad(inputs, pads), "valid"
        out = conv_ops.conv1d(inputs, self.kernel, stride=self.strides[0],
                              padding=padding.upper(), data_format=fmt,
                              dilations=self.dilation_rate[0])
        return self._finish(out)
