"""git's index pointed at new blobs (memrepo.git.staging): the in-place patcher against
what git itself makes of the result, the libgit2 and git fallbacks, and the lock protocol."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygit2
import pytest

from memrepo.git import staging
from tests.support import git, plain_env

LOG = "memory/facts/michal/2026-01.jsonl"
FILES = {
    "a.txt": "a\n",
    LOG: '{"id":"1"}\n',
    "memory/facts/michal-2/2026-01.jsonl": "{}\n",
    "x/memory/facts/michal/2026-01.jsonl": "a longer path ending the same way\n",
    "memory/entities/acme.md": "acme\n",
    "z.txt": "z\n",
}


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in plain_env().items():
        monkeypatch.setenv(key, value)
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "one")
    return root


def append_and_stage(root: Path, path: str, extra: bytes, index: Path | None = None) -> str:
    """Write a blob with `extra` appended, set it in the index with the patcher (or the
    fallback), append it to the file too; the blob's hex."""
    data = (root / path).read_bytes() + extra
    oid = pygit2.Repository(str(root)).create_blob(data)
    index_file = index or root / ".git/index"
    parts = staging.patched(index_file.read_bytes(), {path: oid.raw})
    assert parts is not None
    index_file.write_bytes(b"".join(parts))
    (root / path).write_bytes(data)
    return str(oid)


def test_a_patched_entry_is_what_git_and_libgit2_read(repo: Path) -> None:
    oid = append_and_stage(repo, LOG, b'{"id":"2"}\n')
    assert git(repo, "ls-files", "-s", LOG).stdout.split()[1] == oid
    assert git(repo, "diff", "--stat").stdout == ""  # work tree = index
    assert pygit2.Index(str(repo / ".git/index"))[LOG].id == pygit2.Oid(hex=oid)
    git(repo, "commit", "-q", "-m", "two")
    assert git(repo, "show", f"HEAD:{LOG}").stdout == '{"id":"1"}\n{"id":"2"}\n'
    assert git(repo, "status", "--porcelain").stdout == ""


def test_the_cache_tree_of_the_changed_folders_is_invalidated(repo: Path) -> None:
    git(repo, "write-tree")  # a fully valid cache tree, as after a commit
    append_and_stage(repo, LOG, b'{"id":"2"}\n')
    written = git(repo, "write-tree").stdout.strip()  # from the cache tree where valid
    index = pygit2.Index(str(repo / ".git/index"))
    assert written == str(index.write_tree(pygit2.Repository(str(repo))))
    assert git(repo, "ls-tree", "-r", written, LOG).stdout.split()[2] == str(index[LOG].id)


def test_a_longer_path_ending_the_same_way_is_left_alone(repo: Path) -> None:
    other = "x/memory/facts/michal/2026-01.jsonl"
    before = git(repo, "ls-files", "-s", other).stdout
    append_and_stage(repo, LOG, b"{}\n")
    assert git(repo, "ls-files", "-s", other).stdout == before


def test_what_the_patcher_does_not_handle_is_declined(repo: Path) -> None:
    data = (repo / ".git/index").read_bytes()
    blob = bytes(20)
    assert staging.patched(data, {"memory/facts/new/2026-01.jsonl": blob}) is None
    git(repo, "update-index", "--index-version", "4")
    assert staging.patched((repo / ".git/index").read_bytes(), {LOG: blob}) is None
    assert staging.patched(b"not an index", {LOG: blob}) is None


def test_an_end_of_index_entries_extension_is_recomputed(repo: Path) -> None:
    git(repo, "-c", "index.recordEndOfIndexEntries=true", "update-index", "--force-write-index")
    assert b"EOIE" in (repo / ".git/index").read_bytes()
    oid = append_and_stage(repo, LOG, b"{}\n")
    done = git(repo, "-c", "index.threads=2", "ls-files", "-s", LOG)
    assert done.stdout.split()[1] == oid and done.stderr == ""


def test_update_falls_back_for_a_new_entry_and_keeps_the_rest(repo: Path) -> None:
    git(repo, "add", "--", "a.txt")  # nothing staged: the index equals HEAD
    (repo / "z.txt").write_text("staged by a person\n")
    git(repo, "add", "z.txt")
    path = "memory/facts/new-scope/2026-01.jsonl"
    oid = pygit2.Repository(str(repo)).create_blob(b"{}\n")
    assert staging.update(repo, repo / ".git", {path: oid.raw}, time.monotonic() + 5)
    assert git(repo, "ls-files", "-s", path).stdout.split()[1] == str(oid)
    assert git(repo, "diff", "--cached", "--name-only").stdout.split() == [path, "z.txt"]


def test_the_swap_waits_for_git_and_gives_up_at_the_deadline(repo: Path) -> None:
    lock = repo / ".git/index.lock"
    lock.write_bytes(b"")
    prepared = staging.prepare(repo / ".git", {LOG: bytes(20)})
    assert prepared is not None
    assert staging.swap(prepared, time.monotonic() + 0.2) is None  # git holds the lock
    lock.unlink()
    git(repo, "update-index", "--refresh")  # .git/index rewritten meanwhile by git
    os.utime(repo / ".git/index", ns=(1, 1))
    assert staging.swap(prepared, time.monotonic() + 1) is False  # prepared from the old one
    staging.discard(prepared)
    assert not lock.exists() and not prepared.temporary.exists()


def test_a_lock_its_caller_judges_stale_is_removed_and_the_swap_done(repo: Path) -> None:
    lock = repo / ".git/index.lock"
    lock.write_bytes(b"")  # no process holds it: a write killed while it did
    oid = pygit2.Repository(str(repo)).create_blob(b"{}\n{}\n")
    prepared = staging.prepare(repo / ".git", {LOG: oid.raw})
    assert prepared is not None
    judged: list[Path] = []

    def stale(lock: Path) -> bool:
        judged.append(lock)
        return True

    assert staging.swap(prepared, time.monotonic() + 0.2, stale)
    assert judged == [lock] and not lock.exists()
    assert git(repo, "ls-files", "-s", LOG).stdout.split()[1] == str(oid)


def test_a_lock_replaced_while_it_was_judged_is_waited_for(repo: Path) -> None:
    lock = repo / ".git/index.lock"
    lock.write_bytes(b"")

    def git_took_it_meanwhile(judged: Path) -> bool:
        judged.unlink()
        judged.write_bytes(b"DIRC")
        return True

    prepared = staging.prepare(repo / ".git", {LOG: bytes(20)})
    assert prepared is not None
    assert staging.swap(prepared, time.monotonic() + 0.2, git_took_it_meanwhile) is None
    staging.discard(prepared)
    assert lock.read_bytes() == b"DIRC"


def test_a_locked_index_is_rewritten_in_place(repo: Path) -> None:
    locked = repo / ".git/index.lock"  # as `git commit -a` holds it during its hooks
    locked.write_bytes((repo / ".git/index").read_bytes())
    oid = pygit2.Repository(str(repo)).create_blob(b"{}\n{}\n")
    assert staging.rewrite_locked(repo / ".git", locked, {LOG: oid.raw})
    assert pygit2.Index(str(locked))[LOG].id == oid
