"""`autograph check` with the real transpiler: statuses, reasons, -v report."""

import textwrap

import pytest

from autograph import cli
from autograph.cli import transpiler as cli_transpiler
from conftest import run_cli

MODULE = textwrap.dedent('''\
    import math

    COUNT = 0


    def bump(flag):
        global COUNT
        if flag:
            COUNT += 1
        return COUNT


    def risky(xs):
        for x in xs:
            if x:
                yield x
        if xs:
            return


    def plain(x):
        return x + 1


    def loop(xs, limit):
        total = 0
        for x in xs:
            if x > limit:
                break
            total += helper(x) + math.floor(x)
        return total if total else -1
    ''')


@pytest.fixture
def module(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(MODULE)
    return path


def test_check_statuses_and_exit_code(module):
    proc = run_cli("check", str(module))
    assert proc.returncode == 1
    assert proc.stderr == ""
    assert proc.stdout.splitlines() == [
        f"{module}:6: bump: converted",
        f"{module}:13: risky: not convertible: generators (yield) are not supported "
        f"({module}:16)",
        f"{module}:21: plain: unchanged (no control flow)",
        f"{module}:25: loop: converted",
    ]


def test_check_only_convertible_functions_exits_zero(module):
    proc = run_cli("check", str(module), "--function", "plain", "--function", "loop")
    assert proc.returncode == 0, proc.stdout


def test_verbose_report_per_statement(module):
    proc = run_cli("check", "-v", str(module), "--function", "loop")
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0] == f"{module}:25: loop: converted"
    assert lines[1:] == [
        "    line 27   for x in xs:                        for_stmt: staged as while_loop "
        "over a tensor (or range of a tensor), else unrolled in Python",
        "    line 28   if x > limit:                       if_stmt: staged as cond when the "
        "test is a tensor, else runs as Python",
        "    line 29   break                               becomes the flag break_ (checked "
        "by the loop test)",
        "    line 30   total += helper(x) + math.floor(x)  call helper: converted when it is "
        "user code (decided at run time)",
        "    line 30   total += helper(x) + math.floor(x)  call math.floor: runs as is "
        "(library, builtin or class)",
        "    line 31   return total if total else -1       if_exp: staged as cond when the "
        "test is a tensor, else Python",
    ]


def test_convert_keeps_unconvertible_functions_with_one_warning_each(module, tmp_path):
    out = tmp_path / "out.py"
    proc = run_cli("convert", str(module), "-o", str(out))
    assert proc.returncode == 0
    assert proc.stderr.splitlines() == [
        f"autograph: warning: {module}:13: risky kept as is: generators (yield) are not supported "
        f"({module}:16)",
    ]
    text = out.read_text()
    # A global written in a branch: the branch function declares it too.
    assert "    def if_body():\n        global COUNT\n        COUNT += 1\n" in text
    assert "@autograph.do_not_convert\ndef loop(xs, limit):" in text


def test_transpiler_crash_is_reported_not_raised(module, monkeypatch, capsys):
    def crash(*args, **kwargs):
        raise KeyError("boom")
    monkeypatch.setattr(cli_transpiler, "transpile", crash)
    assert cli.main(["check", str(module), "--function", "loop"]) == 1
    assert capsys.readouterr().out == (f"{module}:25: loop: not convertible: the transpiler "
                                       f"failed: KeyError: 'boom' ({module}:25)\n")
