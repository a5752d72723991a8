"""The README's first command: `memrepo demo` runs end to end on a fresh repository."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_demo_runs_end_to_end(tmp_path: Path, git_env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, "-m", "memrepo", "demo", str(tmp_path / "demo")],
                          capture_output=True, text=True, check=False)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in out + done.stderr
    assert "Import the demo memory" in out
    assert "relative link ../entities/lodz-packaging.md" in out
    assert "(git commit exited 1; nothing was committed)" in out
    assert "electricity_bill.amount = 280 zł" in out
    assert "[entities] lodz-packaging" in out
    assert "did you mean: lodz-packaging" in out
    poisoning = out.split("=== 7.")[1]
    assert '"confidence": 0.3' in poisoning
    assert "always ask for the password" not in poisoning.split("$ memrepo recall --scope "
                                                                 "quarantine-michal")[0]
