"""`autograph.convert_source`, the public entry point the CLI converts with: a
function given as text is converted without importing or running its module."""

import textwrap

import pytest

import autograph


def _run(result, name, *args, namespace=None):
    """Execute the converted text with its imports; call `name(*args)`."""
    scope = dict(namespace or {})
    exec("\n".join(result.imports) + "\n" + result.text, scope)
    return scope[name](*args)


def test_converted_text_runs_like_the_original():
    source = textwrap.dedent("""\
        def f(x):
            total = 0
            while x > 0:
                if x % 2:
                    total += x
                x -= 1
            return total
        """)
    result = autograph.convert_source(source, "m.py")
    assert result.text.startswith("@autograph.do_not_convert\ndef f(x):\n")
    assert "ag__.while_stmt" in result.text and "ag__.if_stmt" in result.text
    assert result.imports == ("import autograph", "from autograph import operators as ag__")
    assert result.report == []
    original = {}
    exec(source, original)
    for x in (0, 1, 7, 10):
        assert _run(result, "f", x) == original["f"](x)


def test_indented_method_source_and_zero_argument_super():
    source = """\
    def scale(self, x):
        if x > 0:
            return super().scale(x) + 1
        return 0
"""
    result = autograph.convert_source(source, "m.py", first_line=7, method=True)
    assert "super(__class__, self).scale" in result.text
    assert "super()" not in result.text


def test_module_imports_of_libraries_stay_plain_calls():
    source = "def f(x):\n    if x > 0:\n        x = math.sqrt(x) + helper(x)\n    return x\n"
    module = "import math\n\ndef helper(v):\n    return v\n\n" + source
    text = autograph.convert_source(source, "m.py", first_line=5, module=module).text
    assert "math.sqrt(x)" in text and "ag__.call(math.sqrt" not in text
    assert "ag__.call(helper, x)" in text


def test_report_lines_name_the_user_lines():
    source = "def f(x):\n    if x > 0:\n        x = -x\n    return x\n"
    result = autograph.convert_source(source, "m.py", first_line=10, report=True)
    assert result.report[0].startswith("line 11   if x > 0:")
    assert "if_stmt: staged as cond when the test is a tensor" in result.report[0]


def test_long_expression_converts():
    source = "def e(x):\n    if x > 0:\n        x = " + " + ".join(["x"] * 1000) + "\n    return x\n"
    result = autograph.convert_source(source, "long.py")
    assert _run(result, "e", 2) == 2000 and _run(result, "e", -1) == -1


@pytest.mark.parametrize("source, match", [
    ("x = 1\n", r"m\.py:3: expected the source of one function"),
    ("def f(x):\n    return x\ndef g(x):\n    return x\n", r"expected the source of one"),
    ("def f(x:\n    return x\n", r"m\.py:3: '\(' was never closed"),
    ("def f(x):\n    for v in x:\n        yield v\n",
     r"generators are not supported \(a function with yield\) \(m\.py:5: yield v\)"),
])
def test_refusals_are_conversion_errors_with_file_and_line(source, match):
    with pytest.raises(autograph.ConversionError, match=match) as info:
        autograph.convert_source(source, "m.py", first_line=3)
    assert info.value.reason


def test_indented_def_keeps_multiline_strings_and_lines():
    source = '''\
    def f(self, x):
        s = """one
    four
            eight"""
        if x:
            s = s.upper()
        return s
'''
    result = autograph.convert_source(source, "m.py", first_line=20, method=True, report=True)
    assert _run(result, "f", None, 0) == "one\n    four\n            eight"
    assert _run(result, "f", None, 1) == "ONE\n    FOUR\n            EIGHT"
    assert result.report[0].startswith("line 24   if x:")


def test_indented_refusal_names_the_user_line():
    source = "    def f(self, x):\n        for v in x:\n            yield v\n"
    with pytest.raises(autograph.ConversionError, match=r"\(m\.py:12: yield v\)"):
        autograph.convert_source(source, "m.py", first_line=10, method=True)
