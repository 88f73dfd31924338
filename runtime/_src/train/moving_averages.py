"""`tf.train.ExponentialMovingAverage`: shadow copies of variables that
follow them with exponential decay.

    ema = tf.train.ExponentialMovingAverage(decay=0.9)
    ema.apply([w])          # creates w's average (w's current value), then updates it
    ema.average(w)          # the shadow Variable, named 'w/ExponentialMovingAverage'

Each `apply` moves every average toward its variable:
`average -= (average - value) * (1 - decay)`, where with `num_updates` the
decay is `min(decay, (1 + num_updates) / (10 + num_updates))`. As TF's, an
average of a Variable starts at the Variable's value (so `zero_debias`, which
TF applies only to averages of plain tensors, changes nothing for them), and
only floating-point variables can be averaged. Inside a `tf.function` the
averages are created on the first trace and updated on every call.
"""

from runtime._src.core import dtypes
from runtime._src.core.context import init_scope
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.function.variables import Variable
from runtime._src.ops import math_ops

__all__ = ["ExponentialMovingAverage"]


class ExponentialMovingAverage:
    """`tf.train.ExponentialMovingAverage(decay, num_updates=None,
    zero_debias=False, name="ExponentialMovingAverage")`."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def _current_decay(self):
        decay = convert_to_tensor(self._decay, dtypes.float32)
        if self._num_updates is None:
            return decay
        steps = math_ops.cast(self._num_updates, dtypes.float32)
        return math_ops.minimum(decay, (1.0 + steps) / (10.0 + steps))

    def apply(self, var_list=None):
        """Create the averages not made yet (each starting at its variable's
        value), then move every average of `var_list` toward its variable."""
        var_list = list(var_list or [])
        for var in var_list:
            if var.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) in self._averages:
                continue
            if not isinstance(var, Variable):
                raise TypeError(f"ExponentialMovingAverage.apply: expected Variables, got "
                                f"{type(var).__name__} (averages of tensors are not "
                                "supported)")
            with init_scope():
                shadow = Variable(var.read_value(), trainable=False,
                                  name=self.average_name(var))
            self._averages[id(var)] = (var, shadow)
        decay = self._current_decay()
        for var in var_list:
            shadow = self._averages[id(var)][1]
            step = math_ops.multiply(math_ops.subtract(shadow.read_value(), var.read_value()),
                                     math_ops.cast(1.0 - decay, shadow.dtype))
            shadow.assign_sub(step)

    def average(self, var):
        """The shadow Variable of `var` (None if `apply` never saw it)."""
        found = self._averages.get(id(var))
        return None if found is None else found[1]

    def average_name(self, var):
        """'<var name>/<ema name>', the name of `var`'s average."""
        return f"{var.name.split(':')[0]}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None):
        """{average name: variable}: restore each average into its variable."""
        out = {}
        for var, _ in self._averages.values():
            out[self.average_name(var)] = var
        return out
