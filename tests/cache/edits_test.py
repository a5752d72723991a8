"""Edits made in any editor are seen by the next query (issue 13 item 5): a note saved in
place (same inode, the folder's mtime unchanged) and a line appended to a log by hand, in a
fresh CLI process and in one long-lived reader."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.cache import cache_path, rebuild
from memrepo.cache.build import build_into
from memrepo.cache.edits import SCAN_EVERY
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    dump,
    init_repo,
    memrepo_at,
    memrepo_json,
    note,
    write,
)

NOTE = "memory/entities/tauron.md"
LOG = "memory/facts/michal/2026-01.jsonl"


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-30")
    # committed before the lines appended by hand: else they are back-dated, and left out
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
    root = init_repo(tmp_path / "repo")
    write(root, NOTE, note("entities", "tauron", "Electricity supplier of the flat since 2023",
                           "Tariff G11.\n"))
    write(root, "memory/entities/orlen.md", note("entities", "orlen", "Fuel station chain "
                                                 "where the car is refuelled", "Card.\n"))
    append_events(root, LOG, [
        assert_event("a1", "2026-01-05T00:00:00Z", "home", "city", "Kraków", "2020-01-01")])
    commit_everything(root, "start")
    rebuild(root)
    return root


def save_in_place(root: Path, relative: str, text: str) -> None:
    """What VS Code and many editors do: rewrite the same file (same inode), so the
    folder's mtime does not move (put back here in case the file system moved it)."""
    path, folder = root / relative, (root / relative).parent
    inode, folder_times = path.stat().st_ino, folder.stat()
    with path.open("r+b") as handle:
        handle.truncate(0)
        handle.write(text.encode("utf-8"))
    os.utime(folder, ns=(folder_times.st_atime_ns, folder_times.st_mtime_ns))
    assert path.stat().st_ino == inode


def append_by_hand(root: Path, relative: str, line: str) -> None:
    with (root / relative).open("ab") as handle:
        handle.write(line.encode("utf-8") + b"\n")


GDANSK = ('{"id": "a2", "op": "assert", "scope": "michal", "subject": "home", "relation": '
          '"city", "object": "Gdańsk", "valid_from": "2026-01-15", "recorded_at": '
          '"2026-01-20T00:00:00Z", "confidence": 1.0, "source": "manual", "session": "s", '
          '"trust": "host"}')


def edited_note() -> str:
    return note("entities", "tauron", "Electricity supplier of the flat since 2023",
                "Tariff G12 zanzibar.\n").decode("utf-8")


def test_a_cli_query_sees_a_note_saved_in_place(repo: Path) -> None:
    assert memrepo_json(repo, "search", "zanzibar")["status"] == "not_recorded"
    save_in_place(repo, NOTE, edited_note())
    found = memrepo_json(repo, "search", "zanzibar")
    assert [hit["name"] for hit in found["results"]] == ["tauron"]
    assert memrepo_json(repo, "search", "G11")["status"] == "not_recorded"


def test_saves_that_keep_size_and_mtime_are_seen_every_time(repo: Path) -> None:
    """A tool that rewrites a file in place and puts its mtime back (`touch -d`, `cp -p`,
    `rsync -t`): the first such save (the file was clean) and the next ones (already dirty
    at the last sync) are each seen."""
    path = repo / NOTE
    for old, new in (("Tariff G11", "Tariff Q11"), ("Tariff Q11", "Tariff Z11")):
        times = path.stat()
        save_in_place(repo, NOTE, path.read_text(encoding="utf-8").replace(old, new))
        os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
        assert path.stat().st_size == times.st_size
        found = memrepo_json(repo, "search", new.split()[1])
        assert [hit["name"] for hit in found["results"]] == ["tauron"], new
        assert memrepo_json(repo, "search", old.split()[1])["status"] == "not_recorded"


def test_a_note_saved_broken_is_named_by_the_next_query_and_by_doctor(repo: Path) -> None:
    """A note whose header no longer parses drops out of the answers: the query that
    notices it says so in one line naming the file, its line and the fix (once), doctor
    lists it, and a fixed save brings it back."""
    text = (repo / NOTE).read_text(encoding="utf-8")
    broken = text.replace("description: ", "description: Electricity: ", 1)
    save_in_place(repo, NOTE, broken)
    first = memrepo_at(repo, "search", "Tariff")
    [line] = [x for x in first.stderr.splitlines() if x.startswith("memrepo: ")]
    assert line.startswith(f"memrepo: {NOTE}:3: left out of every answer: ")
    assert "to fix:" in line and "Traceback" not in first.stderr
    assert "tauron" not in first.stdout
    again = memrepo_at(repo, "search", "Tariff")
    assert NOTE not in again.stderr  # said once
    doctor = memrepo_at(repo, "doctor")
    assert f"{NOTE}:3: the cache leaves this note out" in doctor.stdout + doctor.stderr
    save_in_place(repo, NOTE, text)
    fixed = memrepo_at(repo, "search", "Tariff")
    assert "tauron" in fixed.stdout and NOTE not in fixed.stderr
    assert NOTE not in memrepo_at(repo, "doctor").stdout


def test_a_rebuild_and_a_fresh_clone_name_what_they_leave_out(repo: Path, tmp_path: Path,
                                                              ) -> None:
    text = (repo / NOTE).read_text(encoding="utf-8")
    write(repo, NOTE, text.replace("description: ", "description: Electricity: ", 1))
    commit_everything(repo, "broken past the checks")  # as --no-verify would
    rebuilt = memrepo_at(repo, "cache", "rebuild")
    assert f"memrepo: {NOTE}:3: left out of every answer: " in rebuilt.stderr
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    first = memrepo_at(clone, "search", "Tariff")
    assert f"memrepo: {NOTE}:3: left out of every answer: " in first.stderr
    assert NOTE not in memrepo_at(clone, "search", "Tariff").stderr  # said once
    doctor = memrepo_at(clone, "doctor")
    assert f"{NOTE}:3: the cache leaves this note out: header:" in doctor.stdout
    assert "(to fix:" not in doctor.stdout


def test_a_line_appended_without_its_newline_is_named_once_until_it_ends(repo: Path) -> None:
    """An editor that saves without a final newline (VS Code by default): the line is not
    read (a write may be under way), the next query says so once, and the newline makes
    the line count."""
    key = ("recall", "--scope", "michal", "--subject", "home", "--relation", "city")
    with (repo / LOG).open("ab") as handle:
        handle.write(GDANSK.encode("utf-8"))
    first = memrepo_at(repo, *key)
    [line] = [x for x in first.stderr.splitlines() if x.startswith("memrepo: ")]
    assert line.startswith(f"memrepo: {LOG}:2: left out of every answer: has no "
                           "newline at its end")
    assert "Kraków" in first.stdout and "Traceback" not in first.stderr
    save_in_place(repo, NOTE, edited_note())  # another sync: said once
    assert LOG not in memrepo_at(repo, "search", "zanzibar").stderr
    doctor = memrepo_at(repo, "doctor")
    assert (doctor.stdout + doctor.stderr).count(f"{LOG}") == 1
    append_by_hand(repo, LOG, "")
    after = memrepo_at(repo, *key)
    assert "Gdańsk" in after.stdout and LOG not in after.stderr


def test_a_cli_query_sees_a_line_appended_to_a_log_by_hand(repo: Path) -> None:
    key = ("recall", "--scope", "michal", "--subject", "home", "--relation", "city")
    assert memrepo_json(repo, *key)["facts"][0]["object"] == "Kraków"
    append_by_hand(repo, LOG, GDANSK)
    assert memrepo_json(repo, *key)["facts"][0]["object"] == "Gdańsk"
    history = memrepo_json(repo, "history", "--scope", "michal", "home", "city")
    assert [event["id"] for event in history["events"]] == ["a1", "a2"]


def test_context_sees_a_note_saved_in_place(repo: Path) -> None:
    question = "What do we pay Zanzibar Power?"
    assert "tauron" not in memrepo_at(repo, "context", "--scope", "michal", question).stdout
    save_in_place(repo, NOTE, note("entities", "tauron", "Electricity supplier of the flat "
                                   "since 2023", "Tariff G12.\n", aliases=["Zanzibar Power"],
                                   updated="2026-11-29").decode("utf-8"))
    done = memrepo_at(repo, "context", "--scope", "michal", question)
    assert done.returncode == 0, done.stderr
    assert "tauron" in done.stdout and "G12" in done.stdout
    assert "(updated 2026-11-29)" in done.stdout


def test_a_long_lived_reader_sees_saves_within_the_scan_interval(repo: Path) -> None:
    memory = Memory(repo)
    assert memory.search("zanzibar").status == "not_recorded"
    assert memory.recall("michal", subject="home", relation="city").facts[0].object == "Kraków"
    save_in_place(repo, NOTE, edited_note())
    append_by_hand(repo, LOG, GDANSK)
    time.sleep(SCAN_EVERY)
    assert [hit.name for hit in memory.search("zanzibar").results] == ["tauron"]
    assert memory.recall("michal", subject="home", relation="city").facts[0].object == "Gdańsk"


def test_after_in_place_saves_the_cache_equals_a_full_build(repo: Path, tmp_path: Path) -> None:
    save_in_place(repo, NOTE, edited_note())
    append_by_hand(repo, LOG, GDANSK)
    assert memrepo_json(repo, "search", "zanzibar")["status"] == "found"
    save_in_place(repo, NOTE, edited_note().replace("zanzibar", "madagascar"))
    assert memrepo_json(repo, "search", "madagascar")["status"] == "found"
    build_into(repo, tmp_path / "fresh.sqlite")
    assert dump(cache_path(repo)) == dump(tmp_path / "fresh.sqlite")


def test_a_touched_file_is_not_re_indexed(repo: Path) -> None:
    before = _meta(repo)
    os.utime(repo / NOTE, ns=(1, 1))  # git reports its stat; its content is the same
    done = memrepo_at(repo, "search", "G11")
    assert done.returncode == 0 and "tauron" in done.stdout and done.stderr == ""
    assert _meta(repo) == before


def _meta(root: Path) -> dict[str, str]:
    conn = sqlite3.connect(cache_path(root))
    try:
        return dict(conn.execute("SELECT key, value FROM meta").fetchall())
    finally:
        conn.close()


@pytest.mark.long
def test_saves_are_seen_at_10k_notes(tmp_path: Path, git_env: dict[str, str]) -> None:
    from memrepo.bench.synth import generate

    root = tmp_path / "big"
    generate(root, 10_000, 20_000, seed=1)
    rebuild(root)
    path = sorted((root / "memory" / "entities").glob("*.md"))[100]
    relative = path.relative_to(root).as_posix()
    save_in_place(root, relative, path.read_text(encoding="utf-8") + "\nzanzibar\n")
    found = memrepo_json(root, "search", "zanzibar")
    assert [hit["path"] for hit in found["results"]] == [relative]


def test_a_reader_queried_without_pause_sees_saves_within_the_scan_interval(repo: Path) -> None:
    """Queries that keep coming are answered from scans started ahead in the background;
    a save is still seen by every query made SCAN_EVERY after it."""
    memory = Memory(repo)
    for _ in range(30):  # about 1.5 scan intervals of queries
        assert memory.search("zanzibar").status == "not_recorded"
        time.sleep(SCAN_EVERY / 20)
    save_in_place(repo, NOTE, edited_note())
    saved = time.monotonic()
    while time.monotonic() - saved < SCAN_EVERY:
        memory.search("zanzibar")
        time.sleep(SCAN_EVERY / 20)
    assert [hit.name for hit in memory.search("zanzibar").results] == ["tauron"]


def test_a_query_starts_the_scan_before_importing_the_rest() -> None:
    """Importing the cache package to start the scan pulls in no hashing, JSON, config or
    temporary-folder modules: what is imported before the scan delays every answer.
    Modules the interpreter loaded before memrepo (a site `.pth` file may) are not counted."""
    code = ("import sys; started = set(sys.modules); "
            "from memrepo.cache.edits import query_root; "
            "print(sorted(m for m in ('hashlib', 'orjson', 'memrepo.core.config', 'shutil', "
            "'tempfile', 'memrepo.core.notes.headers') if m in set(sys.modules) - started))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
