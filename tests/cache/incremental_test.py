"""Incremental sync equals a full rebuild after random commits, checkouts, merges, rebases,
resets and uncommitted edits in a real git repository."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memrepo.cache import cache_path, rebuild, sync
from memrepo.cache.build import build_into
from tests.support import (
    HOOKS_OFF,
    append_events,
    assert_event,
    commit_everything,
    dump,
    git,
    init_repo,
    note,
    plain_env,
    segment,
    write,
)

CATEGORIES = ("rules", "entities", "references", "project")
NAMES = ("alpha", "beta", "gamma", "delta", "epsilon")
SCOPES = ("michal", "anna")
MONTHS = ("2026-01", "2026-02")
SUBJECTS = ("bill", "Bill", "home", "HOME")
RELATIONS = ("amount", "city", "tag", "Tag")
WORDS = ("Łódź", "Škoda", "Michał", "invoice", "carton", "lead", "time", "VAT")
CONFIG = 'approvers: ["Ann <ann@example.com>"]\nmany_valued_relations: [tag]\n'


class Scenario:
    def __init__(self, root: Path, seed: int) -> None:
        self.root = root
        self.rng = random.Random(seed)
        self.counter = 0
        self.branches = ["main"]

    # --- operations ---------------------------------------------------------------------

    def edit_note(self) -> None:
        category, name = self.rng.choice(CATEGORIES), self.rng.choice(NAMES)
        words = " ".join(self.rng.choices(WORDS, k=5))
        lines = "".join(f"{word} line\n" for word in self.rng.choices(WORDS, k=self.rng.choice(
            (0, 9))))  # a long body is also indexed as passages
        body = f"# {name}\n\n{words} [[{self.rng.choice(NAMES)}]]\n{lines}"
        text = note(category, name, f"Profile of {name}: {words}", body,
                    aliases=[self.rng.choice(WORDS)] if category == "entities" else ())
        self._replace(f"memory/{category}/{name}.md", text)

    def delete_note(self) -> None:
        notes = sorted((self.root / "memory").glob("[rep]*/*.md"))
        if notes:
            self.rng.choice(notes).unlink()

    def append(self) -> None:
        scope, month = self.rng.choice(SCOPES), self.rng.choice(MONTHS)
        events = [self._event(scope, month) for _ in range(self.rng.randint(1, 3))]
        append_events(self.root, f"memory/facts/{scope}/{month}.jsonl", events)

    def append_refused(self) -> None:
        """A line the checks refuse (a repeated id, an out-of-range value), as a commit
        made with --no-verify leaves it: the cache skips it, sync and rebuild alike."""
        scope, month = self.rng.choice(SCOPES), self.rng.choice(MONTHS)
        bad = self._event(scope, month)
        known = self._ids(scope)
        if known and self.rng.random() < 0.7:
            bad["id"] = self.rng.choice(known)
        else:
            bad["confidence"] = 50
        append_events(self.root, f"memory/facts/{scope}/{month}.jsonl", [bad])

    def truncate_log(self) -> None:
        logs = sorted((self.root / "memory" / "facts").glob("*/*.jsonl"))
        if logs:
            log = self.rng.choice(logs)
            lines = log.read_bytes().splitlines(keepends=True)
            log.write_bytes(b"".join(lines[:-1]) + b'{"partial": ')

    def commit(self) -> None:
        self.counter += 1
        commit_everything(self.root, f"step {self.counter}")

    def branch(self) -> None:
        self.commit()
        name = f"b{len(self.branches)}"
        git(self.root, "checkout", "-q", "-b", name, env=plain_env())
        self.branches.append(name)

    def checkout(self) -> None:
        self.commit()
        git(self.root, "checkout", "-q", self.rng.choice(self.branches), env=plain_env())

    def merge(self) -> None:
        self.commit()
        other = self.rng.choice(self.branches)
        if self._git_ok("merge", "-q", "--no-edit", other) is False:
            self._git_ok("merge", "--abort")

    def rebase(self) -> None:
        self.commit()
        other = self.rng.choice(self.branches)
        if self._git_ok("rebase", "-q", other) is False:
            self._git_ok("rebase", "--abort")

    def reset(self) -> None:
        self._git_ok("reset", "-q", "--hard", "HEAD~1")

    # --- helpers --------------------------------------------------------------------------

    def _replace(self, path: str, data: bytes) -> None:
        """Write the way editors do: a new file renamed over the old one."""
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".tmp~")
        temporary.write_bytes(data)
        os.replace(temporary, target)

    def _event(self, scope: str, month: str) -> dict[str, Any]:
        self.counter += 1
        id_ = f"ev{self.counter:05d}"
        recorded = f"{month}-{self.rng.randint(1, 28):02d}T{self.counter % 24:02d}:00:00Z"
        # keys are compared folded (SPEC §4): "Bill" and "bill" are one key, shown in the
        # spelling first recorded — which a checkout or a merge can change
        subject, relation = self.rng.choice(SUBJECTS), self.rng.choice(RELATIONS)
        roll, known = self.rng.random(), self._ids(scope)
        if roll < 0.15 and known:
            return {"id": id_, "op": "retract", "recorded_at": recorded,
                    "target": self.rng.choice(known), "reason": "wrong",
                    "source": "manual", "session": "t"}
        if roll < 0.3:
            end: dict[str, Any] = {
                "id": id_, "op": "end", "recorded_at": recorded, "scope": scope,
                "subject": subject, "relation": relation, "reason": "over",
                "valid_to": f"2026-0{self.rng.randint(1, 9)}-01", "source": "manual",
                "session": "t"}
            if relation == "tag":
                end["object"] = self.rng.choice(WORDS)
            return end
        return assert_event(id_, recorded, subject, relation, self.rng.choice(WORDS),
                            f"2026-0{self.rng.randint(1, 9)}-01", scope=scope)

    def _ids(self, scope: str) -> list[str]:
        ids = []
        for log in sorted((self.root / "memory" / "facts" / scope).glob("*.jsonl")):
            for line in log.read_text(encoding="utf-8").splitlines():
                try:
                    ids.append(json.loads(line)["id"])
                except (ValueError, KeyError, TypeError):
                    continue
        return ids

    def _git_ok(self, *args: str) -> bool:
        done = subprocess.run(["git", "-C", str(self.root), *args], env=plain_env(),
                              capture_output=True, check=False)
        return done.returncode == 0


OPERATIONS = ("edit_note", "edit_note", "delete_note", "append", "append", "append",
              "append_refused", "truncate_log", "commit", "commit", "branch", "checkout",
              "merge", "rebase", "reset")


def _start(root: Path) -> Scenario:
    init_repo(root)
    write(root, "memory/config.yaml", CONFIG)
    write(root, ".gitattributes", "memory/facts/**/*.jsonl merge=union\n")
    scenario = Scenario(root, 0)
    scenario.edit_note()
    scenario.append()
    scenario.commit()
    return scenario


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sync_equals_rebuild_after_random_git_histories(tmp_path: Path, seed: int) -> None:
    scenario = _start(tmp_path / "repo")
    scenario.rng = random.Random(seed)
    rebuild(scenario.root)
    reference = tmp_path / "reference.sqlite"
    for step in range(30):
        operation = scenario.rng.choice(OPERATIONS)
        getattr(scenario, operation)()
        report = sync(scenario.root, force=True)
        reference.unlink(missing_ok=True)
        build_into(scenario.root, reference)
        assert dump(cache_path(scenario.root)) == dump(reference), (step, operation, report)


def test_a_log_that_only_grew_is_read_from_its_old_end(tmp_path: Path) -> None:
    scenario = _start(tmp_path / "repo")
    rebuild(scenario.root)
    scenario.append()
    scenario.commit()
    report = sync(scenario.root)
    assert report.mode == "incremental" and report.logs == 1 and report.notes == 0


def test_the_digest_of_a_log_that_grew_is_extended_and_still_notices_an_edited_row(
        tmp_path: Path) -> None:
    import sqlite3

    from memrepo.cache.audit import edited_logs

    root, log = init_repo(tmp_path / "repo"), "memory/facts/michal/2026-01.jsonl"

    def grow(number: int) -> None:
        append_events(root, log, [assert_event(f"k{number}", f"2026-01-0{number}T00:00:00Z",
                                               f"subject{number}", "amount", "1", "2025-01-01")])
        commit_everything(root, f"event {number}")

    grow(1)
    rebuild(root)
    grow(2)
    assert sync(root).paths == [log]
    build_into(root, tmp_path / "reference.sqlite")
    digests = "SELECT path, digest FROM log_digests"
    with sqlite3.connect(cache_path(root)) as conn, \
            sqlite3.connect(tmp_path / "reference.sqlite") as fresh:
        assert conn.execute(digests).fetchall() == fresh.execute(digests).fetchall()
        assert edited_logs(conn) == []
        conn.execute("UPDATE events SET object = 'edited behind the cache'")
    grow(3)
    assert sync(root).paths == [log]  # the digest extended from the stored one
    with sqlite3.connect(cache_path(root)) as conn:
        assert edited_logs(conn) == [log]


def test_a_large_log_edited_in_place_and_grown_is_read_whole(tmp_path: Path) -> None:
    """The sync compares a large log with the bytes it hashed last (not hashing it again):
    a line changed in place, keeping the size, before another is appended, is still seen."""
    root, log = init_repo(tmp_path / "repo"), "memory/facts/michal/2026-01.jsonl"
    append_events(root, log, [assert_event(f"k{n:05d}", "2026-01-01T00:00:00Z", f"s{n}",
                                           "amount", "1", "2025-01-01") for n in range(5000)])
    commit_everything(root, "a large log")
    rebuild(root)
    append_events(root, log, [assert_event("k90001", "2026-01-02T00:00:00Z", "t", "amount",
                                           "1", "2025-01-01")])
    commit_everything(root, "grown")
    assert sync(root).paths == [log]
    data = (root / log).read_bytes()
    assert len(data) > 1 << 20
    (root / log).write_bytes(data.replace(b'"object": "1"', b'"object": "2"', 1))
    append_events(root, log, [assert_event("k90002", "2026-01-03T00:00:00Z", "u", "amount",
                                           "1", "2025-01-01")])
    commit_everything(root, "edited and grown")
    sync(root)
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")


def test_unchanged_repository_is_fresh(tmp_path: Path) -> None:
    scenario = _start(tmp_path / "repo")
    rebuild(scenario.root)
    assert sync(scenario.root).mode == "fresh"


def test_changed_config_rebuilds(tmp_path: Path) -> None:
    scenario = _start(tmp_path / "repo")
    rebuild(scenario.root)
    write(scenario.root, "memory/config.yaml", CONFIG.replace("[tag]", "[tag, city]"))
    scenario.commit()
    assert sync(scenario.root).mode == "rebuilt"


def test_a_shrunk_log_recomputes_only_the_keys_of_removed_events(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    events = [assert_event(f"k{i}", f"2026-01-0{1 + i % 9}T00:00:00Z", f"subject{i}",
                           "amount", "1", "2025-01-01") for i in range(20)]
    append_events(root, "memory/facts/michal/2026-01.jsonl", events)
    first = commit_everything(root, "twenty keys")
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("k99", "2026-01-20T00:00:00Z", "subject3", "amount", "2", "2026-01-01")])
    commit_everything(root, "one more")
    rebuild(root)
    git(root, "checkout", "-q", first, env=plain_env())
    report = sync(root)
    assert (report.mode, report.logs, report.keys) == ("incremental", 1, 1)


def test_a_new_log_created_by_hand_in_a_scope_makes_the_cache_stale(tmp_path: Path) -> None:
    root = init_repo(tmp_path / "repo")
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("a1", "2026-01-05T00:00:00Z", "home", "city", "Łódź", "2026-01-01")])
    commit_everything(root)
    rebuild(root)
    assert sync(root).mode == "fresh"
    # a new month's log, untracked: no commit, no staged path, no edit of a known file
    append_events(root, "memory/facts/michal/2026-02.jsonl", [
        assert_event("a2", "2026-02-05T00:00:00Z", "home", "city", "Kraków", "2026-02-01")])
    assert sync(root).mode != "fresh"


def _hand_appended_then_a_commit_elsewhere(tmp_path: Path, ago: int, head_ahead: int,
                                           ) -> tuple[Path, str, str]:
    """A log of lines recorded `ago` seconds ago, appended by hand and indexed; then a
    commit of another log dated `head_ahead` seconds from now: (root, that log, the
    other)."""
    root, other = init_repo(tmp_path / "repo"), "memory/facts/anna/2026-01.jsonl"
    append_events(root, other, [assert_event("a1", "2026-01-01T00:00:00Z", "bill", "amount",
                                             "1", "2025-01-01", scope="anna")])
    commit_everything(root, "anna")
    stamp = (datetime.now(UTC) - timedelta(seconds=ago)).strftime("%Y-%m-%dT%H:%M:%SZ")
    log = segment(stamp)
    append_events(root, log, [assert_event(f"h{n}", stamp, f"s{n}", "city", "Łódź",
                                           "2025-01-01") for n in range(3)])
    rebuild(root)
    with sqlite3.connect(cache_path(root)) as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE path = ?",
                            (log,)).fetchone() == (3,)
    append_events(root, other, [assert_event("a2", "2026-01-02T00:00:00Z", "bill", "amount",
                                             "2", "2025-01-01", scope="anna")])
    when = (datetime.now(UTC) + timedelta(seconds=head_ahead)).strftime("%Y-%m-%dT%H:%M:%SZ")
    git(root, "add", other, env=plain_env())
    git(root, *HOOKS_OFF, "commit", "-qm", "anna again",
        env=plain_env(GIT_COMMITTER_DATE=when, GIT_AUTHOR_DATE=when))
    return root, log, other


def test_a_dirty_log_is_not_read_again_when_a_commit_elsewhere_keeps_its_verdicts(
        tmp_path: Path) -> None:
    """HEAD moved (a library write, a commit) without touching a hand-appended log: its
    lines not committed still lie in the time window, so it is not read (and judged)
    again; the cache still equals a rebuild."""
    root, _, other = _hand_appended_then_a_commit_elsewhere(tmp_path, 0, 0)
    assert sync(root).paths == [other]
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")


def test_a_dirty_log_whose_lines_are_now_back_dated_is_judged_again(tmp_path: Path) -> None:
    """The new HEAD is later than the hand-appended lines allow (beyond the clock skew):
    they are left out, as a rebuild leaves them out."""
    root, log, other = _hand_appended_then_a_commit_elsewhere(tmp_path, 200, 200)
    assert sync(root).paths == sorted([log, other])
    with sqlite3.connect(cache_path(root)) as conn:
        assert conn.execute("SELECT count(*) FROM events WHERE path = ?",
                            (log,)).fetchone() == (0,)
        reasons = [r for (r,) in conn.execute("SELECT reason FROM skipped WHERE path = ?",
                                              (log,))]
    assert len(reasons) == 3 and all("back-dated" in reason for reason in reasons)
    build_into(root, tmp_path / "reference.sqlite")
    assert dump(cache_path(root)) == dump(tmp_path / "reference.sqlite")
