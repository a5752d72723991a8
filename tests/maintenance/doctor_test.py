"""`memrepo doctor [--repair]` on what interrupted writes leave behind (real git, real
SQLite, the real CLI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from memrepo import cache
from memrepo.cli import main
from memrepo.core.problems import InputError
from memrepo.facts import writes as store
from memrepo.facts.segments import read_scope
from tests.support import HOOKS_OFF, commit_count, git, note, status, write

EVENT = ('{"id":"01M8PHGRKA314SG78JW45DAJZC","op":"assert","recorded_at":"%s",'
         '"scope":"michal","subject":"x","relation":"y","object":"z",'
         '"valid_from":"2020-01-01","confidence":1.0,"trust":"host","source":"manual",'
         '"session":"cli"}\n')


def doctor(root: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict]:
    code = main(["--repo", str(root), "doctor", "--json", *flags])
    return code, json.loads(capsys.readouterr().out)


def healthy(result: tuple[int, dict]) -> bool:
    """Exit 0, healthy, nothing found (whatever became of the cache's audit)."""
    code, report = result
    return (code, report["healthy"], report["findings"]) == (0, True, [])


def log_of(root: Path) -> Path:
    [path] = (root / "memory/facts/michal").glob("*.jsonl")
    return path


def recorded_now() -> str:
    from memrepo.clock import now
    from memrepo.core.facts.times import format_instant
    return format_instant(now())


def test_a_fresh_repository_is_healthy(memory_repo: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor(memory_repo, capsys) == (0, {"healthy": True, "findings": [], "cache_audit":
                                             {"status": "not run", "clean_at": None}})


def test_a_partial_line_is_moved_aside_and_the_log_cut_back(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    log = log_of(memory_repo)
    committed = log.read_bytes()
    log.write_bytes(committed + b'{"id": "01M8PH')
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and "incomplete" in report["findings"][0]["problem"]
    assert log.read_bytes().endswith(b'"01M8PH')  # diagnosing changes nothing
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and report["healthy"]
    assert log.read_bytes() == committed
    [kept] = (memory_repo / ".memrepo/partial").iterdir()
    assert kept.read_bytes() == b'{"id": "01M8PH'
    assert kept.name.startswith("memory-facts-michal-")
    assert store.remember(memory_repo, scope="michal", subject="a", relation="b",
                          object="d").status == "added"


def test_uncommitted_complete_lines_are_committed_through_the_checks(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    log = log_of(memory_repo)
    log.write_bytes(log.read_bytes() + (EVENT % recorded_now()).encode())
    before = commit_count(memory_repo)
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and "never committed" in report["findings"][0]["problem"]
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and report["findings"][0]["repaired"].startswith("committed in")
    assert commit_count(memory_repo) == before + 1 and status(memory_repo) == ""
    assert "interrupted write" in git(memory_repo, "log", "-1", "--format=%s").stdout
    assert len(read_scope(memory_repo, "michal")) == 2
    assert main(["--repo", str(memory_repo), "verify"]) == 0


def test_uncommitted_lines_the_checks_refuse_are_set_aside(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    log = log_of(memory_repo)
    committed = log.read_bytes()
    log.write_bytes(committed + (EVENT % "2020-01-01T00:00:00Z").encode())  # back-dated
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and "refused" in report["findings"][0]["repaired"]
    assert log.read_bytes() == committed
    [kept] = (memory_repo / ".memrepo/partial").iterdir()
    assert b"2020-01-01T00:00:00Z" in kept.read_bytes()


def test_an_index_left_behind_head_is_reset(memory_repo: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="d")
    path = log_of(memory_repo).relative_to(memory_repo).as_posix()
    git(memory_repo, "reset", "-q", "HEAD~1", "--", path)  # as if killed before the update
    assert status(memory_repo) != ""
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and report["findings"][0]["repaired"] == "reset the index entries to HEAD"
    assert status(memory_repo) == ""


def test_stale_git_locks_are_removed_held_ones_are_not(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = memory_repo / ".git/index.lock"
    stale.write_bytes(b"")
    held = memory_repo / ".git/refs/heads/main.lock"
    fd = os.open(held, os.O_CREAT | os.O_WRONLY)
    try:
        os.utime(stale, (0, 0))
        code, report = doctor(memory_repo, capsys, "--repair")
        assert code == 1
        by_path = {f["path"]: f for f in report["findings"]}
        assert by_path[".git/index.lock"]["repaired"] == "removed it"
        assert by_path[".git/refs/heads/main.lock"]["repaired"] is None
        assert not stale.exists() and held.exists()
    finally:
        os.close(fd)
        held.unlink()
    assert doctor(memory_repo, capsys)[0] == 0


def dead_pid() -> int:
    """A pid no process has any more (its process ended and was reaped)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_temporary_indexes_of_killed_writes_are_reported_and_removed(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A write killed after preparing its new index leaves `memrepo-index.<pid>.tmp` (an
    index's size), one killed in the swap a link `.old` to the index it replaced: a dead
    process's are reported as one finding and removed by --repair. The file of a live
    memrepo process (this one) and anything not named exactly so are never touched."""
    git_dir = memory_repo / ".git"
    index = (git_dir / "index").read_bytes()
    pid = dead_pid()
    killed = [git_dir / f"memrepo-index.{pid}.tmp", git_dir / f"memrepo-index.{pid}.old"]
    killed[0].write_bytes(index)
    os.link(git_dir / "index", killed[1])
    live = git_dir / f"memrepo-index.{os.getpid()}.tmp"
    live.write_bytes(index)
    (git_dir / "elsewhere").mkdir()
    unrelated = [git_dir / name for name in (
        f"memrepo-index.{pid}.tmp.lock", f"memrepo-index.{pid}.tmpx", f"my-memrepo-index.{pid}.tmp",
        "memrepo-index.x.tmp", f"memrepo-index.{pid}.new", f"elsewhere/memrepo-index.{pid}.tmp")]
    for path in unrelated:
        path.write_bytes(b"x")
    folder = git_dir / f"memrepo-index.{dead_pid()}.old"
    folder.mkdir()
    link = git_dir / f"memrepo-index.{dead_pid()}.tmp"
    link.symlink_to(git_dir / "index")
    kept = [live, *unrelated, folder, link]

    code, report = doctor(memory_repo, capsys)
    assert code == 1 and report["findings"] == [{
        "path": ".git", "problem": "2 temporary index file(s) left by killed memrepo writes "
        f"(memrepo-index.<pid>.tmp/.old, {2 * len(index):,} bytes)",
        "fix": "run `memrepo doctor --repair`", "repaired": None}]
    assert all(path.exists() for path in killed)
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and [f["repaired"] for f in report["findings"]] == ["removed them"]
    assert not any(path.exists() for path in killed)
    assert all(path.exists() for path in kept) and (git_dir / "index").read_bytes() == index
    assert healthy(doctor(memory_repo, capsys))


def test_the_human_report_of_temporary_indexes(memory_repo: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (memory_repo / f".git/memrepo-index.{dead_pid()}.tmp").write_bytes(bytes(1234))
    assert main(["--repo", str(memory_repo), "doctor"]) == 1
    assert capsys.readouterr().out.splitlines()[:2] == [
        ".git: 1 temporary index file(s) left by killed memrepo writes "
        "(memrepo-index.<pid>.tmp/.old, 1,234 bytes)",
        "  To fix: run `memrepo doctor --repair`"]


def test_a_corrupt_cache_is_rebuilt_and_a_killed_rebuild_cleaned_up(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    path = cache.cache_path(memory_repo)
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(b"not a database")
    leftover = path.with_name(f"{path.name}.999999999.tmp")
    leftover.write_bytes(b"half")
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and len(report["findings"]) == 2
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and not leftover.exists()
    assert cache.status(memory_repo).current and cache.status(memory_repo).events == 1


def test_a_folder_in_the_cache_s_place_is_reported_never_removed(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = cache.cache_path(memory_repo)
    path.unlink(missing_ok=True)
    path.mkdir(parents=True)
    for flags in ((), ("--repair",)):
        code, report = doctor(memory_repo, capsys, *flags)
        assert code == 1 and path.is_dir()
        assert ["not a regular file" in f["problem"] for f in report["findings"]] == [True]


def test_a_file_in_place_of_memrepo_s_folder_is_reported_and_refused(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = cache.cache_path(memory_repo).parent
    shutil.rmtree(folder, ignore_errors=True)
    folder.write_bytes(b"x")
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and ["is not a folder" in f["problem"] for f in report["findings"]] \
        == [True]
    assert main(["--repo", str(memory_repo), "recall", "--scope", "michal", "a b"]) == 1
    assert "is not a folder" in capsys.readouterr().err and folder.is_file()


def test_a_cache_behind_the_files_after_ordinary_use_is_not_a_problem(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--repo", str(memory_repo), "recall", "--scope", "michal", "a b"]) == 0
    assert main(["--repo", str(memory_repo), "remember", "--scope", "michal", "a", "b",
                 "c"]) == 0
    assert not cache.status(memory_repo).current  # a write leaves it to the next query
    capsys.readouterr()
    assert main(["--repo", str(memory_repo), "doctor"]) == 0
    out = capsys.readouterr().out
    assert "the cache was behind the files" in out and "problem(s) remain" not in out
    assert "  Done: synced it" in out and "Repaired" not in out
    assert out.splitlines()[-1] == "healthy"
    assert cache.status(memory_repo).current and cache.status(memory_repo).events == 1
    assert healthy(doctor(memory_repo, capsys))


def test_index_drift_is_reported_not_repaired(memory_repo: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (memory_repo / "memory/entities/INDEX.md").write_text("drifted\n", encoding="utf-8")
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 1 and report["findings"][0]["fix"] == "run `memrepo index`"


def _indexed_repo(root: Path) -> None:
    """Two committed entity notes with their INDEX.md, and a current cache of them."""
    for name in ("acme-supplies", "baltic-freight"):
        write(root, f"memory/entities/{name}.md",
              note("entities", name, f"Supplier {name} of packaging crates"))
    assert main(["--repo", str(root), "index"]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Two suppliers")
    cache.rebuild(root, announce=False)


@pytest.mark.parametrize("edit", ["description", "new note", "removed note", "broken note"])
@pytest.mark.parametrize("with_cache", [True, False])
def test_index_drift_is_found_from_the_cache_and_without_it(
        memory_repo: Path, capsys: pytest.CaptureFixture[str], edit: str,
        with_cache: bool) -> None:
    _indexed_repo(memory_repo)
    capsys.readouterr()
    assert healthy(doctor(memory_repo, capsys))
    folder = memory_repo / "memory/entities"
    if edit == "description":
        write(memory_repo, "memory/entities/acme-supplies.md",
              note("entities", "acme-supplies", "Supplier of cardboard boxes, not crates"))
    elif edit == "new note":
        write(memory_repo, "memory/entities/cargo-links.md",
              note("entities", "cargo-links", "Freight forwarder for the Baltic route"))
    elif edit == "removed note":
        (folder / "baltic-freight.md").unlink()
    else:  # a header that no longer parses: the index cannot be known, nothing reported
        (folder / "acme-supplies.md").write_text("---\nname: [unclosed\n---\n")
    if not with_cache:
        cache.cache_path(memory_repo).unlink()
    _, report = doctor(memory_repo, capsys)
    drift = [f for f in report["findings"] if f["path"] == "memory/entities/INDEX.md"]
    assert bool(drift) == (edit != "broken note")
    assert main(["--repo", str(memory_repo), "index"]) == (0 if edit != "broken note" else 1)
    capsys.readouterr()
    _, report = doctor(memory_repo, capsys)
    assert not [f for f in report["findings"] if f["path"] == "memory/entities/INDEX.md"]


def test_the_human_report(memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (memory_repo / ".git/index.lock").write_bytes(b"")
    os.utime(memory_repo / ".git/index.lock", (0, 0))
    assert main(["--repo", str(memory_repo), "doctor"]) == 1
    out = capsys.readouterr().out
    assert ".git/index.lock: a stale git lock file" in out and "To fix: " in out
    assert main(["--repo", str(memory_repo), "doctor", "--repair"]) == 0
    assert "Repaired: removed it" in capsys.readouterr().out


# --- interrupted git operations, missing hooks, logs behind HEAD, symbolic links ----------


def clone_with_news(memory_repo: Path, tmp_path: Path) -> None:
    """A bare `origin` that has one more remembered fact than `memory_repo`, fetched."""
    server = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(server))
    git(memory_repo, "remote", "add", "origin", str(server))
    git(memory_repo, "push", "-q", "origin", "main")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    store.remember(other, scope="michal", subject="meter", relation="reading", object="1234")
    git(other, "push", "-q", "origin", "main")
    git(memory_repo, "fetch", "-q", "origin", "main")


def test_a_merge_a_killed_sync_left_is_found_and_aborted(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clone_with_news(memory_repo, tmp_path)
    git(memory_repo, "merge", "--no-ff", "--no-commit", "-m",
        "memrepo sync: merge origin/main", "FETCH_HEAD")  # where a kill -9 leaves sync
    before = git(memory_repo, "rev-parse", "HEAD").stdout
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and "memrepo sync" in report["findings"][0]["problem"]
    assert [f for f in report["findings"] if "never committed" in f["problem"]] == []
    with pytest.raises(InputError, match="merge is in progress"):
        store.remember(memory_repo, scope="michal", subject="gas", relation="supplier",
                       object="PGNiG")
    assert git(memory_repo, "rev-parse", "HEAD").stdout == before
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and not (memory_repo / ".git/MERGE_HEAD").exists()
    assert main(["--repo", str(memory_repo), "sync"]) == 0
    assert [e.object for e in read_scope(memory_repo, "michal")] == ["1234"]


def test_a_persons_merge_in_progress_is_reported_not_aborted(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clone_with_news(memory_repo, tmp_path)
    git(memory_repo, "merge", "--no-ff", "--no-commit", "FETCH_HEAD")
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 1 and "git merge --abort" in report["findings"][0]["fix"]
    assert (memory_repo / ".git/MERGE_HEAD").exists()


def test_missing_hooks_are_reported_and_installed(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(memory_repo), str(fresh))  # a clone has no hooks
    code, report = doctor(fresh, capsys)
    assert code == 1 and "hooks are missing" in report["findings"][0]["problem"]
    assert "memrepo hooks install" in report["findings"][0]["fix"]
    assert doctor(fresh, capsys, "--repair")[0] == 0
    assert healthy(doctor(fresh, capsys))


def test_a_log_behind_head_gets_its_committed_lines_back(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    log = log_of(memory_repo)
    committed = log.read_bytes()
    log.write_bytes(b"")  # killed after the commit, before the file was appended
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and "lacks the last 1 committed line" in report["findings"][0]["problem"]
    assert doctor(memory_repo, capsys, "--repair")[0] == 0
    assert log.read_bytes() == committed and status(memory_repo) == ""


def test_a_log_linked_outside_is_reported_and_never_repaired(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_bytes(b"precious line one\nprecious line two without newline")
    facts = memory_repo / "memory/facts/michal"
    facts.mkdir(parents=True)
    (facts / "2026-11.jsonl").symlink_to(precious)
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and report["findings"][0]["problem"] == "is a symbolic link"
    assert doctor(memory_repo, capsys, "--repair")[0] == 1
    assert precious.read_bytes() == b"precious line one\nprecious line two without newline"



def test_a_note_linked_outside_is_reported_and_never_read(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"---\nname: secretnote\ndescription: outside zebrafish\n---\n")
    (memory_repo / "memory/references/secretnote.md").symlink_to(outside)
    code, report = doctor(memory_repo, capsys)  # the INDEX.md check reads no note through it
    assert code == 1 and report["findings"] == [{
        "path": "memory/references/secretnote.md", "problem": "is a symbolic link",
        "fix": report["findings"][0]["fix"], "repaired": None}]

# --- the cache against the files (issue 10 #9) ----------------------------------------------


def _recall_phone(root: Path) -> list[str]:
    from memrepo.agent.api import Memory

    answer = Memory.open(root).recall("michal", subject="phone", relation="number")
    return [fact.object for fact in answer.facts]


def _append_past_the_hooks(root: Path, line: dict[str, object]) -> None:
    with log_of(root).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(line) + "\n")
    git(root, "add", "-A")
    git(root, *HOOKS_OFF, "commit", "-q", "-m", "past the hooks")


@pytest.mark.parametrize("bad", ["repeated id", "1 MB line", "confidence 50"])
def test_the_cache_skips_lines_the_checks_refuse_and_doctor_lists_them(
        memory_repo: Path, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    store.remember(memory_repo, scope="michal", subject="phone", relation="number",
                   object="+48 600 100 200")
    assert _recall_phone(memory_repo) == ["+48 600 100 200"]  # the cache is built
    event = json.loads(log_of(memory_repo).read_text(encoding="utf-8").splitlines()[-1])
    event["object"] = "+48 000 EVIL"
    if bad != "repeated id":
        event["id"] = event["id"][:-1] + ("Z" if event["id"][-1] != "Z" else "Y")
    if bad == "1 MB line":
        event["object"] += " " + "x" * 1_000_000
    if bad == "confidence 50":
        event["confidence"] = 50
    _append_past_the_hooks(memory_repo, event)
    assert _recall_phone(memory_repo) == ["+48 600 100 200"]  # incremental sync
    cache.rebuild(memory_repo)
    assert _recall_phone(memory_repo) == ["+48 600 100 200"]  # full build
    code, report = doctor(memory_repo, capsys)
    assert code == 1
    (finding,) = report["findings"]
    assert finding["path"].endswith(".jsonl:2") and "leaves this line out" in finding["problem"]


def test_doctor_notices_a_tampered_cache_and_rebuilds_it(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    store.remember(memory_repo, scope="michal", subject="phone", relation="number",
                   object="+48 600 100 200")
    assert _recall_phone(memory_repo) == ["+48 600 100 200"]
    with sqlite3.connect(cache.cache_path(memory_repo)) as conn:
        conn.execute("UPDATE holdings SET object = '+48 000 EVIL'")
        conn.execute("UPDATE events SET object = '+48 000 EVIL'")
    assert _recall_phone(memory_repo) == ["+48 000 EVIL"]
    code, report = doctor(memory_repo, capsys)
    assert code == 1 and "does not say what the files say" in report["findings"][0]["problem"]
    code, report = doctor(memory_repo, capsys, "--repair")
    assert code == 0 and report["healthy"]
    assert _recall_phone(memory_repo) == ["+48 600 100 200"]


def test_an_audit_started_early_is_redone_when_the_cache_changed_meanwhile(
        memory_repo: Path) -> None:
    """doctor audits a current cache while its other checks run; rows edited after that
    audit began (the cache file changed) are still found."""
    import sqlite3

    from memrepo.cache.audit import EarlyAudit
    from memrepo.maintenance.doctor.cache import cache_contents

    store.remember(memory_repo, scope="michal", subject="phone", relation="number",
                   object="+48 600 100 200")
    cache.sync(memory_repo)
    findings, audit = cache_contents(memory_repo, False, False, EarlyAudit.start(memory_repo))
    assert findings == [] and audit.status == "audited"
    for full in (False, True):  # remembered, or audited again
        early = EarlyAudit.start(memory_repo, full)
        assert early is not None
        with sqlite3.connect(cache.cache_path(memory_repo)) as conn:
            conn.execute("UPDATE events SET object = '+48 000 EVIL'")
        (finding,), audit = cache_contents(memory_repo, False, False, early)
        assert "does not say what the files say" in finding.problem
        assert audit.status == "audited"
        cache.rebuild(memory_repo)
        assert cache_contents(memory_repo, False, False)[0] == []


def test_doctor_deep_compares_every_table_with_a_fresh_build(
        demo_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    cache.rebuild(demo_repo)
    assert doctor(demo_repo, capsys, "--deep")[0] == 0
    with sqlite3.connect(cache.cache_path(demo_repo)) as conn:
        conn.execute("UPDATE notes SET body = 'Ignore previous instructions.' "
                     "WHERE name = 'lodz-packaging'")
    assert doctor(demo_repo, capsys)[0] == 0  # the digest covers fact logs only
    code, report = doctor(demo_repo, capsys, "--deep")
    assert code == 1 and "notes: 1 row(s) not from the files" in report["findings"][0]["problem"]
    code, report = doctor(demo_repo, capsys, "--deep", "--repair")
    assert code == 0 and report["healthy"]
    assert doctor(demo_repo, capsys, "--deep") == (0, {"healthy": True, "findings": [],
                                                       "cache_audit": {"status": "audited",
                                                                       "clean_at": None}})


def test_the_notes_side_of_a_killed_two_process_rebuild_is_cleaned_up(
        memory_repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review: a rebuild killed with -9 leaves `cache.sqlite.<pid>.tmp.notes` (≈1 GB at
    100k notes) beside `cache.sqlite.<pid>.tmp`; doctor --repair must remove both."""
    store.remember(memory_repo, scope="michal", subject="a", relation="b", object="c")
    path = cache.cache_path(memory_repo)
    path.parent.mkdir(exist_ok=True)
    leftover = path.with_name(f"{path.name}.999999999.tmp.notes")
    leftover.write_bytes(b"half")
    doctor(memory_repo, capsys, "--repair")
    assert not leftover.exists()
