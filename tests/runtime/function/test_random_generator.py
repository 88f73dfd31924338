"""tf.random.Generator's values against TF 2.21's (TF's Philox numbers,
recorded by tools/record_random_generator.py), eagerly and in tf.function;
and tf.random.Algorithm, tf.random.experimental (index_shuffle,
stateless_shuffle, stateless_split, stateless_fold_in, the Generator names),
Generator.binomial: there the numbers are ours (numpy's), so those tests
check what TF guarantees: names, shapes, dtypes, permutations, determinism in
the seed, errors."""

import sys

import numpy as np
import pytest

import runtime as tf
from tests.paths import TOOLS

sys.path.insert(0, str(TOOLS))
import record_random_generator as table  # noqa: E402  (the shared case table)

TF_VALUES = {  # TF 2.21, printed by tools/record_random_generator.py
    'uniform': [0.7874951362609863, 0.3906511068344116, 0.29263055324554443, 0.9921692609786987, 0.9581042528152466, 0.5562331676483154],
    'uniform_bounds': [0.8350801467895508, -0.9614570140838623, -1.088805913925171],
    'uniform_f16': [0.16015625, 0.2138671875, 0.2294921875, 0.8505859375, 0.7900390625],
    'uniform_f64': [0.2999614354048876, 0.3410444613400274, 0.664834327169197],
    'normal': [0.4384227395057678, -0.5343984365463257, -0.07710261642932892, 1.5658046007156372, -0.10123450309038162],
    'normal_mean': [[-0.20795774459838867, 0.6466146111488342, 1.0844206809997559], [1.5807592868804932, 0.40791070461273193, 0.5773159265518188]],
    'normal_f64': [1.3047755394201908, -0.8400973242485322, 0.8239721517327651],
    'normal_f16': [-0.4365234375, -1.9638671875, -0.06451416015625, -1.056640625],
    'truncated': [0.4384227395057678, -0.5343984365463257, -0.07710261642932892, 1.5658046007156372, 1.6272374391555786, 0.041380707174539566, -0.10412996262311935, 0.7932631373405457, 1.6307176351547241],
    'truncated_f64': [0.8239721517327651, -0.37081625645504807, 0.19386710240056673, -1.4158235008933526, -0.16592619348329557],
    'full_int64': [6679402142117448868, 684265014234019051, 5892734326067077929],
    'full_int32': [-119223132, 1555169499, -1314556693],
    'int32_range': [4, 9, 3, 3, 3],
    'int64_range': [844, 80, 168, 27],
    'list_seed': [0.45901167392730713, 0.5334248542785645],
    'negative_seed': [0.11839067935943604, 0.5643022060394287],
    'make_seeds': [[6679402142117448868, 684265014234019051], [0, 0]],
    'split_then_draw': [[0.09531247615814209, 0.5083633661270142], [0.6289156675338745, 0.3812309503555298], [0.26456964015960693]],
    'skip_then_draw': [0.6941341161727905, 0.7800472974777222],
    'state_after': [1281, 0, 0],
}
# normal's float32 sin and cos are numpy's, TF's may differ in the last bit
ULP_CASES = {"normal", "normal_mean", "truncated", "normal_f16"}


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("name", sorted(TF_VALUES))
def test_generator_values_are_tfs(name, mode):
    seed, fn = table.cases(tf)[name]
    g = tf.random.Generator.from_seed(seed)
    if mode == "function" and name not in ("split_then_draw", "state_after"):
        fn = tf.function(fn, autograph=False)
    out = fn(g)
    got = [np.asarray(v).tolist() for v in out] if isinstance(out, list) else \
        np.asarray(out).tolist()
    if name in ULP_CASES:
        np.testing.assert_allclose(got, TF_VALUES[name], rtol=1e-6)
    else:
        assert got == TF_VALUES[name]


def test_generator_state_is_tfs():
    assert tf.random.create_rng_state(1).tolist() == [1, 0, 0]
    assert tf.random.create_rng_state(-1).tolist() == [-1, -1, -1]
    assert tf.random.create_rng_state([1, 2]).tolist() == [0, 1, 2]
    assert tf.random.create_rng_state(2 ** 64 + 5).tolist() == [5, 1, 0]
    g = tf.random.Generator.from_seed(1)
    g.normal([2])
    assert g.state.numpy().tolist() == [513, 0, 0]          # TF 2.21: +256 a value
    g.normal([1000])
    g.uniform([3], dtype=tf.float64)
    assert g.state.numpy().tolist() == [257281, 0, 0]
    children = g.split(2)
    assert [c.state.numpy()[:2].tolist() for c in children] == [[0, 0], [0, 0]]
    assert g.state.numpy().tolist() == [257793, 0, 0]


def test_algorithm_and_experimental_names_are_tfs():
    assert [a.name for a in tf.random.Algorithm] == ["PHILOX", "THREEFRY", "AUTO_SELECT"]
    assert tf.random.Algorithm.PHILOX.value == 1
    ex = tf.random.experimental
    assert sorted(n for n in vars(ex) if not n.startswith("_")) == [
        "Algorithm", "Generator", "create_rng_state", "get_global_generator", "index_shuffle",
        "set_global_generator", "stateless_fold_in", "stateless_shuffle", "stateless_split"]
    assert ex.Generator is tf.random.Generator and ex.stateless_split is tf.random.split
    assert ex.stateless_fold_in is tf.random.fold_in


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_index_shuffle_is_a_permutation_fixed_by_the_seed(mode):
    run = tf.function(tf.random.experimental.index_shuffle) if mode == "function" else \
        tf.random.experimental.index_shuffle
    for top in (0, 1, 2, 9, 100):
        out = run(tf.range(top + 1), tf.constant([1, 2]), top).numpy()
        assert sorted(out.tolist()) == list(range(top + 1))
    a = run(tf.range(50), tf.constant([1, 2]), 49).numpy()
    assert a.tolist() == run(tf.range(50), tf.constant([1, 2]), 49).numpy().tolist()
    assert a.tolist() != run(tf.range(50), tf.constant([1, 3]), 49).numpy().tolist()
    one = tf.random.experimental.index_shuffle(tf.constant(7, tf.int64), [1, 2], 49)
    assert one.dtype == tf.int64 and int(one) == a[7]
    # TF 2.21's docstring example
    assert run(tf.range(10), tf.constant([5, 8]), 9).numpy().tolist() == [
        3, 8, 0, 1, 2, 7, 6, 9, 4, 5]


def test_index_shuffle_errors_are_tfs():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Seed must be a vector of size \[3\]"):
        tf.random.experimental.index_shuffle(3, [1, 2, 3], 9)
    with pytest.raises(tf.errors.InvalidArgumentError, match="max_index must be >= index"):
        tf.random.experimental.index_shuffle(10, [1, 2], 9)
    with pytest.raises(TypeError, match="integer"):
        tf.random.experimental.index_shuffle(1.0, [1, 2], 9)


def test_stateless_shuffle_permutes_the_first_axis():
    x = tf.reshape(tf.range(12), [6, 2])
    out = tf.random.experimental.stateless_shuffle(x, seed=[1, 2]).numpy()
    assert sorted(out[:, 0].tolist()) == [0, 2, 4, 6, 8, 10]
    assert (out[:, 1] == out[:, 0] + 1).all()
    again = tf.function(tf.random.experimental.stateless_shuffle)(x, [1, 2]).numpy()
    assert out.tolist() == again.tolist()
    assert int(tf.random.experimental.stateless_shuffle(tf.constant(5), [1, 2])) == 5


def test_generator_binomial():
    g = tf.random.Generator.from_seed(1)
    draws = g.binomial([2, 3], counts=[10.0, 20.0, 30.0], probs=0.5)
    assert draws.dtype == tf.int32 and draws.shape == (2, 3)
    values = draws.numpy()
    assert (values >= 0).all() and (values <= [10, 20, 30]).all()
    state = g.state.numpy().tolist()
    assert g.binomial([4], counts=5.0, probs=1.0, dtype=tf.int64).numpy().tolist() == [5] * 4
    assert g.state.numpy().tolist() != state                 # the state advanced
    again = tf.random.Generator.from_seed(1).binomial([2, 3], counts=[10.0, 20.0, 30.0],
                                                      probs=0.5)
    assert again.numpy().tolist() == values.tolist()
    assert np.all(tf.random.Generator.from_seed(2).binomial([1000], 10.0, 0.0).numpy() == 0)


# TF 2.21's stateless values (tf.random.stateless_* with the same arguments)
STATELESS = [
    (lambda: tf.random.stateless_uniform([6], seed=[1, 2]),
     [0.8440604209899902, 0.19204533100128174, 0.9962232112884521, 0.16038739681243896,
      0.27199018001556396, 0.6493459939956665]),
    (lambda: tf.random.stateless_uniform([3], seed=[3, 4], minval=-2.0, maxval=5.0),
     [-0.2969878911972046, 4.884544372558594, -0.4570791721343994]),
    (lambda: tf.random.stateless_uniform([3], seed=[3, 4], minval=-7, maxval=50,
                                         dtype=tf.int32), [-3, 3, 35]),
    (lambda: tf.random.stateless_uniform([3], seed=[3, 4], minval=None, maxval=None,
                                         dtype=tf.int64),
     [-2882898006462487541, 4520458231610095266, -3428664559879909945]),
    (lambda: tf.random.stateless_normal([4], seed=[1, 2], mean=1.0, stddev=2.0),
     [2.0882201194763184, 1.4147605895996094, 1.1471285820007324, 1.0928690433502197]),
    (lambda: tf.random.stateless_normal([3], seed=[1, 2], dtype=tf.float64),
     [-0.1423118100189212, 0.7406072461585091, -1.469047669443883]),
    (lambda: tf.random.stateless_truncated_normal([6], seed=[5, 6]),
     [1.023984432220459, -0.5387885570526123, 1.2795534133911133, 0.9120098948478699,
      -1.5643606185913086, 1.6708266735076904]),
    (lambda: tf.random.split([1, 2], 3),
     [[1105988140, 1738052849], [-335576002, 370444179], [10670227, -246211131]]),
    (lambda: tf.random.fold_in([1, 2], 7), [1105988140, 7]),
    (lambda: tf.random.stateless_uniform([2], seed=tf.constant([1, 2], tf.int32)),
     [0.8440604209899902, 0.19204533100128174]),
]


@pytest.mark.parametrize("index", range(len(STATELESS)))
def test_stateless_values_are_tfs(index):
    make, want = STATELESS[index]
    got = make().numpy().tolist()
    if isinstance(np.ravel(want)[0], float):
        np.testing.assert_allclose(got, want, rtol=1e-6)      # normal: sin's last bit
    else:
        assert got == want
    assert tf.function(make)().numpy().tolist() == got


def test_stateless_gamma_binomial_poisson_and_parameterized_truncated_normal():
    # TF 2.21: shapes end with the parameters' shape; dtypes as below
    gamma = tf.random.stateless_gamma([2, 3], seed=[1, 2], alpha=[1.0, 2.0, 3.0])
    assert gamma.dtype == tf.float32 and gamma.shape == (2, 3) and (gamma.numpy() > 0).all()
    assert tf.random.stateless_gamma([3], [1, 2], 2.0, beta=[1.0, 2.0, 4.0],
                                     dtype=tf.float64).dtype == tf.float64
    counts = tf.random.stateless_binomial([3], seed=[1, 2], counts=[10.0, 20, 30], probs=0.5,
                                          output_dtype=tf.int64)
    assert counts.dtype == tf.int64 and (counts.numpy() <= [10, 20, 30]).all()
    poisson = tf.random.stateless_poisson([4000], seed=[1, 2], lam=3.0)
    assert poisson.dtype == tf.int32 and abs(poisson.numpy().mean() - 3.0) < 0.15
    assert tf.random.stateless_poisson([3], [1, 2], [1.0, 2.0, 3.0]).numpy().tolist() == \
        tf.random.stateless_poisson([3], [1, 2], [1.0, 2.0, 3.0]).numpy().tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
        tf.random.stateless_poisson([3], seed=[1, 2], lam=[1.0, 2.0])
    tail = tf.random.stateless_parameterized_truncated_normal([20000], seed=[1, 2], minvals=3.0,
                                                              maxvals=40.0).numpy()
    assert tail.min() >= 3.0 and abs(tail.mean() - 3.2831) < 0.02    # E[z | z > 3]
    bounded = tf.random.stateless_parameterized_truncated_normal(
        [2, 3], seed=[1, 2], means=[0.0, 1, 2], stddevs=1.0, minvals=-1.0, maxvals=[1.0, 2, 3])
    assert bounded.dtype == tf.float32 and bounded.shape == (2, 3)
    assert ((bounded.numpy() >= -1) & (bounded.numpy() <= [1, 2, 3])).all()


def test_generator_checkpoints_its_state(tmp_path):
    # TensorFlow 2.21 (guide random_numbers): the key, and the draw after a
    # restore repeats the draw after the save.
    g = tf.random.Generator.from_seed(1)
    cp = tf.train.Checkpoint(generator=g)
    path = cp.write(str(tmp_path / "ckpt"))
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
        ("generator/_state_var/.ATTRIBUTES/VARIABLE_VALUE", [3])]
    first = g.normal([]).numpy()
    cp.restore(path)
    assert g.normal([]).numpy() == first


def test_normal_float32_is_bitwise_tfs_at_the_guides_draws():
    # TensorFlow 2.21 (guide random_numbers): Generator.from_seed(1).normal([2, 3])
    # and stateless_normal([2, 3], seed=[1, 2]), to the last bit.
    got = tf.random.Generator.from_seed(1).normal([2, 3]).numpy()
    want = np.array([[0.43842274, -0.53439844, -0.07710262],
                     [1.5658046, -0.1012345, -0.2744976]], np.float32)
    assert got.tobytes() == want.tobytes()
    got = tf.random.stateless_normal([2, 3], seed=[1, 2]).numpy()
    want = np.array([[0.5441101, 0.20738031, 0.07356432],
                     [0.04643455, -1.3015898, -0.9538565]], np.float32)
    assert got.tobytes() == want.tobytes()


def test_stateless_gamma_and_binomial_of_a_scalar_shape():
    # TF 2.21: shape [] draws a scalar (float32 gamma, int32 binomial)
    gamma = tf.random.stateless_gamma([], [1, 2], 2.0)
    binomial = tf.random.stateless_binomial([], [1, 2], 5.0, 0.5)
    assert gamma.shape == () and gamma.dtype == tf.float32 and float(gamma) > 0
    assert binomial.shape == () and binomial.dtype == tf.int32 and 0 <= int(binomial) <= 5
