"""`tf.random`: random ops (see `runtime._src.ops.random_ops` for the seeding
rules, `stateless_random_ops`, and `runtime._src.function.random_generator`).

    random.set_seed(0)
    x = random.uniform([2, 3], minval=-1.0, maxval=1.0)
    n = random.normal([4], mean=0.0, stddev=2.0)
    s = random.stateless_uniform([2], seed=[1, 2])      # a function of the seed
    g = random.Generator.from_seed(1)
    g.normal([2])                                        # advances g's state
"""

from runtime._src.ops.random_ops import (categorical, normal, set_seed, shuffle,
                                         truncated_normal, uniform)
from runtime._src.ops.random_dist_ops import gamma, poisson
from runtime._src.ops.stateless_random_ops import (fold_in, split,
                                                   stateless_categorical, stateless_normal,
                                                   stateless_truncated_normal,
                                                   stateless_uniform)
from runtime._src.function.random_generator import (Generator,
                                                    create_rng_state, get_global_generator,
                                                    set_global_generator)
from runtime._src.ops.stateless_random_ops import stateless_binomial, stateless_gamma
from runtime._src.ops.stateless_dist_ops import (stateless_parameterized_truncated_normal,
                                                 stateless_poisson)
from runtime._src.ops.stateless_shuffle_ops import Algorithm, index_shuffle, stateless_shuffle
from runtime._src.ops.candidate_sampling_ops import (all_candidate_sampler,
                                                     fixed_unigram_candidate_sampler,
                                                     learned_unigram_candidate_sampler,
                                                     log_uniform_candidate_sampler,
                                                     uniform_candidate_sampler)

import types as _types

experimental = _types.SimpleNamespace(
    Algorithm=Algorithm, Generator=Generator, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    index_shuffle=index_shuffle, stateless_fold_in=fold_in, stateless_shuffle=stateless_shuffle,
    stateless_split=split,
)
del index_shuffle, stateless_shuffle

__all__ = ["uniform", "normal", "truncated_normal", "categorical", "shuffle", "set_seed",
           "stateless_uniform", "stateless_normal", "stateless_truncated_normal",
           "stateless_categorical", "Generator", "create_rng_state", "get_global_generator",
           "set_global_generator", "split", "fold_in", "poisson", "gamma", "Algorithm",
           "experimental", "all_candidate_sampler", "fixed_unigram_candidate_sampler",
           "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler",
           "uniform_candidate_sampler", "stateless_binomial", "stateless_gamma",
           "stateless_poisson", "stateless_parameterized_truncated_normal"]
