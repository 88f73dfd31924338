"""tf.nn.embedding_lookup_sparse and safe_embedding_lookup_sparse against
TF 2.21's values (tools/record_embedding_sparse.py's `cases`, written once for
both libraries; TF's results in tests/data/embedding_sparse_tf221.json): each
combiner with and without weights, invalid ids and non-positive weights,
default_id, 3-D ids, max_norm, tf.function and a gradient (to 1e-5)."""

import json
import pathlib
import sys

import numpy as np
import pytest

import runtime as tf

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import record_embedding_sparse as table  # noqa: E402  (the shared case table)

WANT = json.loads(table.OUT.read_text())


@pytest.fixture(scope="module")
def got():
    return table.cases(tf)


@pytest.mark.parametrize("index", range(len(WANT)))
def test_embedding_lookup_sparse_is_tfs(got, index):
    label, want = WANT[index]
    assert got[index][0] == label
    np.testing.assert_allclose(np.array(got[index][1]), np.array(want), rtol=1e-5, atol=1e-5,
                               err_msg=label)


def test_bad_combiner_is_refused():
    ids = tf.SparseTensor([[0, 0]], tf.constant([1], tf.int64), [1, 1])
    with pytest.raises(ValueError, match="combiner must be one of"):
        tf.nn.embedding_lookup_sparse(tf.ones([2, 2]), ids, None, combiner="max")
