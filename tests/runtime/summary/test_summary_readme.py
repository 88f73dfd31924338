"""The README's "Checkpoints and TensorBoard" example runs and prints what it says."""

import os
import re

from tests import fresh_process
from tests.extras import skip_module_without
from tests.paths import ROOT as ROOT_PATH

skip_module_without("tensorboard", "-e '.[tensorboard]'")

ROOT = str(ROOT_PATH)


def test_readme_checkpoints_and_tensorboard_example(tmp_path):
    from tensorboard.backend.event_processing import event_accumulator as ea
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    start = readme.index("## Checkpoints and TensorBoard\n")
    section = readme[start:readme.index("\n## ", start + 1)]
    code, printed = re.search(r"```python\n(.*?)```\s*prints\s*```\n(.*?)```", section,
                              re.S).groups()
    (tmp_path / "demo.py").write_text(code, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = fresh_process.run(["demo.py"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout == printed
    train = ea.EventAccumulator(str(tmp_path / "logs" / "train"))
    train.Reload()
    assert "epoch_loss" in train.Tags()["tensors"] and train.Tags()["graph"]
    custom = ea.EventAccumulator(str(tmp_path / "logs" / "custom"))
    custom.Reload()
    assert {"x", "step"} <= set(custom.Tags()["tensors"])
