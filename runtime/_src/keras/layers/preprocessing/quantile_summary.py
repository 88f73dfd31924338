"""The approximate quantiles `Discretization.adapt` learns its boundaries
from, as Keras 3 computes them (numpy, float32).

A summary is a (2, n) array: sorted values and the weight (count) each
stands for. A batch's summary keeps every step-th sorted value (step =
max(size * epsilon, 1)), each weighing `step`. Two summaries merge by
sorting their columns together and compressing: the values at cumulative
weight fractions epsilon, 2 epsilon, ..., 1 (interpolated), each weighing
the weight between it and the previous one. A summary of fewer than
1 / epsilon columns is left as it is. The boundaries of `num_bins` bins are
the summary compressed at 1 / num_bins, less its last value.
"""

import numpy as np

from runtime._src.core.tensor import Tensor

__all__ = ["empty", "summarize", "merge", "boundaries", "batches"]


def empty():
    return np.zeros((2, 0), np.float32)


def summarize(values, epsilon):
    """The summary of one batch of values."""
    values = np.sort(np.asarray(values, np.float32).reshape(-1))
    step = max(values.size * epsilon, 1)
    kept = values[int(step - 1)::int(step)]
    return np.stack([kept, np.full_like(kept, step)])


def _compress(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    totals = summary[1].cumsum()
    at = totals / totals[-1]
    values = np.interp(fractions, at, summary[0])
    totals = np.interp(fractions, at, totals)
    weights = np.diff(np.concatenate([[0.0], totals]))
    return np.stack([values, weights]).astype(np.float32)


def merge(first, second, epsilon):
    """One summary of the data of two."""
    joined = np.concatenate([first, second], axis=1)
    return _compress(joined[:, np.argsort(joined[0], kind="stable")], epsilon)


def boundaries(summary, num_bins):
    """The num_bins - 1 inner boundaries of the summarized data."""
    return _compress(summary, 1.0 / num_bins)[0, :-1]


def batches(data):
    """The batches of `data`: an array or tensor is one batch; a dataset or an
    iterable yields them."""
    if isinstance(data, Tensor):
        yield data.numpy()
    elif isinstance(data, np.ndarray) or not hasattr(data, "__iter__"):
        yield np.asarray(data)
    elif hasattr(data, "as_numpy_iterator"):
        yield from data.as_numpy_iterator()
    else:
        for batch in data:
            yield batch.numpy() if isinstance(batch, Tensor) else np.asarray(batch)
