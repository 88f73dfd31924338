"""Annotations: extra facts attached to AST nodes by analyses and converters.

    setanno(node, "live_out", {"x"})
    getanno(node, "live_out")        # {'x'}
    getanno(node, "missing", None)   # None

`setanno` refuses to overwrite a different value silently; pass
`replace=True` when a later analysis recomputes a fact on purpose.
"""

_KEY = "_ag_anno"
ANNOTATIONS = _KEY      # the node attribute holding a node's annotations (a dict)

# Well-known keys, so they can be grepped.
LIVE_OUT = "live_out"            # names live after a statement
LIVE_IN = "live_in"              # names live before a statement
LOOP_HEAD = "loop_head"          # names live at a loop's head (next iteration included)
DEFINED_IN = "defined_in"        # names certainly bound before a statement
MAYBE_UNDEFINED = "maybe_undefined"  # a Name load that may see an unbound name
EXTRA_LOOP_TEST = "extra_loop_test"  # list of expressions ANDed with a loop's test
USER_LINE = "user_line"          # the user's source line of a node


def _annos(node):
    d = node.__dict__.get(_KEY)
    if d is None:
        d = {}
        node.__dict__[_KEY] = d
    return d


def setanno(node, key, value, replace=False):
    values = node.__dict__           # _annos, in line: the analyses set thousands
    annos = values.get(_KEY)
    if annos is None:
        values[_KEY] = {key: value}
        return
    if not replace and key in annos and annos[key] is not value and annos[key] != value:
        raise ValueError(f"annotation {key!r} of {type(node).__name__} is already set")
    annos[key] = value


def getanno(node, key, default=KeyError):
    annos = node.__dict__.get(_KEY)
    if annos is not None and key in annos:
        return annos[key]
    if default is KeyError:
        raise KeyError(f"{type(node).__name__} has no annotation {key!r}")
    return default


def setdefault(node, key, value):
    """Set annotation `key` to `value` unless the node has it; True when set."""
    values = node.__dict__
    annos = values.get(_KEY)
    if annos is None:
        values[_KEY] = {key: value}
        return True
    if key in annos:
        return False
    annos[key] = value
    return True


def hasanno(node, key):
    return key in node.__dict__.get(_KEY, {})


def delanno(node, key):
    node.__dict__.get(_KEY, {}).pop(key, None)


def copyanno(src, dst, key):
    if hasanno(src, key):
        setanno(dst, key, getanno(src, key), replace=True)
