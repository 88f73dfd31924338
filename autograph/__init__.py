"""AutoGraph-style transpiler: rewrites Python control flow into calls of
overloadable operators (`if_stmt`, `while_stmt`, `for_stmt`, ...) that keep
plain Python semantics unless a registered backend's tensors are involved.

    import autograph

    def f(x):
        if x > 0:
            x = x * 2
        return x

    print(autograph.to_code(f))    # the rewritten source
    g = autograph.to_graph(f)      # the converted function: g(3) == f(3)

    # A function given as text, converted without importing its module (the CLI):
    autograph.convert_source("def f(x):\\n    if x > 0:\\n        x = -x\\n    return x\\n").text

This package never imports `runtime`; runtime registers itself as a backend
through `autograph.integration` (the contract: autograph/backend.py).
"""

from . import experimental
from . import backends  # noqa: F401 - registers the lazy backends (JAX)
from .impl.api import (AutoGraphWarning, ConversionError, SourceConversion,
                       UnsupportedLanguageElementError, convert, convert_source, do_not_convert,
                       is_strict, set_strict, to_code, to_graph)
from .impl.report import report
from .operators.directives import set_element_type
from .operators.side_effects import (SideEffectWarning, is_strict_side_effects,
                                     set_strict_side_effects)

__version__ = "0.1.0"

__all__ = ["to_code", "to_graph", "convert", "do_not_convert", "convert_source",
           "SourceConversion", "report", "set_strict", "is_strict", "ConversionError",
           "UnsupportedLanguageElementError",
           "AutoGraphWarning", "SideEffectWarning", "set_strict_side_effects",
           "is_strict_side_effects", "set_element_type", "experimental"]
