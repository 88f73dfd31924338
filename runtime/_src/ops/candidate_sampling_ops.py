"""Candidate samplers: `tf.random.uniform_candidate_sampler`,
`log_uniform_candidate_sampler`, `fixed_unigram_candidate_sampler`,
`learned_unigram_candidate_sampler` and `all_candidate_sampler` (the
negatives of sampled softmax and NCE losses).

Each draws `num_sampled` int64 ids from a distribution P over [0, range_max)
and returns (sampled_candidates, true_expected_count, sampled_expected_count),
the expected counts being TF's: num_sampled * P(id) when drawing with
replacement; with `unique=True` (draws repeated until num_sampled distinct
ids, num_tries draws in all) 1 - (1 - P(id))^num_tries. The distributions:

    uniform        P(k) = 1 / range_max
    log_uniform    P(k) = log((k + 2) / (k + 1)) / log(range_max + 1)  (Zipf-like)
    fixed_unigram  P(k) proportional to unigrams[k]^distortion (num_reserved_ids
                   zeros first; the ids with id % num_shards == shard)
    learned        P(k) proportional to 1 + how often k was a true class in
                   this op's earlier runs (counted after each draw)

The draws follow our seeding rules (random_ops.py); the ids are numpy's.
"""

import collections
import math

import numpy as np

from runtime._src.core import dtypes
from runtime._src.core.errors import InvalidArgumentError
from runtime._src.core.tensor import convert_to_tensor
from runtime._src.core.tensor_shape import TensorShape
from runtime._src.graph.op_registry import apply, define_op, not_differentiable
from runtime._src.ops.random_ops import _generator, _seed_attrs

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler",
           "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
           "all_candidate_sampler"]

_learned_counts = {}       # stream key -> counts of true classes (learned sampler)


def _infer_sampler(inputs, attrs):
    true_classes = inputs[0]
    return [(dtypes.int64, TensorShape([attrs["num_sampled"]])),
            (dtypes.float32, true_classes.shape),
            (dtypes.float32, TensorShape([attrs["num_sampled"]]))]


def _probabilities(kind, range_max, weights, learned):
    if kind == "uniform":
        return np.full(range_max, 1.0 / range_max)
    if kind == "log_uniform":
        k = np.arange(range_max, dtype=np.float64)
        return (np.log(k + 2) - np.log(k + 1)) / math.log(range_max + 1)
    w = np.asarray(learned if kind == "learned" else weights, np.float64)
    return w / w.sum()


def _draw(rng, p, num_sampled, unique):
    """(ids, number of draws); unique: draws until num_sampled distinct ids."""
    if not unique:
        return rng.choice(len(p), size=num_sampled, p=p), num_sampled
    if num_sampled > np.count_nonzero(p):
        raise InvalidArgumentError(f"unique sampling of {num_sampled} ids from "
                                   f"{np.count_nonzero(p)} possible ones", "CandidateSampler")
    seen, ids, tries = set(), [], 0
    while len(ids) < num_sampled:
        batch = rng.choice(len(p), size=max(num_sampled, 16), p=p)
        for v in batch.tolist():
            tries += 1
            if v not in seen:
                seen.add(v)
                ids.append(v)
                if len(ids) == num_sampled:
                    break
    return np.asarray(ids), tries


def _expected(p, ids, tries, num_sampled, unique):
    probs = p[ids]
    if unique:
        return (-np.expm1(tries * np.log1p(-np.minimum(probs, 1.0)))).astype(np.float32)
    return (num_sampled * probs).astype(np.float32)


@define_op("CandidateSampler", infer=_infer_sampler, stateful=True, side_effect=True,
           num_outputs=3)
def _sample(true_classes, *, kind, num_true, num_sampled, unique, range_max, weights, dtype,
            seeds, stream):
    true_classes = np.asarray(true_classes, np.int64)
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise InvalidArgumentError(f"true_classes must be a matrix of shape [batch, "
                                   f"{num_true}], got {list(true_classes.shape)}",
                                   "CandidateSampler")
    if true_classes.size and (true_classes.min() < 0 or true_classes.max() >= range_max):
        bad = true_classes[(true_classes < 0) | (true_classes >= range_max)][0]
        raise InvalidArgumentError(f"`true_candidate` out of range [0, {range_max}), received "
                                   f"{bad}", "CandidateSampler")
    key = stream if stream is not None else "unseeded"
    learned = _learned_counts.setdefault(key, np.ones(range_max)) if kind == "learned" \
        else None
    p = _probabilities(kind, range_max, weights, learned)
    rng = _generator("CandidateSampler", dtype, seeds, stream)
    ids, tries = _draw(rng, p, num_sampled, unique)
    if learned is not None:
        np.add.at(learned, true_classes.ravel(), 1.0)
    return (ids.astype(np.int64), _expected(p, true_classes, tries, num_sampled, unique),
            _expected(p, ids, tries, num_sampled, unique))


@define_op("AllCandidateSampler", infer=_infer_sampler, stateful=True, num_outputs=3)
def _all(true_classes, *, num_sampled, num_true, dtype, seeds, stream):
    true_classes = np.asarray(true_classes, np.int64)
    if true_classes.size and (true_classes.min() < 0 or true_classes.max() >= num_sampled):
        bad = true_classes[(true_classes < 0) | (true_classes >= num_sampled)][0]
        raise InvalidArgumentError(f"`true_candidate` out of range [0, {num_sampled}), "
                                   f"received {bad}", "AllCandidateSampler")
    return (np.arange(num_sampled, dtype=np.int64), np.ones(true_classes.shape, np.float32),
            np.ones(num_sampled, np.float32))


not_differentiable("CandidateSampler", "AllCandidateSampler")

_NAMES = {"uniform": "UniformCandidateSampler", "log_uniform": "LogUniformCandidateSampler",
          "fixed": "FixedUnigramCandidateSampler", "learned": "LearnedUnigramCandidateSampler",
          "all": "AllCandidateSampler"}
_RESULTS = {kind: collections.namedtuple(
    name, ["sampled_candidates", "true_expected_count", "sampled_expected_count"])
    for kind, name in _NAMES.items()}


def _run(kind, true_classes, num_true, num_sampled, unique, range_max, seed, weights=()):
    name = _NAMES[kind]
    true_classes = convert_to_tensor(true_classes, dtypes.int64)
    if true_classes.dtype is not dtypes.int64:
        raise TypeError(f"{name}: true_classes must be int64, got {true_classes.dtype.name}")
    num_sampled, range_max = int(num_sampled), int(range_max)
    if unique and num_sampled > range_max:
        raise InvalidArgumentError(f"{name}: unique sampling needs num_sampled ({num_sampled}) "
                                   f"<= range_max ({range_max})", name)
    attrs = {"kind": "fixed" if kind == "fixed" else kind, "num_true": int(num_true),
             "num_sampled": num_sampled, "unique": bool(unique), "range_max": range_max,
             "weights": tuple(weights), "dtype": dtypes.int64, **_seed_attrs(seed, name)}
    return _RESULTS[kind](*apply("CandidateSampler", (true_classes,), attrs))


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """`tf.random.uniform_candidate_sampler`: ids drawn uniformly from [0, range_max)."""
    return _run("uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """`tf.random.log_uniform_candidate_sampler`: ids drawn with P(k) =
    log((k + 2) / (k + 1)) / log(range_max + 1)."""
    return _run("log_uniform", true_classes, num_true, num_sampled, unique, range_max, seed)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """`tf.random.learned_unigram_candidate_sampler`: ids drawn in proportion
    to 1 + their count as true classes in this op's earlier runs."""
    return _run("learned", true_classes, num_true, num_sampled, unique, range_max, seed)


def _unigram_weights(vocab_file, unigrams, num_reserved_ids, num_shards, shard, range_max):
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:
            counts = [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]
    else:
        counts = [float(u) for u in unigrams]
    full = [0.0] * int(num_reserved_ids) + counts
    kept = [w for i, w in enumerate(full) if i % int(num_shards) == int(shard)]
    if len(kept) != range_max:
        raise InvalidArgumentError(f"range is {range_max} must be equal to weights size  "
                                   f"{len(kept)}", "FixedUnigramCandidateSampler")
    return kept


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """`tf.random.fixed_unigram_candidate_sampler`: ids drawn in proportion to
    their unigram count (from `unigrams` or the last CSV column of
    `vocab_file`) raised to `distortion`; `num_reserved_ids` ids of weight 0
    come first; with `num_shards`, this shard's ids (id % num_shards == shard)."""
    weights = _unigram_weights(vocab_file, unigrams, num_reserved_ids, num_shards, shard,
                               int(range_max))
    distorted = [w ** float(distortion) if w > 0 else 0.0 for w in weights]
    return _run("fixed", true_classes, num_true, num_sampled, unique, range_max, seed,
                distorted)


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """`tf.random.all_candidate_sampler`: every id 0..num_sampled-1, expected
    counts 1 (a test and debugging aid)."""
    true_classes = convert_to_tensor(true_classes, dtypes.int64)
    attrs = {"num_sampled": int(num_sampled), "num_true": int(num_true),
             "dtype": dtypes.int64, **_seed_attrs(seed, "AllCandidateSampler")}
    return _RESULTS["all"](*apply("AllCandidateSampler", (true_classes,), attrs))
