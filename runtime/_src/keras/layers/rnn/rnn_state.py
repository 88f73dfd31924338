"""`stateful=True` for the recurrent layers (RNN, SimpleRNN, LSTM, GRU, ConvLSTM*).

A stateful layer keeps its last states in non-trainable Variables
(`layer.states`, one per state tensor, named `rnn_state`, left out of
`weights` as in Keras 3): a call without `initial_state` starts from them, and
every call writes its final states back. `reset_state()` (or
`reset_states()`) sets them to zeros. The batch size must be static when the
layer is built (`Input(batch_shape=...)`, or an eager call), and later calls
must keep it.
"""

from runtime._src.core import nest
from runtime._src.core.context import init_scope
from runtime._src.keras.backend.variables import KerasVariable
from runtime._src.ops import array_ops

__all__ = ["StatefulRNN"]


class StatefulRNN:
    """The state Variables of a recurrent layer; mixed into RNN and RNNBase.
    The layer provides `stateful`, `name`, `variable_dtype` and
    `_zero_states(batch_size)` (its initial states, nested as the cell's)."""

    _rnn_states = None
    _expected_batch_size = None

    @property
    def states(self):
        """The state Variables (None until a stateful layer is built)."""
        return self._rnn_states

    def _build_states(self, sequences_shape):
        """Create the state Variables (or zero them on a second build)."""
        if not self.stateful:
            return
        if self._rnn_states is not None:
            self.reset_state()
            return
        batch_size = sequences_shape[0]
        if batch_size is None:
            raise ValueError("When using `stateful=True` in a RNN, the batch size must be "
                             "static. Found dynamic batch size: "
                             f"sequence.shape={tuple(sequences_shape)}")
        with init_scope():
            zeros = self._zero_states(int(batch_size))
            self._rnn_states = nest.map_structure(
                lambda z: KerasVariable(z, trainable=False, dtype=self.variable_dtype,
                                        name="rnn_state", path=f"{self.name}/rnn_state"),
                zeros)
        self._expected_batch_size = int(batch_size)

    def reset_state(self):
        """Set the state Variables to zeros."""
        if self._rnn_states is not None:
            for v in nest.flatten(self._rnn_states):
                v.assign(array_ops.zeros_like(v.read_value()))

    def reset_states(self):
        """The same as `reset_state()` (Keras's compatibility alias)."""
        self.reset_state()

    def _stored_states(self, sequences):
        """The states a stateful call starts from, after checking its batch size."""
        batch = sequences.shape.dims[0] if sequences.shape.rank is not None else None
        if self._expected_batch_size is not None and batch is not None \
                and batch != self._expected_batch_size:
            raise ValueError("If an RNN is stateful, the batch size of the input sequences "
                             "must be the same as the batch size of the initial state. \n"
                             f"- Expected batch size: {self._expected_batch_size}\n"
                             f"- Received batch size: {batch}")
        return nest.map_structure(lambda v: v.read_value(), self._rnn_states)

    def _keep_states(self, states):
        """Write a stateful call's final states into the Variables."""
        if self.stateful and self._rnn_states is not None:
            for variable, value in zip(nest.flatten(self._rnn_states), nest.flatten(states)):
                variable.assign(value)
