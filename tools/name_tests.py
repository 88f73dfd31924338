"""Which of our public TensorFlow names some test exercises (a static check).

    python3 tools/name_tests.py              # per-namespace table and the untested names
    python3 tools/name_tests.py --untested   # just the untested names, one a line

The names are those tools/api_listing.py walks under `tf` (`import runtime as
tf`), `tf.keras` left out (tests/keras covers Keras). A
name counts as tested when a test module under tests/ (or a case table a test
replays: tools/tf_special*.py) names it:

- as an attribute chain from the runtime, e.g. `tf.image.resize(...)`,
  `tnp.abs` after `import runtime.experimental.numpy as tnp`, `linalg.expm`
  after `from runtime import linalg`, `Dataset.range` after
  `Dataset = tf.data.Dataset` (every prefix of a chain counts, so
  `tf.data.Dataset.range` names `tf.data.Dataset`);
- through `from runtime.image import resize`;
- as a string, in a test module or a JSON file under tests/data: the dotted
  name (`"tf.image.resize"` or `"image.resize"`), or a bare name next to its
  namespace in `getattr(tf.image, "resize")`.

A name bound to the very object of a tested name (`tf.linalg.matmul` is
`tf.matmul`) counts as tested through that alias; the table says how many.
tests/tools/test_name_tests.py keeps the list of untested names from growing
(UNTESTED there may only shrink).
"""

import argparse
import json
import pathlib
import re
import sys
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from api_listing import ROOT, _is_namespace, namespaces, public_names  # noqa: E402

TESTS = ROOT / "tests"
CASE_TABLES = ("tools/tf_special.py", "tools/tf_special_keras.py")
RECORD = ROOT / "tests" / "data" / "public_names.json"
NOT_TESTS = {RECORD.name}
RATCHET = "test_name_tests.py"     # its list of untested names names them all     # TF's name list (tools/api_coverage.py), no test
ROOT_NAMES = {"tf": "tf", "runtime": "tf", "tnp": "tf.experimental.numpy"}
# `tf.image.resize(`, `tnp.abs(M)` inside a string (a table of expressions)
EXPRESSION = re.compile(r"(?<![\w.])(tf|runtime|tnp)((?:\.[A-Za-z_]\w*)+)")


def _lookup(root, dotted):
    value = root
    for part in dotted.split(".")[1:]:
        if not hasattr(value, part):
            return _ABSENT
        value = getattr(value, part)
    return value


_ABSENT = object()


def tf_names():
    """TF 2.21's public names under tf (tests/data/public_names.json), tf.keras left out."""
    recorded = json.loads(RECORD.read_text())["names"]
    return [f"{label}.{name}" for label, names in recorded.items()
            if label == "tf" or label.startswith("tf.") for name in names
            if not label.startswith("tf.keras")]


def our_names(runtime):
    """{dotted name: object}: every public non-namespace name the listing walks
    under tf, and every TF 2.21 name that resolves here (`tf.data.experimental.*`
    hangs off a class the listing does not enter), tf.keras left out."""
    names = {}
    for label, module in namespaces(runtime):
        if label == "tf.keras" or label.startswith("tf.keras."):
            continue
        for name in public_names(module):
            value = getattr(module, name, None)
            if not _is_namespace(value) and f"{label}.{name}" != "tf.keras":
                names[f"{label}.{name}"] = value
    for dotted in tf_names():
        value = _lookup(runtime, dotted)
        if value is not _ABSENT and not _is_namespace(value):
            names.setdefault(dotted, value)
    return dict(sorted(names.items()))


def _module_label(module):
    """'runtime.image' -> 'tf.image'; None for modules outside the runtime's public names."""
    parts = module.split(".")
    if parts[0] != "runtime" or any(p.startswith("_") for p in parts):
        return None
    return ".".join(["tf"] + parts[1:])


IMPORT = re.compile(r"^\s*import\s+([\w.]+)(?:\s+as\s+(\w+))?", re.M)
FROM = re.compile(r"^\s*from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n#]*)", re.M)
ASSIGN = re.compile(r"^\s*(\w+)\s*=\s*([A-Za-z_][\w.]*)\s*(?:#.*)?$", re.M)
CHAIN = re.compile(r"(?<![\w.])([A-Za-z_]\w*)((?:\s*\.\s*[A-Za-z_]\w*)+)")
GETATTR = re.compile(r"\b(?:getattr|hasattr)\(\s*([A-Za-z_][\w.]*)\s*,\s*"
                     r"(?:[\"']([\w.]+)[\"']|[A-Za-z_])")
COMMENT = re.compile(r"#[^\n\"']*$", re.M)
STRING = re.compile(r"[\"']([^\"'\n]{1,400})[\"']")


class _Source:
    """What one Python module refers to (a regular-expression reading, fast
    enough for a test): dotted names from the runtime and their prefixes, its
    strings, the words it imports, and the namespaces it indexes with a
    computed name (`getattr(tf.signal, fn)`)."""

    def __init__(self, text):
        text = COMMENT.sub("", text)
        self.aliases = dict(ROOT_NAMES)
        self.found, self.dynamic, self.words = set(), set(), set()
        self.strings = set(STRING.findall(text))
        self._imports(text)
        for match in ASSIGN.finditer(text):
            dotted = self._resolve(match.group(2))
            if dotted:
                self.aliases[match.group(1)] = dotted
        for match in CHAIN.finditer(text):
            if match.group(1) in self.aliases:
                self._add(self._resolve(match.group(1) + re.sub(r"\s", "", match.group(2))))
        for match in GETATTR.finditer(text):
            base = self._resolve(match.group(1))
            if base and match.group(2):
                self._add(f"{base}.{match.group(2)}")
            elif base:
                self.dynamic.add(base)

    def _imports(self, text):
        for match in IMPORT.finditer(text):
            self.words.add(match.group(1))
            label = _module_label(match.group(1))
            if label:
                self._add(label)
                if match.group(2):
                    self.aliases[match.group(2)] = label
        for match in FROM.finditer(text):
            label = _module_label(match.group(1))
            for item in match.group(2).strip("()").split(","):
                parts = item.split("#")[0].split()
                if not parts:
                    continue
                self.words.add(parts[0])
                if label:
                    self.aliases[parts[-1]] = f"{label}.{parts[0]}"
                    self._add(f"{label}.{parts[0]}")

    def _resolve(self, dotted):
        head, _, rest = dotted.partition(".")
        if head not in self.aliases:
            return None
        return self.aliases[head] + ("." + rest if rest else "")

    def _add(self, dotted):
        parts = dotted.split(".")
        self.found.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))


def _data_strings(value, out):
    """Every string in a JSON document."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            _data_strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _data_strings(item, out)


def _npz_strings(path, out):
    """An npz's keys (each part of 'case/what') and its string arrays (JSON ones parsed)."""
    import numpy as np
    with zipfile.ZipFile(path) as archive:
        for member in archive.namelist():
            key = member[:-len(".npy")]
            out.update(key.split("/"))
            with archive.open(member) as f:
                header = f.read(256)       # the magic, then the header's dict
            if b"'descr': '<U" not in header and b"'descr': '>U" not in header:
                continue
            array = np.lib.format.read_array(archive.open(member), allow_pickle=False)
            for text in array.ravel().tolist():
                out.add(text)
                if text[:1] in "[{":
                    try:
                        _data_strings(json.loads(text), out)
                    except ValueError:
                        pass


def _visit(path):
    return _Source(path.read_text())


def _data_file_strings(path):
    out = set()
    if path.suffix == ".json":
        _data_strings(json.loads(path.read_text()), out)
    else:
        _npz_strings(path, out)
    return out


def uses(root=ROOT):
    """(dotted names the tests refer to, every string they hold) over the tests,
    the tools/ tables they load and the data under tests/data.

    A test module indexing a namespace with a computed name (`getattr(tf.signal,
    fn)`) names each string of its own group (itself, the tools/ tables it
    loads, the data files those name) that is a name of that namespace.
    """
    data = {p.name: p for p in sorted((root / "tests" / "data").rglob("*"))
            if p.suffix in (".json", ".npz") and p.name not in NOT_TESTS}
    tools = {p.stem: p for p in sorted((root / "tools").glob("*.py"))}
    cache = {}

    def visit(path):
        if path not in cache:
            cache[path] = _visit(path)
        return cache[path]

    def data_strings(name):
        if name not in cache:
            cache[name] = _data_file_strings(data[name])
        return cache[name]

    found, strings = set(), set()
    for path in sorted((root / "tests").rglob("*.py")):
        if path.name == RATCHET:
            continue
        group = [visit(path)]
        mentioned = group[0].words | group[0].strings
        group += [visit(tools[stem]) for stem in sorted(mentioned & tools.keys())]
        texts = set().union(*(v.strings for v in group))
        joined = "\n".join(texts)
        texts |= set().union(*(data_strings(n) for n in sorted(data) if n in joined))
        for visitor in group:
            found |= visitor.found
            for base in visitor.dynamic:
                found.update(f"{base}.{t}" for t in texts if t.isidentifier() or "." in t)
        strings |= texts
    for path in CASE_TABLES:
        visitor = visit(root / path)
        found |= visitor.found
        strings |= visitor.strings
    for name in data:
        strings |= data_strings(name)
    for text in strings:
        for match in EXPRESSION.finditer(text):
            parts = (ROOT_NAMES[match.group(1)] + match.group(2)).split(".")
            found.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
    return found, strings


def _named(dotted, found, strings):
    return dotted in found or dotted in strings or dotted[len("tf."):] in strings


def tested(names, found, strings):
    """{dotted name: 'direct' | 'alias' | None}."""
    status = {n: ("direct" if _named(n, found, strings) else None) for n in names}
    by_object = {}
    for name, value in names.items():
        if status[name] and value is not None and not isinstance(value, (int, float, str)):
            by_object.setdefault(id(value), name)
    for name, value in names.items():
        if status[name] is None and id(value) in by_object and value is not None:
            status[name] = "alias"
    return status


def report(status):
    """Rows (namespace, names, tested, aliases, [untested]) sorted by namespace."""
    rows = {}
    for dotted, how in status.items():
        label = dotted.rsplit(".", 1)[0]
        row = rows.setdefault(label, [0, 0, 0, []])
        row[0] += 1
        row[1] += how is not None
        row[2] += how == "alias"
        if how is None:
            row[3].append(dotted)
    return [(label, *rows[label]) for label in sorted(rows)]


def compute():
    sys.path.insert(0, str(ROOT))
    import runtime
    names = our_names(runtime)
    return names, tested(names, *uses())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--untested", action="store_true",
                        help="print only the untested names, one a line")
    args = parser.parse_args(argv)
    _, status = compute()
    if args.untested:
        print("\n".join(sorted(n for n, how in status.items() if how is None)))
        return 0
    rows = report(status)
    total = sum(r[1] for r in rows)
    have = sum(r[2] for r in rows)
    print(f"{'namespace':40} {'names':>6} {'tested':>7} {'alias':>6} {'untested':>9}")
    for label, n, t, a, missing in rows:
        print(f"{label:40} {n:6} {t:7} {a:6} {n - t:9}")
    print(f"{'all':40} {total:6} {have:7} {sum(r[3] for r in rows):6} {total - have:9}"
          f"   ({100 * have / total:.1f}% tested)")
    theirs = tf_names()
    both = sum(status.get(n) is not None for n in theirs)
    print(f"TF 2.21's {len(theirs)} names under tf: {sum(n in status for n in theirs)} here, "
          f"{both} here with a test ({100 * both / len(theirs):.1f}%)")
    for label, n, t, a, missing in rows:
        if missing:
            print(f"\n{label} ({len(missing)} untested): "
                  + ", ".join(m.rsplit(".", 1)[1] for m in missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
