"""`autograph.experimental`: the names TensorFlow keeps under
`tf.autograph.experimental`.

    @autograph.experimental.do_not_convert
    def helper(x): ...          # always runs as written
"""

from .impl.api import do_not_convert

__all__ = ["do_not_convert"]
