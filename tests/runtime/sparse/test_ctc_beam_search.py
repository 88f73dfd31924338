"""tf.nn.ctc_beam_search_decoder against TensorFlow 2.21's values.

The table is tools/record_ctc_beam_search.py's `cases`, TF's results recorded
in tests/data/ctc_beam_search_tf221.npz: peaked and random logits, sequence
lengths below max_time and 0, beam widths 1 to 100, top_paths up to 5,
repeated labels (TF 2 does not merge them). The paths are TF's exactly, the
log probabilities to float32's last bits; eagerly and inside tf.function.
"""

import numpy as np
import pytest

import runtime as tf
from tests.recorded_table import load, results_fixture

table, DATA, NAMES = load("record_ctc_beam_search")
results = results_fixture(table)


@pytest.mark.parametrize("name", NAMES)
def test_beam_search_paths_and_log_probabilities_are_tfs(results, name):
    got = results[name]
    keys = sorted((k for k in DATA.files if k.split("/")[0] == name),
                  key=lambda k: int(k.split("/")[1]))
    assert len(keys) == len(got)
    for key in keys[:-1]:
        np.testing.assert_array_equal(got[int(key.split("/")[1])], DATA[key], err_msg=key)
    np.testing.assert_allclose(got[-1], DATA[keys[-1]], rtol=1e-6, atol=1e-6)
    assert got[-1].dtype == np.float32


def test_bad_widths_and_too_few_leaves_raise_tfs_errors():
    x = tf.zeros([3, 1, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="more paths than the beam width"):
        tf.nn.ctc_beam_search_decoder(x, [3], beam_width=2, top_paths=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'beam_width' of 0 must be at"):
        tf.nn.ctc_beam_search_decoder(x, [3], beam_width=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Less leaves in the beam search"):
        tf.nn.ctc_beam_search_decoder(x, [0], beam_width=4, top_paths=2)
