"""Shared file helpers: git's blob ids of large bytes, kept ids never given to other bytes."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memrepo.files import blob_digest, blob_id, prefix_blob_digest


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
