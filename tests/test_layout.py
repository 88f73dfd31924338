"""The repository's shape: test folders small enough to read (at most 40 test
modules at one level, tests/runtime laid out like runtime/_src), and no
tracked file naming a path of one particular machine (a TensorFlow
interpreter comes from $BENCH_TF_PYTHON instead)."""

import os
import re
import subprocess

from tests.paths import ROOT

MOST_MODULES = 40
# absolute paths of the machine the project grew on: its workspace, home
# folders and TensorFlow virtualenvs (written so this file does not match)
MACHINE_PATH = re.compile(r"(?<![\w.~$])/(?:work|home|root|Users)/|/tmp/tf" r"venv")
CLUES = tuple(f"/{top}/" for top in ("work", "home", "root", "Users")) + ("/tmp/tf" "venv",)


def _test_folders():
    for folder, dirs, files in os.walk(ROOT / "tests"):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        yield folder, [f for f in files if f.startswith("test_") and f.endswith(".py")]


def test_no_test_folder_holds_more_than_40_modules():
    crowded = {os.path.relpath(folder, ROOT): len(modules)
               for folder, modules in _test_folders() if len(modules) > MOST_MODULES}
    assert crowded == {}, f"split these into subfolders (at most {MOST_MODULES} test modules)"


def test_runtime_tests_follow_the_packages():
    # a test module of the runtime sits in the folder of its package (or a
    # family folder under ops/), not in one flat folder
    top = [f for f in os.listdir(ROOT / "tests" / "runtime") if f.startswith("test_")]
    assert len(top) <= 8, f"tests/runtime holds {len(top)} modules at its top: {sorted(top)}"
    packages = set(os.listdir(ROOT / "runtime" / "_src"))
    folders = {d for d in os.listdir(ROOT / "tests" / "runtime")
               if os.path.isdir(ROOT / "tests" / "runtime" / d) and not d.startswith(("_", "."))}
    assert folders <= packages, f"not packages of runtime/_src: {sorted(folders - packages)}"


def test_test_module_names_are_unique():
    # pytest imports test modules by file name (no __init__.py): two alike clash
    seen = {}
    for folder, modules in _test_folders():
        for name in modules:
            seen.setdefault(name, []).append(os.path.relpath(folder, ROOT))
    assert {n: f for n, f in seen.items() if len(f) > 1} == {}


def _tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                            check=False)
    if listed.returncode == 0:
        return [ROOT / name for name in listed.stdout.decode().split("\0") if name]
    return list(_files_but_caches())     # not a git checkout: an unpacked source archive


def _files_but_caches():
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__")) and not d.endswith(".egg-info")]
        for name in files:
            yield ROOT / folder / name


def test_no_file_names_a_machine_path():
    found = []
    for path in _tracked_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue                    # binary data (npz, zips), or a removed file
        if not any(clue in text for clue in CLUES):
            continue
        for match in MACHINE_PATH.finditer(text):
            number = text.count("\n", 0, match.start()) + 1
            line = text.splitlines()[number - 1]
            found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == [], "name the interpreter by $BENCH_TF_PYTHON, paths relative to the " \
                        "repository:\n" + "\n".join(found)
