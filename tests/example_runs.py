"""How the tests run the examples: the same code paths as a user's run, with
fewer iterations where an example takes a size (its own `main()` keywords and
command-line flags). The tests check behaviour, not timings or accuracy at
full size; tests/keras/test_examples.py runs the training examples at sizes
where their printed accuracy is asserted."""

MAIN_KWARGS = {
    "seed002_sequential_timing": {"number": 5},
    "seed003_custom_training": {"epochs": 1, "samples": 640},
    "train_classifier": {"epochs": 2},
}


def main_kwargs(stem):
    """Keywords for `main()` of examples/<stem>.py."""
    return dict(MAIN_KWARGS.get(stem, {}))


def script_args(stem):
    """Command-line flags that make the same run as `main_kwargs(stem)`."""
    return [part for key, value in MAIN_KWARGS.get(stem, {}).items()
            for part in (f"--{key}", str(value))]
