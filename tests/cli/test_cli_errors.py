"""Bad input: one line on stderr, exit status 2, no traceback, no output file."""

import os
import stat

import pytest

from conftest import MODULES, run_cli


def _assert_clean_failure(proc, expected, outdir=None, code=2):
    assert proc.returncode == code, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert lines[0].startswith("autograph: error: ")
    assert expected in lines[0], lines[0]
    assert proc.stdout == ""
    if outdir is not None:
        assert os.listdir(outdir) == [], "output (or a temp file) was left behind"


def _write(path, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)
    return str(path)


@pytest.mark.parametrize("command", ["convert", "check"])
def test_missing_file(tmp_path, command):
    out = tmp_path / "out"
    out.mkdir()
    args = [command, str(tmp_path / "nope.py")]
    if command == "convert":
        args += ["-o", str(out / "x.py")]
    proc = run_cli(*args)
    _assert_clean_failure(proc, f"{tmp_path / 'nope.py'}: no such file", out)


@pytest.mark.parametrize("command", ["convert", "check"])
def test_directory(tmp_path, command):
    proc = run_cli(command, str(tmp_path))
    _assert_clean_failure(proc, f"{tmp_path}: is a directory; expected a Python file")


@pytest.mark.parametrize("source, where, message", [
    ("def f(x):\n    return x +\n", ":2:15:", "SyntaxError: invalid syntax"),
    ("x = 1\ndef f(:\n", ":2:7:", "SyntaxError: invalid syntax"),
    ("def f():\n  x = 1\n    y = 2\n", ":3:4:", "IndentationError: unexpected indent"),
    ("s = 'abc\n", ":1:5:", "SyntaxError: unterminated string literal"),
    ("def f(x):\n    return x\0\n", ":2:13:",
     "SyntaxError: source code string cannot contain null bytes"),
])
def test_syntax_error_reports_file_line_col(tmp_path, source, where, message):
    out = tmp_path / "out"
    out.mkdir()
    path = _write(tmp_path / "bad.py", source)
    proc = run_cli("convert", path, "-o", str(out / "bad_ag.py"))
    _assert_clean_failure(proc, f"{path}{where} {message}", out)


def test_syntax_error_matches_python_position(tmp_path):
    source = "def f(x):\n    if x\n        return 1\n"
    path = _write(tmp_path / "bad.py", source)
    try:
        compile(source, path, "exec")
    except SyntaxError as e:
        expected = f"{path}:{e.lineno}:{e.offset}: SyntaxError: {e.msg}"
    proc = run_cli("check", path)
    _assert_clean_failure(proc, expected)


def test_non_utf8_file(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    path = _write(tmp_path / "latin.py", b"# caf\xe9\ndef f():\n    return 1\n")
    proc = run_cli("convert", path, "-o", str(out / "x.py"))
    _assert_clean_failure(proc, f"{path}:1: not valid UTF-8 (byte 0xe9 at offset 5)", out)


@pytest.mark.parametrize("content", [b"", b"\n\n   \n"])
def test_empty_file(tmp_path, content):
    out = tmp_path / "out"
    out.mkdir()
    path = _write(tmp_path / "empty.py", content)
    proc = run_cli("convert", path, "-o", str(out / "x.py"))
    _assert_clean_failure(proc, f"{path}: file is empty; nothing to convert", out)


def test_empty_stdin():
    proc = run_cli("check", "-", stdin="")
    _assert_clean_failure(proc, "<stdin>: file is empty")


@pytest.mark.parametrize("command", ["convert", "check"])
def test_unknown_function_name(tmp_path, command):
    out = tmp_path / "out"
    out.mkdir()
    path = os.path.join(MODULES, "classes_methods.py")
    args = [command, path, "--function", "Accumulator.add", "--function", "nosuch"]
    if command == "convert":
        args += ["-o", str(out / "x.py")]
    proc = run_cli(*args)
    _assert_clean_failure(proc, f"{path}: no function named 'nosuch' (top-level functions "
                                "and methods found: Accumulator.__init__, Accumulator.add", out)


def test_unknown_method_of_known_class(tmp_path):
    path = os.path.join(MODULES, "classes_methods.py")
    proc = run_cli("convert", path, "--function", "Polynomial.nosuch")
    _assert_clean_failure(proc, "no function named 'Polynomial.nosuch'")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_unwritable_output_directory(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        path = os.path.join(MODULES, "numeric_loops.py")
        proc = run_cli("convert", path, "-o", str(locked / "out.py"))
        _assert_clean_failure(proc, f"{locked / 'out.py'}: cannot write: permission denied")
        assert os.listdir(locked) == []
    finally:
        locked.chmod(stat.S_IRWXU)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_unwritable_output_directory_even_for_root():
    """/proc takes no new files, whoever asks: the unwritable case also runs as root
    (as CI does), where the permission test above is skipped."""
    target = "/proc/autograph_out.py"
    proc = run_cli("convert", os.path.join(MODULES, "numeric_loops.py"), "-o", target)
    _assert_clean_failure(proc, f"{target}: cannot write: cannot create a file in /proc")
    assert not os.path.exists(target)


def test_output_in_missing_directory(tmp_path):
    path = os.path.join(MODULES, "numeric_loops.py")
    target = tmp_path / "no" / "such" / "dir" / "out.py"
    proc = run_cli("convert", path, "-o", str(target))
    _assert_clean_failure(proc, f"{target}: cannot write: directory {target.parent} "
                                "does not exist")
    assert not (tmp_path / "no").exists()


def test_output_is_a_directory(tmp_path):
    path = os.path.join(MODULES, "numeric_loops.py")
    proc = run_cli("convert", path, "-o", str(tmp_path))
    _assert_clean_failure(proc, f"{tmp_path}: is a directory; expected an output file path")
    assert os.listdir(tmp_path) == []


def test_failed_conversion_keeps_existing_output(tmp_path):
    target = tmp_path / "out.py"
    target.write_text("# previous output\n")
    bad = _write(tmp_path / "bad.py", "def f(:\n")
    proc = run_cli("convert", bad, "-o", str(target))
    assert proc.returncode == 2
    assert target.read_text() == "# previous output\n"
    assert sorted(os.listdir(tmp_path)) == ["bad.py", "out.py"]


def test_no_subcommand_prints_help_and_fails():
    proc = run_cli()
    assert proc.returncode == 2
    assert "usage: autograph" in proc.stderr
    assert "convert" in proc.stderr and "check" in proc.stderr and "graph" in proc.stderr


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux /proc")
def test_output_where_no_file_can_be_created(tmp_path):
    # /proc refuses new files even for root: the rename-into-place never happens.
    path = os.path.join(MODULES, "numeric_loops.py")
    proc = run_cli("convert", path, "-o", "/proc/autograph_out.py")
    _assert_clean_failure(proc, "/proc/autograph_out.py: cannot write: cannot create a file "
                                "in /proc")
    assert not os.path.exists("/proc/autograph_out.py")


def test_directory_with_output_leaves_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    proc = run_cli("convert", str(tmp_path), "-o", str(out / "x.py"))
    _assert_clean_failure(proc, f"{tmp_path}: is a directory; expected a Python file", out)


@pytest.mark.parametrize("data, expected", [
    ("def f(x:\n    return x\n", "<stdin>:1:6: SyntaxError: '(' was never closed"),
    (b"x = 1\n\xff\n", "<stdin>:2: not valid UTF-8 (byte 0xff at offset 6)"),
    ("\n  \n", "<stdin>: file is empty; nothing to convert"),
])
@pytest.mark.parametrize("command", ["convert", "check"])
def test_bad_stdin(tmp_path, command, data, expected):
    out = tmp_path / "out"
    out.mkdir()
    args = [command, "-"] + (["-o", str(out / "x.py")] if command == "convert" else [])
    proc = run_cli(*args, stdin=data)
    if isinstance(data, bytes):        # binary stdin: the output comes back as bytes
        proc.stdout, proc.stderr = proc.stdout.decode(), proc.stderr.decode()
    _assert_clean_failure(proc, expected, out)


def test_diff_of_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    path = _write(tmp_path / "bad.py", "def f(x):\n    if x\n        return 1\n")
    proc = run_cli("convert", path, "--diff", "-o", str(out / "x.diff"))
    _assert_clean_failure(proc, f"{path}:2:9: SyntaxError: expected ':'", out)


def test_diff_to_missing_directory(tmp_path):
    path = os.path.join(MODULES, "numeric_loops.py")
    target = tmp_path / "missing" / "x.diff"
    proc = run_cli("convert", path, "--diff", "-o", str(target))
    _assert_clean_failure(proc, f"{target}: cannot write: directory {target.parent} "
                                "does not exist")
    assert os.listdir(tmp_path) == []


def test_diff_to_file_is_the_diff(tmp_path):
    path = _write(tmp_path / "m.py", "def f(x):\n    return not x\n")
    target = tmp_path / "m.diff"
    proc = run_cli("convert", path, "--diff", "-o", str(target))
    assert proc.returncode == 0 and proc.stdout == proc.stderr == ""
    diff = target.read_text()
    assert diff.startswith(f"--- {path}\n+++ {path} (converted)\n")
    assert "-    return not x\n" in diff and "+    return ag__.not_(x)\n" in diff


@pytest.mark.parametrize("command", [None, "convert", "check", "graph"])
def test_help_has_examples(command):
    proc = run_cli(*([command] if command else []), "--help")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith(f"usage: autograph{' ' + command if command else ''} ")
    examples = proc.stdout.split("examples:\n", 1)[1].splitlines()
    assert examples[0].startswith(f"  autograph {command or 'convert'} ")


def test_version():
    import autograph
    proc = run_cli("--version")
    assert proc.returncode == 0
    assert proc.stdout == f"autograph {autograph.__version__}\n"
