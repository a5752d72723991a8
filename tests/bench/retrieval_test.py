"""`memrepo bench retrieval`: each speed figure of retrieval from the question is printed
beside its floor and target (figures themselves are not asserted: the machine is noisy)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_speed_table_names_every_figure_and_its_floor(demo_repo: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "memrepo", "bench", "retrieval", "--dir",
                           str(demo_repo), "--questions", "5", "--repeat", "1"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for metric in ("search, 20-word questions, in-process p99",
                   "`memrepo recall` recall with a question, whole process p50",
                   "`memrepo context` context for a question, whole process p50",
                   "question analysis added to a process that folds text"):
        row = next(line for line in done.stdout.splitlines() if metric in line)
        assert row.count("|") == 7, row
    assert "(one word, plain FTS5)" in done.stdout and "(python -c pass)" in done.stdout
