"""docs/architecture.md is a true map of the code:

- its layer maps are those tools/layer_map.py generates from .importlinter;
- every package of runtime/_src and autograph is in a layer contract (so in
  the maps), and every contract entry exists;
- runtime/_src/__init__.py names every package, and a package docstring that
  says "Layer N" has the number the contract gives it;
- every module path (runtime/..., autograph/..., tools/..., docs/..., tests/...,
  examples/...) and dotted name (runtime.x.y, autograph.x) cited in the
  modules of runtime/, autograph/ and tools/ (docstrings, comments, code) or
  in docs/*.md or README.md exists; so does every path of the project's code
  (runtime/..., autograph/..., tools/..., docs/...) the test modules cite.
"""

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import layer_map  # noqa: E402 - tools/ is not a package

PATH_RE = re.compile(r"(?<![\w/.-])((?:runtime|autograph|tools|docs|tests|examples)/[\w./*<>-]*"
                     r"[\w/*>])")
DOTTED_RE = re.compile(r"(?<![\w./\"'])((?:runtime|autograph)(?:\.[A-Za-z_]\w*)+)")


def _packages(container):
    base = ROOT.joinpath(*container.split("."))
    return {p.parent.name for p in base.glob("*/__init__.py")}


def test_layer_maps_are_current():
    text = layer_map.DOC.read_text()
    for name in layer_map.CONTRACTS:
        assert f"<!-- layer map: {name} -->" in text, name
    assert layer_map.rewrite(text) == text, \
        "docs/architecture.md: a layer map is stale; run python3 tools/layer_map.py --write"


@pytest.mark.parametrize("name", layer_map.CONTRACTS)
def test_every_package_is_in_its_layer_contract(name):
    container, rows = layer_map.contract(name)
    entries = {part for row in rows for part in row}
    placed = {e.split(".")[0] for e in entries}     # a package, or modules of it
    assert _packages(container) <= placed, sorted(_packages(container) - placed)
    missing = [e for e in entries if not layer_map.source_of(container, e).exists()]
    assert not missing, missing


def test_src_init_names_every_package():
    doc = ast.get_docstring(ast.parse((ROOT / "runtime/_src/__init__.py").read_text()))
    listed = set(re.findall(r"^    (\w+) ", doc, re.M))
    assert listed == _packages("runtime._src")


def test_layer_numbers_in_docstrings_match_the_contract():
    numbers = layer_map.layer_numbers("runtime-layers")
    for package, number in numbers.items():
        doc = ast.get_docstring(ast.parse(layer_map.source_of("runtime._src", package)
                                          .read_text())) or ""
        claim = re.match(r"Layer (\d+)\b", doc)
        assert claim is None or int(claim.group(1)) == number, (package, claim.group(0), number)


def _texts():
    """(file, text) of every module of runtime/, autograph/ and tools/ (their
    docstrings and comments, and code, which cites only names that import)
    and of docs/*.md and README.md."""
    for base in ("runtime", "autograph", "tools"):
        for path in sorted((ROOT / base).rglob("*.py")):
            yield str(path.relative_to(ROOT)), path.read_text()
    for path in sorted((ROOT / "docs").glob("*.md")):
        yield f"docs/{path.name}", path.read_text()
    yield "README.md", (ROOT / "README.md").read_text()


def _path_exists(cited):
    if any(c in cited for c in "*<>"):          # a pattern: its directory exists
        cited = cited[:min(cited.index(c) for c in "*<>" if c in cited)].rpartition("/")[0]
    cited = cited.rstrip("/.")
    return (ROOT / cited).exists() or (ROOT / f"{cited}.py").exists()


_DEFINED_RE = re.compile(r"^(?:(?:async\s+)?def|class)\s+(\w+)|^(\w+)\s*[:=]", re.M)


def _module_file(dotted):
    base = ROOT.joinpath(*dotted.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _top_level_names(path):
    """Names a module binds at its top level, read from its text (a fast
    reading: a name it misses is looked up by importing the module)."""
    text = path.read_text()
    names = {a or b for a, b in _DEFINED_RE.findall(text)}
    for group in re.findall(r"^(?:from\s+\S+\s+)?import\s+(\([^)]*\)|[^\n]*)", text, re.M):
        for item in group.strip("()").replace("\n", " ").split(","):
            words = item.split("#")[0].split()
            if words:
                names.add(words[-1].split(".")[0])
    return names


def _dotted_exists(name):
    """True when `name` is a module of the project, or a name bound in one
    (looked up in the module's text first, so most checks import nothing)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        path = _module_file(".".join(parts[:i]))
        if path is None:
            continue
        rest = parts[i:]
        if not rest or (len(rest) == 1 and rest[0] in _top_level_names(path)):
            return True
        return _imports_with(".".join(parts[:i]), rest)
    return False


def _imports_with(module, attrs):
    """True when `module` imports and has the attribute chain `attrs`."""
    try:
        obj = importlib.import_module(module)
    except ModuleNotFoundError as e:            # an optional dependency (onnx, jax)
        return not e.name.startswith(("runtime", "autograph"))
    for attr in attrs:
        if not hasattr(obj, attr):
            return False
        obj = getattr(obj, attr)
    return True


def test_cited_paths_and_dotted_names_exist():
    paths, names = {}, {}
    for where, text in _texts():
        for cited in PATH_RE.findall(text):
            paths.setdefault(cited, where)
        for name in DOTTED_RE.findall(text):
            if not name.endswith((".py", ".md")):
                names.setdefault(name, where)
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for cited in PATH_RE.findall(path.read_text()):
            if cited.startswith(("runtime/", "autograph/", "tools/", "docs/")):
                paths.setdefault(cited, str(path.relative_to(ROOT)))
    bad = [(where, p) for p, where in paths.items() if not _path_exists(p)]
    bad += [(where, n) for n, where in names.items() if not _dotted_exists(n)]
    assert not bad, sorted(bad)


ISSUE_RE = re.compile(r"\bissue[ _#]?\d+", re.I)


def test_no_text_cites_an_issue_number():
    """A reader cannot look up "issue N": texts say the fact it stands for."""
    files = [p for base in ("runtime", "autograph", "tools", "tests")
             for p in (ROOT / base).rglob("*.py")]
    files += sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    cited = [(str(p.relative_to(ROOT)), m.group(0)) for p in files
             for m in ISSUE_RE.finditer(p.read_text())]
    assert cited == []
