"""The README's list of supported names is generated from the public
namespaces (tools/api_listing.py) and must match them."""

import importlib.util
import os
import types

import runtime as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _tool():
    spec = importlib.util.spec_from_file_location(
        "api_listing", os.path.join(ROOT, "tools", "api_listing.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_listing_is_current():
    tool = _tool()
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    assert tool.replace_block(text, tool.listing(tf)) == text, (
        "README.md's API listing is stale: run python3 tools/api_listing.py --write")


def test_listing_names_every_public_name_under_its_namespace():
    block = _tool().listing(tf)
    lines = {line.split("`")[1]: line for line in block.splitlines()}
    assert "`matmul`" in lines["tf"] and "`matmul`" in lines["tf.linalg"]
    assert "`relu`" in lines["tf.nn"]
    assert "`set_experimental_options`" in lines["tf.config.optimizer"]
    for label, line in lines.items():
        count = int(line.split("(")[1].split(")")[0])
        assert count == line.count("`, `") + 1, label
    # namespaces are listed on their own line, never as names of their parent
    assert "`nn`" not in lines["tf"] and "`optimizer`" not in lines["tf.config"]


def test_replace_block_keeps_the_text_around_it():
    tool = _tool()
    text = f"intro\n{tool.BEGIN}\nold\n{tool.END}\noutro\n"
    assert tool.replace_block(text, "new") == f"intro\n{tool.BEGIN}\nnew\n{tool.END}\noutro\n"


def test_a_module_without_all_lists_its_public_attributes():
    module = types.ModuleType("runtime.fake")
    module.a, module._hidden, module.b = 1, 2, 3
    assert _tool().public_names(module) == ["a", "b"]
