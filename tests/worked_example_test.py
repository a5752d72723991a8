"""SPEC §5 worked example, every row, through `memrepo recall --json` in a real repo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support import append_events, assert_event, commit_everything, init_repo, memrepo_json

KEY = ("--subject", "electricity_bill", "--relation", "amount")


def _bill(id_: str, recorded: str, amount: str, valid_from: str) -> dict[str, Any]:
    return assert_event(id_, f"{recorded}T00:00:00Z", "electricity_bill", "amount",
                        amount, valid_from)


FIRST_FIVE = [
    ("2026-01", _bill("e1", "2026-01-12", "210 zł", "2026-01-10")),
    ("2026-03", _bill("e2", "2026-03-05", "280 zł", "2026-03-01")),
    ("2026-07", _bill("e3", "2026-07-02", "245 zł", "2026-07-01")),
    ("2026-08", _bill("e4", "2026-08-01", "200 zł", "2025-10-01")),
    ("2026-08", _bill("e5", "2026-08-05", "250 zł", "2026-07-01")),
]
E6 = {"id": "e6", "op": "end", "recorded_at": "2026-10-02T00:00:00Z", "scope": "michal",
      "subject": "electricity_bill", "relation": "amount", "valid_to": "2026-10-01",
      "reason": "moved out", "source": "manual", "session": "test"}
E7 = {"id": "e7", "op": "retract", "recorded_at": "2026-10-03T00:00:00Z", "target": "e5",
      "reason": "re-read: 245 was right", "source": "manual", "session": "test"}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = init_repo(tmp_path_factory.mktemp("worked") / "repo")
    for month, event in FIRST_FIVE:
        append_events(root, f"memory/facts/michal/{month}.jsonl", [event])
    commit_everything(root, "e1..e5")
    return root


def _recall(root: Path, t: str, known: str) -> dict[str, Any]:
    result: dict[str, Any] = memrepo_json(root, "recall", "--scope", "michal", *KEY,
                                          "--as-of", t, "--known-at", known)
    return result


def _answer(result: dict[str, Any]) -> str | None:
    if result["status"] == "not_recorded":
        assert result["facts"] == []
        return None
    assert result["status"] == "found"
    assert len(result["facts"]) == 1
    return str(result["facts"][0]["object"])


@pytest.mark.parametrize(("t", "known", "expected"), [
    ("now", "now", "250 zł"),
    ("2026-04-15", "now", "280 zł"),
    ("2025-11-01", "now", "200 zł"),
    ("2025-11-01", "2026-07-15", None),
    ("2026-05-01", "2026-05-01", "280 zł"),
    ("2026-08-01", "2026-05-01", "280 zł"),
    ("2026-07-15", "2026-08-03", "245 zł"),
])
def test_worked_example_rows(repo: Path, t: str, known: str, expected: str | None) -> None:
    assert _answer(_recall(repo, t, known)) == expected


def test_now_answer_carries_both_axes_and_provenance(repo: Path) -> None:
    fact = _recall(repo, "now", "now")["facts"][0]
    assert fact["valid_from"] == "2026-07-01" and fact["valid_to"] is None
    assert fact["id"] == "e5" and fact["recorded_at"] == "2026-08-05T00:00:00Z"
    for field in ("scope", "subject", "relation", "confidence", "source", "quote"):
        assert field in fact


def test_shoe_size_is_not_recorded(repo: Path) -> None:
    result = memrepo_json(repo, "recall", "--scope", "michal", "--subject", "shoe",
                          "--relation", "size")
    assert result["status"] == "not_recorded" and result["facts"] == []


def test_free_text_recall_finds_the_key(repo: Path) -> None:
    result = memrepo_json(repo, "recall", "--scope", "michal", "electricity bill")
    assert [f["object"] for f in result["facts"]] == ["250 zł"]


def test_before_anything_was_recorded_nothing_holds(repo: Path) -> None:
    assert _answer(_recall(repo, "2026-01-11", "2026-01-11")) is None
    assert _answer(_recall(repo, "2025-01-01", "now")) is None  # never the nearest fact


@pytest.fixture(scope="module")
def continued(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """e6 (forget) and e7 (retract e5) appended and committed; the cache syncs them."""
    _recall(repo, "now", "now")  # make sure a cache exists before the continuation
    append_events(repo, "memory/facts/michal/2026-10.jsonl", [E6, E7])
    commit_everything(repo, "e6, e7")
    return repo


@pytest.mark.parametrize(("t", "known", "expected"), [
    ("2026-07-15", "now", "245 zł"),
    ("2026-10-15", "now", None),
    ("2026-07-15", "2026-10-02", "250 zł"),
    ("2026-09-15", "2026-10-02", "250 zł"),
])
def test_continuation_rows(continued: Path, t: str, known: str, expected: str | None) -> None:
    assert _answer(_recall(continued, t, known)) == expected


def test_history_shows_every_event(continued: Path) -> None:
    events = memrepo_json(continued, "history", "--scope", "michal", "electricity_bill",
                          "amount")["events"]
    assert [e["id"] for e in events] == ["e1", "e2", "e3", "e4", "e5", "e6", "e7"]
    by_id = {e["id"]: e for e in events}
    assert by_id["e5"]["retracted_by"] == "e7" and by_id["e5"]["held"] == []
    assert by_id["e3"]["held"] == [["2026-07-01", "2026-10-01"]]
    assert by_id["e4"]["held"] == [["2025-10-01", "2026-01-10"]]
    assert by_id["e6"]["op"] == "end" and by_id["e6"]["reason"] == "moved out"
