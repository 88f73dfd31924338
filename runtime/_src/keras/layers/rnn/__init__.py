"""Recurrent layers: cells, the time loop, `RNN`, `SimpleRNN`/`LSTM`/`GRU`, `ConvLSTM`, `Bidirectional`, `TimeDistributed`."""
