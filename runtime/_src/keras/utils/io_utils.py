"""Where Keras's progress output goes: standard output while interactive
logging is on (the default), Python's `logging` (INFO, logger "keras") once
`keras.config.disable_interactive_logging()` turned it off.

    print_msg("Epoch 1/3")                  # stdout, or logging.info when disabled
"""

import logging
import sys

__all__ = ["disable_interactive_logging", "enable_interactive_logging",
           "is_interactive_logging_enabled", "print_msg"]

_STATE = {"interactive_logging": True}
_LOGGER = logging.getLogger("keras")


def enable_interactive_logging():
    """Print progress bars and logs to standard output (the default)."""
    _STATE["interactive_logging"] = True


def disable_interactive_logging():
    """Send progress bars and logs to Python's `logging` (INFO) instead of stdout."""
    _STATE["interactive_logging"] = False


def is_interactive_logging_enabled():
    """True while progress output goes to standard output."""
    return _STATE["interactive_logging"]


def print_msg(message, line_break=True):
    """Write `message` to stdout (with a newline when `line_break`), or log it."""
    message = str(message)
    if not is_interactive_logging_enabled():
        _LOGGER.info(message)
        return
    sys.stdout.write(message + "\n" if line_break else message)
    sys.stdout.flush()
