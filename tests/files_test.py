"""Shared file helpers: git's blob ids of large bytes, kept ids never given to other bytes;
reading the work tree's files, never through a symbolic link."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from memrepo.files import blob_digest, blob_id, prefix_blob_digest, read_bytes, read_files


def _git_id(tmp_path: Path, data: bytes) -> str:
    file = tmp_path / "blob"
    file.write_bytes(data)
    return subprocess.run(["git", "hash-object", str(file)], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_a_kept_id_is_given_only_to_the_same_bytes(tmp_path: Path) -> None:
    log = b"".join(b'{"id": "%06d", "object": "state"}\n' % n for n in range(40_000))
    edited = log.replace(b"000001", b"999999", 1)  # the same size, one line changed
    assert len(edited) == len(log) > 1 << 20
    assert blob_id(log) == _git_id(tmp_path, log)
    assert blob_id(bytes(bytearray(log))) == blob_id(log)  # an equal copy: the kept id
    assert blob_id(edited) == _git_id(tmp_path, edited) != blob_id(log)
    grown = log + b'{"id": "new"}\n'
    assert prefix_blob_digest(grown, len(log)) == blob_digest(log)
    assert prefix_blob_digest(edited + b"tail\n", len(log)) == blob_digest(edited)
    shifted = b"x" + grown
    assert prefix_blob_digest(shifted, len(log)).hex() == _git_id(tmp_path, shifted[:len(log)])


def test_files_are_read_beneath_the_root_and_never_through_a_link(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    notes = root / "memory" / "entities"
    notes.mkdir(parents=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_bytes(b"secret")
    (notes / "a.md").write_bytes(b"a")
    (notes / "b.md").write_bytes(b"")
    (notes / "folder.md").mkdir()
    os.symlink(outside / "secret.md", notes / "link.md")
    os.symlink(outside, root / "memory" / "linked")
    (root / "memory" / "not-a-folder").write_bytes(b"x")
    paths = ["memory/entities/a.md", "memory/entities/b.md", "memory/entities/missing.md",
             "memory/entities/folder.md", "memory/entities/link.md",
             "memory/linked/secret.md", "memory/not-a-folder/a.md", "memory/missing/a.md",
             "memory/not-a-folder"]
    expected = [b"a", b"", None, None, None, None, None, None, b"x"]
    open_before = _open_descriptors()
    assert read_files(root, paths) == expected
    assert _open_descriptors() == open_before
    assert [read_bytes(root, path) for path in paths] == expected
    assert read_files(tmp_path / "no-repo", paths[:1]) == [None]


def _open_descriptors() -> int | None:
    fds = Path("/proc/self/fd")
    return len(list(fds.iterdir())) if fds.is_dir() else None
