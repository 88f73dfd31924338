"""The differential fuzzer behind `python tools/fuzz.py` (its docstring
describes the modes and the output), one concern per module:

    gen_default.py      the default mode's programs (pinned per seed)
    gen_modes.py        the statement mix the extra modes share
    gen_composites.py, gen_closures.py, gen_mutations.py, gen_variables.py
                        one generator per mode
    numpy_tf.py         the numpy stand-in for `tf` (--variables' reference)
    runner.py           loading and running programs, counting, reporting
    judging.py          agreement, clear refusals, internal errors
    shrinker.py         deleting lines while a program still disagrees
"""
