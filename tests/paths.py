"""Paths the tests read, in one place so that a test module can move between
folders without counting `..`: the repository's root, tests/data (recorded
values), tools/ (recording scripts some tests share) and examples/."""

import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
TOOLS = ROOT / "tools"
EXAMPLES = ROOT / "examples"
