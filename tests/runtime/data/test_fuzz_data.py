"""tools/fuzz_data.py (the fuzzer's dataset mode): a few seeded programs run
eagerly and staged agree, and the programs are what the docstring says."""

import importlib.util
import os

from tests.paths import ROOT as ROOT_PATH

ROOT = str(ROOT_PATH)
_spec = importlib.util.spec_from_file_location("fuzz_data",
                                               os.path.join(ROOT, "tools", "fuzz_data.py"))
fuzz_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_data)


def test_programs_are_deterministic_and_loop_over_datasets():
    assert fuzz_data.program(7) == fuzz_data.program(7)
    sources = [fuzz_data.program(s) for s in range(30)]
    assert all("    for x in ds:\n" in s for s in sources)
    assert any(".shuffle(" in s for s in sources) and any("break" in s for s in sources)
    assert any("return s * 1000" in s.split("for x in ds:")[1].split("\n    return")[0]
               for s in sources)


def test_a_few_seeds_agree(capsys):
    assert fuzz_data.main(["--count", "12", "--seed", "3"]) == 0
    assert capsys.readouterr().out.endswith("12 programs, 0 mismatches\n")
