"""Keys compared by their folded slug (SPEC §4) through the real CLI: `Electricity Bill`,
`electricity-bill` and `electricity_bill` are one key in recall, history, search and
triage, shown in the form first recorded; logs written before keys were folded keep
working (nothing is rewritten)."""

from __future__ import annotations

from pathlib import Path

from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    init_repo,
    memrepo_at,
    memrepo_json,
    write,
)

LOG = "memory/facts/michal/2026-01.jsonl"


def _repo(root: Path, config: str = "approvers: []\n") -> Path:
    init_repo(root)
    write(root, "memory/config.yaml", config)
    return root


def _three_spellings(root: Path) -> Path:
    """The issue's three writes, as an old log holds them (before keys were folded)."""
    _repo(root)
    append_events(root, LOG, [
        assert_event("e1", "2026-01-05T00:00:00Z", "electricity_bill", "amount", "245 zł",
                     "2026-01-01"),
        assert_event("e2", "2026-01-06T00:00:00Z", "Electricity Bill", "Amount", "260 zł",
                     "2026-01-06"),
        assert_event("e3", "2026-01-07T00:00:00Z", "electricity-bill", "amount", "270 zł",
                     "2026-01-07"),
    ])
    commit_everything(root, "an old log")
    return root


def test_three_spellings_are_one_key_with_one_current_value(tmp_path: Path) -> None:
    root = _three_spellings(tmp_path / "repo")
    for subject, relation in (("electricity bill", "AMOUNT"), ("Electricity-Bill", "amount")):
        result = memrepo_json(root, "recall", "--scope", "michal", "--subject", subject,
                              "--relation", relation)
        [fact] = result["facts"]
        assert (fact["subject"], fact["relation"], fact["object"]) == (
            "electricity_bill", "amount", "270 zł")  # the form first recorded
    [fact] = memrepo_json(root, "recall", "--scope", "michal", "electricity")["facts"]
    assert fact["object"] == "270 zł"
    april = memrepo_json(root, "recall", "--scope", "michal", "--subject", "electricity_bill",
                         "--relation", "amount", "--as-of", "2026-01-06")
    assert [f["object"] for f in april["facts"]] == ["260 zł"]


def test_history_lists_the_events_of_every_spelling(tmp_path: Path) -> None:
    root = _three_spellings(tmp_path / "repo")
    events = memrepo_json(root, "history", "--scope", "michal", "ELECTRICITY_BILL",
                          "amount")["events"]
    assert [e["id"] for e in events] == ["e1", "e2", "e3"]
    assert [e["held"] for e in events] == [[["2026-01-01", "2026-01-06"]],
                                          [["2026-01-06", "2026-01-07"]],
                                          [["2026-01-07", None]]]


def test_a_retract_withdraws_its_target_in_any_spelling(tmp_path: Path) -> None:
    root = _three_spellings(tmp_path / "repo")
    append_events(root, LOG, [{"id": "r1", "op": "retract", "recorded_at":
                               "2026-01-08T00:00:00Z", "target": "e3", "reason": "misread",
                               "source": "manual", "session": "t"}])
    commit_everything(root, "retract")
    [fact] = memrepo_json(root, "recall", "--scope", "michal", "--subject", "Electricity Bill",
                          "--relation", "amount")["facts"]
    assert fact["object"] == "260 zł"


def test_an_earlier_recorded_spelling_becomes_the_shown_form(tmp_path: Path) -> None:
    root = _three_spellings(tmp_path / "repo")
    memrepo_json(root, "recall", "--scope", "michal", "electricity")  # the cache is built
    append_events(root, "memory/facts/michal/2025-12.jsonl", [
        assert_event("e0", "2025-12-30T00:00:00Z", "Electricity bill", "amount", "200 zł",
                     "2025-12-01")])  # imported from another memory, recorded earlier
    commit_everything(root, "import")
    [fact] = memrepo_json(root, "recall", "--scope", "michal", "--subject", "electricity_bill",
                          "--relation", "amount")["facts"]
    assert (fact["subject"], fact["object"]) == ("Electricity bill", "270 zł")


def test_many_valued_relations_are_compared_folded(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", "approvers: []\nmany_valued_relations: [speaks]\n")
    append_events(root, LOG, [
        assert_event("e1", "2026-01-05T00:00:00Z", "ola", "Speaks", "Polish", "2026-01-01"),
        assert_event("e2", "2026-01-06T00:00:00Z", "Ola", "speaks", "English", "2026-01-01"),
    ])
    commit_everything(root, "languages")
    facts = memrepo_json(root, "recall", "--scope", "michal", "--subject", "ola",
                         "--relation", "speaks")["facts"]
    assert sorted(f["object"] for f in facts) == ["English", "Polish"]
    assert {(f["subject"], f["relation"]) for f in facts} == {("ola", "Speaks")}


def test_triage_sees_one_key_across_spellings(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    append_events(root, LOG, [
        assert_event("e1", "2026-01-05T00:00:00Z", "rent", "amount", "2000 zł", "2026-01-01",
                     source="email", quote="rent is 2000 zł"),
        assert_event("e2", "2026-01-06T00:00:00Z", "Rent", "Amount", "2100 zł", "2026-01-01",
                     source="sms", quote="rent: 2100 zł"),
    ])
    commit_everything(root, "two sources")
    report = memrepo_json(root, "triage")
    [finding] = [f for f in report["findings"] if f["kind"] == "contradiction"]
    assert finding["subject"] == "michal: rent.amount"
    assert finding["related"] == ["e1", "e2"]


def test_did_you_mean_offers_the_shown_form(tmp_path: Path) -> None:
    root = _three_spellings(tmp_path / "repo")
    done = memrepo_at(root, "recall", "--scope", "michal", "elektricity bil")
    assert done.returncode == 0
    assert "electricity_bill" in done.stdout
    assert "Electricity Bill" not in done.stdout
