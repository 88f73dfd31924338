"""`keras.layers.AugMix(value_range=(0, 255), num_chains=3, chain_depth=3,
factor=0.3, alpha=1.0, all_ops=True, interpolation="bilinear", seed=None,
data_format=None)`: in training, `num_chains` chains of up to `chain_depth`
augmentations each, mixed, as Keras 3.15's AugMix:

    w ~ Dirichlet(alpha, ..., alpha) over the chains, m ~ Beta(alpha, alpha)
    chain i: the images through `chain_depth` steps, each step one of the
        augmentations below or nothing, drawn uniformly for the whole batch
    out = clip(m * images + (1 - m) * sum_i w_i * chain_i, value_range)

The augmentations (at strength `factor`): RandomShear, RandomTranslation,
RandomRotation, RandomPosterization, Solarization, AutoContrast and
Equalization, and with `all_ops` also RandomBrightness,
RandomColorDegeneration, RandomContrast and RandomSharpness. Keras draws the
steps with Python's `random`; here they are drawn from the layer's seed.
"""

from runtime._src.core import dtypes
from runtime._src.keras.layers.preprocessing.image_preprocessing.image_augmentation import (
    AutoContrast, Equalization, RandomBrightness, RandomColorDegeneration, RandomContrast,
    RandomPosterization, RandomRotation, RandomSharpness, RandomShear, RandomTranslation,
    Solarization, _Augment, _factor, _value_range)
from runtime._src.function import higher_order
from runtime._src.keras.random import random as keras_random
from runtime._src.ops import array_ops, math_ops, reduction_ops

__all__ = ["AugMix"]


class AugMix(_Augment):
    """See the module docstring."""

    _config_keys = ("data_format", "value_range", "num_chains", "chain_depth", "factor",
                    "alpha", "all_ops", "interpolation", "seed")

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3,
                 alpha=1.0, all_ops=True, interpolation="bilinear", seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format, seed, **kwargs)
        self.value_range = _value_range(value_range)
        self.num_chains, self.chain_depth = num_chains, chain_depth
        self.factor = _factor(factor, (0, 1))
        self.alpha, self.all_ops, self.interpolation = alpha, all_ops, interpolation
        self._generator = keras_random.SeedGenerator(seed)
        self._ops = self._make_ops(self.factor, self.value_range, interpolation, seed)

    @staticmethod
    def _make_ops(f, vr, interpolation, seed):
        ops = [RandomShear(f, f, interpolation=interpolation, seed=seed),
               RandomTranslation(f, f, interpolation=interpolation, seed=seed),
               RandomRotation(f, interpolation=interpolation, seed=seed),
               RandomPosterization(max(1, int(8 * f[1])), value_range=vr, seed=seed),
               Solarization(f, f, value_range=vr, seed=seed),
               AutoContrast(value_range=vr), Equalization(value_range=vr)]
        return ops + [RandomBrightness(f, value_range=vr, seed=seed),
                      RandomColorDegeneration(f, value_range=vr, seed=seed),
                      RandomContrast(f, value_range=vr, seed=seed),
                      RandomSharpness(f, value_range=vr, seed=seed)]

    def build(self, input_shape):
        for op in self._active_ops():
            op.build(input_shape)
        self.built = True

    def _active_ops(self):
        return self._ops if self.all_ops else self._ops[:7]

    def _step(self, x):
        """One chain step: one of the augmentations, or none."""
        ops = self._active_ops()
        pick = math_ops.cast(math_ops.floor(keras_random.uniform(
            [], 0.0, float(len(ops) + 1), seed=self._generator)), dtypes.int32)
        branches = [(lambda op=op: op._augment(x)) for op in ops] + [lambda: x]
        return higher_order.switch_case(pick, branches)

    def _augment(self, x):
        gammas = keras_random.gamma([self.num_chains], self.alpha, seed=self._generator)
        weights = gammas / reduction_ops.reduce_sum(gammas, -1, keepdims=True)
        mix = keras_random.beta([], self.alpha, self.alpha, seed=self._generator)
        mixed = array_ops.zeros_like(x)
        for i in range(self.num_chains):
            chain = x
            for _ in range(self.chain_depth):
                chain = self._step(chain)
            mixed = mixed + chain * weights[i]
        out = mix * x + (1.0 - mix) * mixed
        return math_ops.clip_by_value(out, float(self.value_range[0]),
                                      float(self.value_range[1]))
