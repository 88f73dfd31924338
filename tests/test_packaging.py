"""Package hygiene: both packages ship a `py.typed` marker (checked by running
setuptools' build_py from pyproject.toml into a temporary directory), the
public API is annotated, and pyproject.toml carries the metadata an index
page shows (classifiers, keywords, URLs table; a license only with a
LICENSE file)."""

import inspect
import os
import sys
import tomllib

import pytest

import autograph
import autograph.cli
import runtime as tf
from runtime._src.function.function import Function

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


@pytest.mark.parametrize("package", ["autograph", "runtime"])
def test_py_typed_marker_is_in_the_source_tree(package):
    assert os.path.isfile(os.path.join(ROOT, package, "py.typed"))


@pytest.mark.filterwarnings("ignore:Support for `\\[tool.setuptools\\]`")
def test_build_ships_py_typed(tmp_path, monkeypatch):
    """What a wheel would hold: setuptools' build_py, configured from pyproject.toml."""
    setuptools = pytest.importorskip("setuptools")
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution
    monkeypatch.chdir(ROOT)
    dist = Distribution({"script_name": "setup.py"})
    apply_configuration(dist, os.path.join(ROOT, "pyproject.toml"))
    build = dist.get_command_obj("build_py")
    build.build_lib = str(tmp_path)
    build.compile = 0
    dist.run_command("build_py")
    for package in ("autograph", "runtime"):
        assert (tmp_path / package / "py.typed").is_file(), package
    assert (tmp_path / "runtime" / "_src" / "graph" / "viewer_assets.py").is_file()
    assert not (tmp_path / "tests").exists()
    assert setuptools is not None


def test_pyproject_metadata():
    project = _pyproject()["project"]
    classifiers = project["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3" in classifiers
    assert any(c.startswith("Topic :: ") for c in classifiers)
    assert {"autograph", "transpiler", "tensorflow"} <= set(project["keywords"])
    assert isinstance(project["urls"], dict)
    has_license = any(name.upper().startswith(("LICENSE", "COPYING"))
                      for name in os.listdir(ROOT))
    assert ("license" in project) == has_license
    assert _pyproject()["project"]["scripts"]["autograph"] == "autograph.cli:main"
    package_data = _pyproject()["tool"]["setuptools"]["package-data"]
    assert package_data["autograph"] == ["py.typed"] and package_data["runtime"] == ["py.typed"]


def _annotated(fn, skip=("self", "cls")):
    sig = inspect.signature(fn)
    assert sig.return_annotation is not inspect.Signature.empty, fn
    for name, param in sig.parameters.items():
        if name not in skip:
            assert param.annotation is not inspect.Parameter.empty, (fn, name)
    return sig


@pytest.mark.parametrize("fn", [
    tf.function, Function.__call__, Function.get_concrete_function,
    Function.experimental_get_tracing_count, Function.pretty_printed_concrete_signatures,
    tf.TensorSpec.__init__, tf.TensorSpec.is_compatible_with,
    autograph.to_code, autograph.to_graph, autograph.report, autograph.cli.main,
], ids=lambda fn: fn.__qualname__)
def test_public_api_is_annotated(fn):
    _annotated(fn)


def test_annotations_say_what_comes_back():
    assert inspect.signature(autograph.to_code).return_annotation == "str"
    assert inspect.signature(autograph.cli.main).return_annotation == "int"
    assert inspect.signature(Function.get_concrete_function).return_annotation == \
        "ConcreteFunction"
    assert inspect.signature(tf.function).parameters["input_signature"].annotation == \
        "Sequence[TensorSpec] | None"
    # The string annotations resolve in their modules (`typing.get_type_hints`).
    import typing
    if sys.version_info >= (3, 10):
        assert typing.get_type_hints(autograph.to_code)["return"] is str
        assert typing.get_type_hints(Function.get_concrete_function)["return"].__name__ == \
            "ConcreteFunction"
        assert typing.get_type_hints(tf.TensorSpec.is_compatible_with)["return"] is bool
