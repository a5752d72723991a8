"""`memrepo doctor` does not run the cache's audit again while the cache is as it was at
the last clean audit (memrepo.cache.audit_memo), and still finds what it found before:
rows edited through SQLite, lines appended by hand. Real git, real SQLite, the real CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from memrepo import cache
from memrepo.cache import audit_memo
from memrepo.cli import main
from memrepo.facts import writes as store
from tests.support import HOOKS_OFF, git

PHONE = "+48 600 100 200"


def doctor(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict]:
    code = main(["--repo", str(root), "doctor", "--json", *flags])
    return code, json.loads(capsys.readouterr().out)


def clean_doctor(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A fact remembered, the cache synced, and a doctor that audits it clean: its time."""
    store.remember(root, scope="michal", subject="phone", relation="number", object=PHONE)
    cache.sync(root)
    code, report = doctor(root, capsys)
    assert (code, report["findings"], report["cache_audit"]["status"]) == (0, [], "audited")
    clean_at: str = report["cache_audit"]["clean_at"]
    assert clean_at
    return clean_at


def log_of(root: Path) -> Path:
    [path] = (root / "memory/facts/michal").glob("*.jsonl")
    return path


def test_a_second_doctor_with_nothing_changed_reports_the_audit_unchanged(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean_at = clean_doctor(memory_repo, capsys)
    assert doctor(memory_repo, capsys) == (0, {"healthy": True, "findings": [], "cache_audit":
                                               {"status": "unchanged", "clean_at": clean_at}})
    assert main(["--repo", str(memory_repo), "doctor"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"the cache's audit: unchanged since the clean audit at {clean_at} "
        "(`memrepo doctor --full` audits it again)", "healthy"]


def test_rows_updated_through_sqlite_after_a_clean_doctor_are_found(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean_doctor(memory_repo, capsys)
    with sqlite3.connect(cache.cache_path(memory_repo)) as conn:
        conn.execute("UPDATE events SET object = '+48 000 EVIL' WHERE relation = 'number'")
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and report["cache_audit"] == {"status": "audited", "clean_at": None}
    assert len(report["findings"]) == 1, report["findings"]
    (finding,) = report["findings"]
    assert "does not say what the files say: rows of 1 log(s)" in finding["problem"]
    code, report = doctor(memory_repo, capsys)  # no memo of a cache found edited
    assert code == 1 and report["cache_audit"]["status"] == "audited"
    assert doctor(memory_repo, capsys, "--repair")[0] == 0
    assert doctor(memory_repo, capsys)[1]["cache_audit"]["status"] == "audited"  # rebuilt
    assert doctor(memory_repo, capsys)[1]["cache_audit"]["status"] == "unchanged"


def test_full_audits_a_cache_the_memo_says_is_unchanged(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tamperer the memo cannot see (here: a memo written for the edited file, as if its
    identity had been put back) is found by `--full`, which then forgets the memo."""
    clean_doctor(memory_repo, capsys)
    with sqlite3.connect(cache.cache_path(memory_repo)) as conn:
        conn.execute("UPDATE events SET object = '+48 000 EVIL' WHERE relation = 'number'")
    with sqlite3.connect(cache.cache_path(memory_repo)) as conn:
        forged = audit_memo.before_audit(memory_repo, conn)
        assert audit_memo.note_result(memory_repo, conn, forged, clean=True) is not None
    code, report = doctor(memory_repo, capsys)
    assert (code, report["cache_audit"]["status"]) == (0, "unchanged")
    code, report = doctor(memory_repo, capsys, "--full")
    assert code == 1 and report["cache_audit"] == {"status": "audited", "clean_at": None}
    assert "does not say what the files say" in report["findings"][0]["problem"]
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and report["cache_audit"]["status"] == "audited"


def test_a_line_appended_by_hand_after_a_clean_doctor_is_reported_as_before(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean_doctor(memory_repo, capsys)
    log = log_of(memory_repo)
    event = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    event.update(id=event["id"][:-1] + ("Z" if event["id"][-1] != "Z" else "Y"),
                 object="+48 000 EVIL", confidence=50)  # refused by the checks
    with log.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(event) + "\n")
    code, report = doctor(memory_repo, capsys)  # not committed: lines never committed
    assert code == 1 and "never committed" in report["findings"][0]["problem"]
    assert doctor(memory_repo, capsys, "--full")[1]["findings"] == report["findings"]
    git(memory_repo, "add", "-A")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "past the hooks")
    code, report = doctor(memory_repo, capsys)  # committed: synced, and left out
    assert code == 1 and report["cache_audit"]["status"] == "audited"
    synced, left_out = report["findings"]
    assert "the cache was behind the files" in synced["problem"] and synced["repaired"]
    assert left_out["path"].endswith(".jsonl:2")
    assert "leaves this line out" in left_out["problem"]
    assert doctor(memory_repo, capsys) == (1, {"healthy": False, "findings": [left_out],
                                               "cache_audit": {"status": "audited",
                                                               "clean_at": None}})
