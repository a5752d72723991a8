"""`memrepo bench perf`'s maintenance rows (issue 24 item 5): `memrepo doctor` and
`memrepo triage --json`, each a whole process on a current cache, beside a floor from the
same run.

- doctor's floor: `git status` of the memory — what any check of the work tree against
  HEAD costs at least (doctor asks git that, and more). doctor is timed as run again on
  an unchanged cache (its audit remembered, memrepo.cache.audit_memo) and with `--full`
  (the audit run).
- triage's floor: one process reading every row triage looks at (each note's text and
  links, each event) out of the cache, and nothing else — the reading it cannot avoid.
  Its peak memory is reported beside it.
- the first query after 100,000 lines (5,000 with --quick) were appended by hand to a log
  (not committed: the cache must read and judge every one of them), beside a floor that
  reads and decodes those lines (orjson) in a process of its own; the log is then put back.
  That query looks one key up, so the rows of the other keys its sync touched are made
  after its answer, by a sync it starts in the background (memrepo.cache.deferred): how
  long after its end the cache holds them all is the row after it.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import orjson

from memrepo.cache.db import open_trusted
from memrepo.cache.staleness import keys_left
from memrepo.facts import writes
from memrepo.facts.segments import newest_segment
from memrepo.local_state import CACHE_FILE

from ..measure import ProcessRun, Row, Target, median, run_process
from ..synth_content import event_id
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
    return [*_doctor_rows(root, settings), *_triage_rows(root),
            *_hand_appended_rows(root, settings.hand_lines)]


LINES_FLOOR = """
import orjson, sys
data = open(sys.argv[1], "rb").read()[int(sys.argv[2]):]
print(sum(1 for line in data.splitlines() if orjson.loads(line)))
"""


def _doctor_rows(root: Path, settings: Settings) -> list[Row]:
    """`memrepo doctor` once to audit the cache (and remember the clean audit), then as a
    person runs it again — the audit unchanged since — and with `--full` (audited)."""
    target = Target("max", 2.0, "≤ 2 s at 20k, ≤ 10 s at 100k")
    first = run_process(cli(root, "doctor", "--json"))
    runs = [run_process(cli(root, "doctor", "--json")) for _ in range(settings.rounds)]
    full = [run_process(cli(root, "doctor", "--full", "--json"))
            for _ in range(settings.rounds)]
    bad = next((run for run in (first, *runs, *full) if run.returncode not in (0, 1)), None)
    if bad is not None:
        return [failed("doctor (whole process)", bad, target)]
    floor = median([run_process(["git", "-C", str(root), "status", "--porcelain",
                                 "--untracked-files=all", "--", "memory/"]).seconds
                    for _ in range(settings.rounds)])
    return [Row("doctor (whole process, current cache, clean audit remembered)",
                median([r.seconds for r in runs]), "s", floor, "git status of memory/",
                target, note=f"CPU {median([r.cpu for r in runs]):.2f} s"),
            Row("doctor --full (whole process, current cache, audit run)",
                median([r.seconds for r in full]), "s", floor, "git status of memory/",
                note=f"CPU {median([r.cpu for r in full]):.2f} s")]


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


def _hand_appended_rows(root: Path, lines: int) -> list[Row]:
    """The first query (a whole `memrepo recall` process) after `lines` lines were appended
    by hand to this month's segment of a scope (opened first by a library write); the
    segment is cut back to its committed size afterwards."""
    target = Target("max", 5.0, "≤ 5 s")
    label = f"first query after {lines:,} lines appended by hand to a log (whole process)"
    segment, size = _append_by_hand(root, lines)
    try:
        run = run_process(cli(root, "recall", "--scope", segment.parent.name, "--subject",
                              "hand-1", "--relation", "status"))
        rest = _until_every_key_is_made(root)
        floor = run_process([sys.executable, "-c", LINES_FLOOR, str(segment), str(size)])
    finally:
        with segment.open("r+b") as handle:
            handle.truncate(size)
        run_process(cli(root, "cache", "sync", "--quiet"))
    if not run.ok or "hand 1" not in run.stdout:
        return [failed(label, run, target)]
    return [Row(label, run.seconds, "s", floor.seconds if floor.ok else None,
                "reading and decoding those lines", target,
                note=f"CPU {run.cpu:.2f} s, peak {run.peak_rss / 2**20:.0f} MB"),
            Row("… the other keys' rows, made in the background: done after its end", rest,
                "s")]


def _until_every_key_is_made(root: Path) -> float:
    """Seconds until the cache holds no key left for later (polled; at most 5 minutes)."""
    started = time.perf_counter()
    while time.perf_counter() - started < 300:
        conn = open_trusted(root / CACHE_FILE)
        if conn is None:
            break
        try:
            if not keys_left(conn, None):
                break
        finally:
            conn.close()
        time.sleep(0.05)
    return time.perf_counter() - started


def _append_by_hand(root: Path, lines: int) -> tuple[Path, int]:
    """Append `lines` asserts recorded now (lines the checks would take) to this month's
    newest segment of the first scope, after a library write there (so HEAD has the
    segment): the segment and its size before."""
    scope = sorted(p.name for p in (root / "memory" / "facts").iterdir() if p.is_dir())[0]
    writes.remember(root, scope=scope, subject="hand-0", relation="status",
                    object=f"written {time.time_ns()}", session="bench")
    at = int(time.time())
    segment = root / newest_segment(root, scope, at * 1_000_000).path
    size = segment.stat().st_size
    rng, stamp = random.Random(0), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
    with segment.open("ab") as handle:
        handle.write(b"".join(orjson.dumps({
            "id": event_id(rng, at), "op": "assert", "recorded_at": stamp, "scope": scope,
            "subject": f"hand-{n}", "relation": "status", "object": f"hand {n}",
            "valid_from": stamp[:10], "confidence": 1.0, "trust": "host", "source": "manual",
            "session": "bench"}) + b"\n" for n in range(lines)))
    return segment, size
