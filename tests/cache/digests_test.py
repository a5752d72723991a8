"""A log's rows digest: a chain over fixed pieces of the encoded rows, extended from its
stored state and tail when the log grows."""

from __future__ import annotations

import pytest

from memrepo.cache.digests import CHUNK_BYTES, EMPTY, encoded_digest, rows_digest

ROWS = [(f"id{n:05d}", "assert", "michal", f"subject {n}", "amount", str(n) * (n % 40),
         1_700_000_000 + n, None, 0.5, "manual", "s", "memory/facts/michal/2026-01.jsonl",
         n + 1) for n in range(300)]


@pytest.mark.parametrize("split", [0, 1, 7, 40, 150, 299, 300])
def test_a_digest_extended_over_appended_rows_is_the_digest_of_them_all(split: int) -> None:
    whole = rows_digest(ROWS)
    assert len(whole.tail) < CHUNK_BYTES < sum(len(repr(row)) for row in ROWS)
    assert rows_digest(ROWS[split:], rows_digest(ROWS[:split])) == whole


def test_extending_one_row_at_a_time_gives_the_same_digest() -> None:
    digest = EMPTY
    for row in ROWS:
        digest = rows_digest([row], digest)
    assert digest == rows_digest(ROWS)


def test_any_changed_byte_changes_the_digest() -> None:
    data = b"".join(b'["%d",1]' % n for n in range(2000))
    digest = encoded_digest(data).digest
    for position in (0, CHUNK_BYTES - 1, CHUNK_BYTES, len(data) // 2, len(data) - 1):
        changed = data[:position] + bytes([data[position] ^ 1]) + data[position + 1:]
        assert encoded_digest(changed).digest != digest
    assert encoded_digest(data[:-1]).digest != digest
    assert encoded_digest(b"").digest == EMPTY.digest != digest
