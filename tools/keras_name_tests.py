"""Which of Keras 3.15's public names that `runtime.keras` has some test uses.

    python3 tools/keras_name_tests.py            # per namespace: names, tested, untested
    python3 tools/keras_name_tests.py --write    # record the untested list (the ratchet)

A static check over tests/. Only the test modules that check against
Keras's recorded values count: those that say "recorded" (or name Keras 3.1x /
TF 2.2x, whose values they hold), read a keras_*.json/.npz file or tests/data,
or take their expected values from a module of them (layer_expected.py); with
them count the recorders under tools/ they import their cases from. A name
counts as tested when such a module
- uses it dotted through a Keras namespace (`tf.keras.layers.Dense(`,
  `keras.ops.add(`, `layers.Dense(`, `L.Dense(` where `L = tf.keras.layers`
  or is a one-letter parameter such as `lambda L:`,
  `def outcome(T, case)`),
- imports it (`from runtime.keras.layers import Dense`), or
- holds it as a string literal in a table (`"Dense"`, `"relu"`), or in a
  recorded-data file under tests/data that a test names.
A name also counts when the object it names is the same as one that counts
(`keras.ops.relu` is `keras.ops.nn.relu`). tests/tools and the public-name
record are left out, since they list every name without exercising any.

tests/data/keras_untested_names.json holds the untested list;
tests/tools/test_keras_name_tests.py fails when a name is untested and not on
it, so the list can only shrink.
"""

import argparse
import ast
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
NAMES = TESTS / "data" / "public_names.json"
UNTESTED = TESTS / "data" / "keras_untested_names.json"
LEFT_OUT = {"tools"}
LEFT_OUT_DATA = {"public_names.json", UNTESTED.name}
_ALIAS = re.compile(r"^\s*(\w+)\s*=\s*(?:tf\.|runtime\.)?(keras(?:\.\w+)*)\s*(?:#.*)?$", re.M)
_LAMBDA = re.compile(r"(?:\blambda\s+|\bdef \w+\()([A-Z])\s*[:,)]")
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)")
# a test module that compares with Keras's recorded values says so, reads a
# recorded-data file, or takes its cases from a recorder or an expected-values module
_RECORDED = re.compile(r"recorded|tests/data|_expected|Keras 3\.1\d|"
                       r"TF 2\.2\d|keras_\w+\.(?:json|npz)", re.I)
_TOOL_IMPORT = re.compile(r"^\s*from (record_\w+) import", re.M)


def keras_names(keras):
    """{namespace label: [names runtime.keras has]} from Keras's recorded names."""
    recorded = json.loads(NAMES.read_text())["names"]
    found = {}
    for label, names in recorded.items():
        if not label.startswith("keras"):
            continue
        module = _resolve(keras, label)
        have = [n for n in names if module is not None and hasattr(module, n)]
        if have:
            found[label] = have
    return found


def _resolve(keras, label):
    value = keras
    for part in label.split(".")[1:]:
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def _parse(text):
    """(import-from nodes, string constants) of a module's source."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return [], set()
    imports, strings = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imports.append(node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            strings.add(node.value)
    return imports, strings


def _aliases(text, imports):
    """{local name: keras label} that a test module binds to a Keras namespace."""
    aliases = {"keras": "keras"}
    for local, target in _ALIAS.findall(text):
        aliases[local] = target
    for node in imports:
        base = node.module or ""
        if base == "runtime":
            base = "runtime.keras" if any(a.name == "keras" for a in node.names) else ""
        if base.startswith("runtime.keras"):
            parent = "keras" + base[len("runtime.keras"):]
            for a in node.names:
                aliases[a.asname or a.name] = f"{parent}.{a.name}"
    for letter in _LAMBDA.findall(text):
        aliases.setdefault(letter, "*")
    return aliases


def _dotted_uses(text, aliases):
    """{(label, name)} for each dotted chain through a Keras namespace ('*': any)."""
    uses = set()
    for chain in _DOTTED.findall(text):
        parts = chain.split(".")
        if parts[0] in ("tf", "runtime") and len(parts) > 2 and parts[1] == "keras":
            parts = parts[1:]
        label = aliases.get(parts[0])
        if label is None:
            continue
        for i in range(1, len(parts)):
            inner = ".".join(parts[1:i])
            here = label if label == "*" else ".".join(filter(None, [label, inner]))
            uses.add((here, parts[i]))
    return uses


def _data_strings(path):
    """The strings of a recorded-data file: JSON strings and keys, npz keys, split
    at '/', ':' and '|' as the recorders join case names."""
    if path.suffix == ".json":
        found = set()
        _collect(json.loads(path.read_text()), found)
    elif path.suffix == ".npz":
        import numpy as np
        with np.load(path, allow_pickle=False) as data:
            found = set(data.files)
    else:
        return set()
    return {piece for s in found for piece in re.split(r"[/:|]", s)} | found


def _collect(value, found):
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found.add(k)
            _collect(v, found)
    elif isinstance(value, list):
        for v in value:
            _collect(v, found)


def _recorded_modules():
    """The test modules that check against recorded values, and the recorders
    (tools/record_*.py) they take their cases from."""
    found, tools = [], set()
    for path in sorted(TESTS.rglob("*.py")):
        if path.relative_to(TESTS).parts[0] in LEFT_OUT:
            continue
        text = path.read_text(errors="replace")
        if "keras" in text and _RECORDED.search(text):
            found.append(path)
            tools.update(_TOOL_IMPORT.findall(text))
    return found + [ROOT / "tools" / f"{name}.py" for name in sorted(tools)]


def evidence():
    """({(label, name)} used dotted or imported, {strings} in tables and data files)."""
    uses, strings, texts = set(), set(), []
    for path in _recorded_modules():
        text = path.read_text(errors="replace")
        texts.append(text)
        imports, literals = _parse(text)
        aliases = _aliases(text, imports)
        uses |= _dotted_uses(text, aliases)
        uses |= {(label, label.rsplit(".", 1)[1]) for label in aliases.values()
                 if "." in label}
        uses |= {(label.rsplit(".", 1)[0], label.rsplit(".", 1)[1])
                 for label in aliases.values() if "." in label}
        strings |= literals
    joined = "\n".join(texts)
    for path in sorted((TESTS / "data").glob("*")):
        if path.name not in LEFT_OUT_DATA and path.name in joined:
            strings |= _data_strings(path)
    return uses, strings


def untested(keras, names=None):
    """{label: [untested names]} for every namespace of `names`."""
    names = names or keras_names(keras)
    uses, strings = evidence()
    wild = {n for label, n in uses if label == "*"}
    tested_ids = set()
    for label, have in names.items():
        module = _resolve(keras, label)
        for n in have:
            if (label, n) in uses or n in wild or n in strings:
                tested_ids.add(id(getattr(module, n)))
    missing = {}
    for label, have in names.items():
        module = _resolve(keras, label)
        missing[label] = [n for n in have if id(getattr(module, n)) not in tested_ids]
    return missing


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help=f"record the untested names in {UNTESTED.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import runtime
    keras = runtime.keras
    names = keras_names(keras)
    missing = untested(keras, names)
    total = sum(len(v) for v in names.values())
    left = sum(len(v) for v in missing.values())
    print(f"{'namespace':32} {'names':>5} {'tested':>6}  untested")
    for label, have in names.items():
        gone = missing[label]
        print(f"{label:32} {len(have):5} {len(have) - len(gone):6}  {' '.join(gone)}")
    print(f"{'all':32} {total:5} {total - left:6}  ({left} untested)")
    if args.write:
        UNTESTED.write_text(json.dumps({k: v for k, v in missing.items() if v},
                                       indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
