"""`autograph convert` on its own output changes nothing, and `check` says the
file is already converted (subprocess runs on the examples and test modules)."""

import glob
import os

import pytest

from conftest import MODULES, ROOT, run_cli

FILES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.py"))) + [
    os.path.join(MODULES, "numeric_loops.py"), os.path.join(MODULES, "classes_methods.py")]


def _convert(path, out):
    done = run_cli("convert", path, "-o", str(out))
    assert done.returncode == 0, done.stderr
    return out.read_bytes()


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_second_pass_is_byte_identical(path, tmp_path):
    once = _convert(path, tmp_path / "once.py")
    twice = _convert(str(tmp_path / "once.py"), tmp_path / "twice.py")
    assert twice == once
    assert once.count(b"@autograph.do_not_convert") == twice.count(b"@autograph.do_not_convert")


def test_three_passes_keep_the_line_count(tmp_path):
    path = os.path.join(ROOT, "examples", "print_side_effects.py")
    counts = []
    for i in range(3):
        out = tmp_path / f"pass{i}.py"
        counts.append(len(_convert(path, out).splitlines()))
        path = str(out)
    assert counts[0] == counts[1] == counts[2]


def test_check_says_the_file_is_already_converted(tmp_path):
    out = tmp_path / "converted.py"
    _convert(os.path.join(MODULES, "numeric_loops.py"), out)
    done = run_cli("check", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert f"{out}:" in lines[0] and lines[0].endswith(": already converted (kept as is)")
    assert lines[-1] == (f"{out}: already converted by `autograph convert`; "
                         "converting it again changes nothing")
    assert not any(line.endswith(": converted") for line in lines)


def test_check_of_an_unconverted_file_does_not_say_already(tmp_path):
    done = run_cli("check", os.path.join(MODULES, "numeric_loops.py"))
    assert done.returncode == 0, done.stderr
    assert "already" not in done.stdout


def test_a_partly_converted_file_converts_only_the_rest(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f(x):\n    if x > 0:\n        x = -x\n    return x\n\n\n"
                   "def g(x):\n    while x > 10:\n        x = x - 10\n    return x\n")
    done = run_cli("convert", str(src), "--function", "f")
    assert done.returncode == 0, done.stderr
    src.write_text(done.stdout)
    done = run_cli("check", str(src))
    assert f"{src}:" in done.stdout and ": f: already converted (kept as is)" in done.stdout
    assert ": g: converted" in done.stdout and "converting it again" not in done.stdout
    full = run_cli("convert", str(src)).stdout
    assert full.count("@autograph.do_not_convert") == 2
    assert full.count("from autograph import operators as ag__") == 1
    assert run_cli("convert", "-", stdin=full).stdout == full


def test_a_function_marked_by_hand_is_kept_and_not_called_converted(tmp_path):
    src = tmp_path / "m.py"
    text = ("import autograph\n\n\n@autograph.do_not_convert\ndef f(x):\n"
            "    if x > 0:\n        x = -x\n    return x\n")
    src.write_text(text)
    assert run_cli("convert", str(src)).stdout == text
    done = run_cli("check", str(src), "-v")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == \
        f"{src}:5: f: unchanged (marked @autograph.do_not_convert)"
    assert "already" not in done.stdout
