"""The README's test command passes without the optional extras: their tests
skip with a reason. Each case runs pytest in a fresh process where the extra's
packages cannot be imported, exactly as on a machine without them (a test
folder of the same name would then be found instead: tests/jax once was,
and its tests failed on `jax.numpy`). The process is forked from
tests/fresh_process.py's helper, whose numpy, runtime and runtime.keras import
none of the extras (runtime looks for them only when a feature needs one)."""

import os

import pytest

from tests import fresh_process

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Run as `python -c HIDE packages pytest-args...`: packages absent from site-packages.
HIDE = """
import importlib.machinery, sys
HIDDEN = set(sys.argv[1].split(","))
ALREADY = HIDDEN & {name.partition(".")[0] for name in sys.modules}
assert not ALREADY, f"imported before they could be hidden: {sorted(ALREADY)}"

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] not in HIDDEN:
            return None
        where = [p for p in (path or sys.path) if "-packages" not in p]
        spec = importlib.machinery.PathFinder.find_spec(name, where)
        if spec is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return spec

sys.meta_path.insert(0, NotInstalled())
import pytest
sys.exit(pytest.main(sys.argv[2:]))
"""

EXTRAS = [
    ("jax", "jax,jaxlib", ["tests/jax_backend", "tests/runtime/distribute"]),
    ("onnx", "onnx,onnxruntime", ["tests/onnx_export"]),
    ("tensorboard", "tensorboard", ["tests/runtime/summary"]),
]


@pytest.mark.parametrize("extra, packages, paths", EXTRAS, ids=[e[0] for e in EXTRAS])
def test_tests_of_a_missing_extra_skip_with_a_reason(extra, packages, paths):
    run = fresh_process.run(["-c", HIDE, packages, "-q", "-rs", "-n", "0",
                             "-p", "no:cacheprovider", *paths],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode in (0, 5), out     # nothing failed or errored (5: all skipped)
    skips = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert skips, out
    for line in skips:                                # each names what is missing
        assert any(p in line for p in packages.split(",")) and "install" in line, line


def test_no_test_folder_is_named_like_a_package_the_tests_import():
    names = {"jax", "jaxlib", "onnx", "onnxruntime", "tensorboard", "tensorflow",
             "numpy", "gast", "pytest"}
    assert not names & set(os.listdir(os.path.join(ROOT, "tests")))


def test_test_module_names_are_unique():
    """pytest imports test modules by basename (rootdir-relative folders are not
    packages): two test_x.py files in different folders stop the collection
    ("import file mismatch")."""
    seen = {}
    for folder, _, files in os.walk(os.path.join(ROOT, "tests")):
        for name in files:
            if name.startswith("test_") and name.endswith(".py"):
                assert name not in seen, (name, seen.get(name), folder)
                seen[name] = folder
