"""`memrepo bench perf`'s maintenance rows (issue 24 item 5): `memrepo doctor` and
`memrepo triage --json`, each a whole process on a current cache, beside a floor from the
same run.

- doctor's floor: `git status` of the memory — what any check of the work tree against
  HEAD costs at least (doctor asks git that, and more).
- triage's floor: one process reading every row triage looks at (each note's text and
  links, each event) out of the cache, and nothing else — the reading it cannot avoid.
  Its peak memory is reported beside it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from memrepo.local_state import CACHE_FILE

from ..measure import ProcessRun, Row, Target, median, run_process
from .common import Settings, cli, failed

TRIAGE_FLOOR = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
notes = conn.execute("SELECT path, name, category, description, aliases, body FROM notes")
links = conn.execute("SELECT source, target, line FROM links")
events = conn.execute("SELECT * FROM events")
print(sum(1 for _ in notes), sum(1 for _ in links), sum(1 for _ in events))
"""


def maintenance_rows(root: Path, settings: Settings) -> list[Row]:
    warm = run_process(cli(root, "cache", "sync", "--quiet"))
    if not warm.ok:
        return [failed("doctor", warm, Target("none"))]
    return [*_doctor_rows(root, settings), *_triage_rows(root)]


def _doctor_rows(root: Path, settings: Settings) -> list[Row]:
    target = Target("max", 2.0, "≤ 2 s at 20k, ≤ 10 s at 100k")
    runs = [run_process(cli(root, "doctor", "--json")) for _ in range(settings.rounds)]
    bad = next((run for run in runs if run.returncode not in (0, 1)), None)
    if bad is not None:
        return [failed("doctor (whole process)", bad, target)]
    floor = median([run_process(["git", "-C", str(root), "status", "--porcelain",
                                 "--untracked-files=all", "--", "memory/"]).seconds
                    for _ in range(settings.rounds)])
    return [Row("doctor (whole process, current cache)", median([r.seconds for r in runs]),
                "s", floor, "git status of memory/", target,
                note=f"CPU {median([r.cpu for r in runs]):.2f} s")]


def _triage_rows(root: Path) -> list[Row]:
    target = Target("max", 5.0, "≤ 5 s, ≤ 300 MB at 20k")
    run = run_process(cli(root, "triage", "--json"))
    if not run.ok:
        return [failed("triage --json (whole process)", run, target)]
    floor: ProcessRun = run_process([sys.executable, "-c", TRIAGE_FLOOR,
                                     str(root / CACHE_FILE)])
    return [
        Row("triage --json (whole process)", run.seconds, "s", floor.seconds if floor.ok
            else None, "reading every note, link and event row", target,
            note=f"CPU {run.cpu:.2f} s"),
        Row("triage --json, peak memory", run.peak_rss / 2**20, "MB",
            floor.peak_rss / 2**20 if floor.ok else None, "the same reading",
            Target("max", 300, "≤ 300 MB")),
    ]
