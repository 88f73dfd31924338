"""The layer maps of docs/architecture.md, generated from the import-linter
contracts (.importlinter) and each package's or module's docstring.

    python3 tools/layer_map.py            # print the maps
    python3 tools/layer_map.py --write    # rewrite them in docs/architecture.md
    python3 tools/layer_map.py --check    # exit 1 when the document is stale

A map lists a contract's layers top to bottom, numbered from the bottom (1
imports nothing else of its container), each name with the first sentence
of its docstring (a leading "Layer N, name:" dropped). Each map sits in the
document between `<!-- layer map: CONTRACT -->` and `<!-- end layer map -->`;
tests/test_architecture_map.py checks that it is current.
"""

import argparse
import ast
import configparser
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
CONTRACTS = ("runtime-layers", "keras-layers", "keras-layer-kinds", "autograph-layers")
WIDTH = 92
_BLOCK_RE = re.compile(r"(<!-- layer map: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end layer map -->)",
                       re.S)
_LAYER_PREFIX_RE = re.compile(r"^Layer\b[^:]*:\s*")


def contract(name, path=ROOT / ".importlinter"):
    """(container, [[name, ...], ...] top to bottom) of a layers contract."""
    parser = configparser.ConfigParser()
    parser.read(path)
    section = parser[f"importlinter:contract:{name}"]
    container = section["containers"].split()[0]
    rows = [[part.strip() for part in re.split(r"[|:]", line)]   # independent | or not :
            for line in section["layers"].strip().splitlines() if line.strip()]
    return container, rows


def separators(name, path=ROOT / ".importlinter"):
    """Each row's separator: "|" (independent siblings) or ":" (siblings that
    may import each other)."""
    parser = configparser.ConfigParser()
    parser.read(path)
    lines = parser[f"importlinter:contract:{name}"]["layers"].strip().splitlines()
    return [":" if ":" in line else "|" for line in lines if line.strip()]


def source_of(container, name):
    """The file of `container.name`: a package's __init__.py or a module."""
    base = ROOT.joinpath(*container.split("."), *name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def summary(container, name):
    """The first sentence of the docstring of `container.name`."""
    doc = ast.get_docstring(ast.parse(source_of(container, name).read_text())) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    text = _LAYER_PREFIX_RE.sub("", text)
    match = re.match(r"(.+?\.)(?:\s|$)", text)
    sentence = match.group(1) if match else text
    return sentence[:-1] + "." if sentence.endswith(":") else sentence


def render(name):
    """The map of contract `name`, as the lines of a fenced block."""
    container, rows = contract(name)
    lines = ["```", f"layer  {container.replace('.', '/')}/ (each imports only the layers "
             "below it)"]
    width = max([21] + [len(part) + 8 for row in rows for part in row])
    for number, row, sep in zip(range(len(rows), 0, -1), rows, separators(name)):
        for i, part in enumerate(row):
            head = f"{number:>5}  {part}" if i == 0 else f"{sep:>7} {part}"
            wrapped = textwrap.wrap(summary(container, part), WIDTH - width - 1) or [""]
            lines.append(f"{head:<{width}} {wrapped[0]}".rstrip())
            lines.extend(f"{'':<{width}} {more}" for more in wrapped[1:])
    lines.append("```")
    return "\n".join(lines) + "\n"


def rewrite(text):
    """`text` with every layer-map block regenerated."""
    return _BLOCK_RE.sub(lambda m: m.group(1) + render(m.group("name")) + m.group(4), text)


def layer_numbers(name):
    """{package: its layer number, counted from the bottom} of contract `name`."""
    _, rows = contract(name)
    return {part: len(rows) - i for i, row in enumerate(rows) for part in row}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite docs/architecture.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when it is stale")
    args = parser.parse_args(argv)
    text = DOC.read_text()
    new = rewrite(text)
    if args.check:
        if new != text:
            print("docs/architecture.md: a layer map is stale; run "
                  "python3 tools/layer_map.py --write", file=sys.stderr)
            return 1
        return 0
    if args.write:
        DOC.write_text(new)
        return 0
    for name in CONTRACTS:
        sys.stdout.write(render(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
