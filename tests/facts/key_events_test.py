"""A key's events for a write come from the cache's rows of the logs it holds as they are,
and from a scan of the others: always the events a read of the whole scope gives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.cache import open_fresh
from memrepo.core.problems import InputError
from memrepo.facts import writes as store
from memrepo.facts.key_events import key_events
from memrepo.facts.segments import key_events as filtered
from memrepo.facts.segments import read_scope
from tests.support import make_repo

TRICKY = ['say "hi"', "back\\slash", "Łódź", "jan", "jan-novak", "Jan Novak"]


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "repo", monkeypatch)
    for subject in TRICKY:
        first = store.remember(root, scope="michal", subject=subject, relation="amount",
                               object="210 zł", valid_from="2026-01-10")
        assert first.id is not None
        store.retract(root, scope="michal", target=first.id, reason="wrong")
        store.remember(root, scope="michal", subject=subject, relation="amount",
                       object="280 zł", valid_from="2026-03-01", new_key=True)
    store.forget(root, scope="michal", subject="jan", relation="amount", reason="paid")
    open_fresh(root).close()
    return root


def _log(root: Path) -> Path:
    [path] = (root / "memory" / "facts" / "michal").glob("*.jsonl")
    return path


def _events_of(root: Path, subject: str) -> list[object]:
    conn = open_fresh(root, hook=True)
    try:
        return list(key_events(root, conn, "michal", (subject, "amount"),
                               lambda: [subject]))
    finally:
        conn.close()


def test_from_the_cache_they_are_the_events_of_the_whole_scope(repo: Path) -> None:
    everything = read_scope(repo, "michal")
    for subject in TRICKY:
        assert _events_of(repo, subject) == filtered(everything, subject, "amount")
    assert _events_of(repo, "Jan Novak") == _events_of(repo, "jan-novak")  # one key, folded


def test_a_log_grown_by_hand_is_read_from_the_file(repo: Path) -> None:
    log = _log(repo)
    first = json.loads(log.read_bytes().splitlines()[0])
    handmade = {**first, "id": "handmade-1", "subject": "Łódź", "object": "300 zł",
                "valid_from": "2026-04-01"}
    log.write_bytes(log.read_bytes() + json.dumps(handmade).encode() + b"\n")  # \u escapes
    events = _events_of(repo, "Łódź")
    assert events == filtered(read_scope(repo, "michal"), "Łódź", "amount")
    assert "handmade-1" in [e.id for e in events]


def test_a_bad_line_appended_by_hand_still_refuses_the_write(repo: Path) -> None:
    log = _log(repo)
    log.write_bytes(log.read_bytes() + b'{"id": "x", "op": "assert", "subject": "jan"}\n')
    with pytest.raises(InputError, match=r"jsonl:\d+: "):
        store.remember(repo, scope="michal", subject="jan", relation="amount",
                       object="1 zł")


def test_a_retry_of_a_write_the_cache_holds_is_unchanged(repo: Path) -> None:
    again = store.remember(repo, scope="michal", subject="JAN NOVAK", relation="amount",
                           object="280 zł", valid_from="2026-03-01")
    assert again.status == "unchanged"
    assert again.key == ("jan-novak", "amount")
