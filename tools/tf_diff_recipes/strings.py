"""tools/tf_diff.py's recipes for string ops: split, case, unicode, joins, substr, regex,
to_number, as_string and hashing; registered on import tf_diff_recipes/base.py has the
registry). Importing the module registers them (base.py: the registry)."""

import numpy as np

from tf_diff_recipes.base import Case, F32, F64, I32, _i, _u, recipe


# ---------------------------------------------------------------- strings

_TEXT = np.array([b"a b  c", b"", b" d ", "h\u00e9llo".encode()], object)


@recipe("strings", "strings.split")
def _str_split(rng):
    yield Case("whitespace", _TEXT)
    yield Case("sep", np.array([b"a,b,,c", b"", b"x"], object), sep=",")
    yield Case("maxsplit", np.array([b"a,b,,c"], object), ",", 1)
    yield Case("scalar", np.array(b"a b", object))
    yield Case("matrix", np.array([[b"a b", b"c"]], object))


@recipe("strings", "strings.length strings.lower strings.upper strings.strip "
        "strings.bytes_split")
def _str_unary(rng, name):
    yield Case("vector", _TEXT)
    yield Case("scalar", np.array(b" Hi ", object))


@recipe("strings", "strings.unicode_split strings.unicode_decode")
def _str_unicode(rng, name):
    yield Case("utf-8", _TEXT, "UTF-8")


@recipe("strings", "strings.join")
def _str_join(rng):
    yield Case("two", [np.array([b"a", b"b"], object), np.array([b"c", b"d"], object)],
               separator="-")


@recipe("strings", "strings.reduce_join")
def _str_reduce_join(rng):
    m = np.array([[b"a", b"b"], [b"c", b"d"]], object)
    yield Case("all", m)
    yield Case("axis 1 sep", m, axis=1, separator=",")
    yield Case("axis 0 keepdims", m, axis=0, keepdims=True)


@recipe("strings", "strings.substr")
def _str_substr(rng):
    yield Case("bytes", np.array([b"hello", b"hi"], object), 1, 3)
    yield Case("negative", np.array(b"hello", object), -3, 2)
    yield Case("out of range", np.array(b"hi", object), 5, 1)


@recipe("strings", "strings.regex_replace")
def _str_regex_replace(rng):
    yield Case("global", np.array([b"aaa bab"], object), "a+", "X")
    yield Case("first", np.array(b"aaa", object), "a", "b", replace_global=False)
    yield Case("group", np.array(b"abc", object), "(b)", r"[\1]")


@recipe("strings", "strings.regex_full_match")
def _str_full_match(rng):
    yield Case("dot", np.array([b"abc", b"abcd"], object), "a.c")


@recipe("strings", "strings.to_number")
def _str_to_number(rng):
    yield Case("floats", np.array([b"1.5", b"-2", b"3e2"], object))
    yield Case("ints", np.array([b"12", b"-3"], object), out_type="int32")
    yield Case("bad", np.array([b"abc"], object))


@recipe("strings", "strings.as_string")
def _str_as_string(rng):
    yield Case("f32", _u(rng, (3,)))
    yield Case("i32", _i(rng, (3,)))
    yield Case("precision", _u(rng, (2,), F64), precision=2)
    yield Case("shortest", np.array([1e10, 0.5, 3.0], F32), shortest=True)
    yield Case("width fill", np.array([7, 123], I32), width=4, fill="0")
    yield Case("bool", np.array([True, False]))


@recipe("strings", "strings.to_hash_bucket_fast")
def _str_hash(rng):
    texts = [("x" * n).encode() for n in (0, 1, 3, 7, 12, 16, 20, 32, 40, 64, 65, 100, 300)]
    yield Case("lengths", np.array(texts, object), 1000003)
