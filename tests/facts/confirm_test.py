"""`remember --confirm` (SPEC §4): re-asserting the value that holds clears triage's "not
re-confirmed for a year"; and quarantined facts the host already holds (promoted, or
promoted as `unchanged`) leave the review list. Through the CLI and the real MCP client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memrepo.cli import main
from memrepo.facts.segments import read_scope
from tests.support import commit_count, make_repo, mcp_remember

APPROVER = "Test Person <test@example.com>"


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "repo", monkeypatch)
    monkeypatch.chdir(root)
    return root


def at(monkeypatch: pytest.MonkeyPatch, moment: str) -> None:
    monkeypatch.setenv("MEMREPO_NOW", moment)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def kinds(capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    code, report = cli(capsys, "triage")
    assert code == 0
    return [(f["kind"], f["subject"]) for f in report["findings"]
            if f["kind"] in ("stale-fact", "quarantine", "contradiction")]


def test_confirm_clears_the_stale_finding_and_changes_no_answer(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    at(monkeypatch, "2026-01-10T09:00:00Z")
    cli(capsys, "remember", "--scope", "michal", "electricity_bill", "amount", "245 zł",
        "--valid-from", "2026-01-01", "--valid-to", "2027-06-01")
    at(monkeypatch, "2027-03-01T09:00:00Z")
    assert kinds(capsys) == [("stale-fact", "michal: electricity_bill.amount")]
    before = cli(capsys, "history", "--scope", "michal", "electricity_bill", "amount")[1]
    code, answer = cli(capsys, "remember", "--scope", "michal", "Electricity Bill", "amount",
                       "245 zł", "--confirm", "--source", "email",
                       "--quote", "still 245 zł a month")
    assert (code, answer["status"]) == (0, "added")
    assert kinds(capsys) == []
    events = cli(capsys, "history", "--scope", "michal", "electricity_bill", "amount")[1]
    confirmation = events["events"][-1]
    assert (confirmation["valid_from"], confirmation["valid_to"]) == ("2026-01-01",
                                                                      "2027-06-01")
    assert confirmation["held"] == before["events"][0]["held"]  # the same value, now by it
    recalled = cli(capsys, "recall", "--scope", "michal", "--subject", "electricity_bill",
                   "--relation", "amount", "--as-of", "2026-06-01")[1]["facts"]
    assert [(f["object"], f["valid_from"], f["valid_to"]) for f in recalled] == [
        ("245 zł", "2026-01-01", "2027-06-01")]


def test_confirm_of_another_value_is_refused(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    at(monkeypatch, "2026-01-10T09:00:00Z")
    cli(capsys, "remember", "--scope", "michal", "rent", "amount", "2000 zł")
    commits = commit_count(repo)
    assert main(["remember", "--scope", "michal", "rent", "amount", "2100 zł",
                 "--confirm"]) == 1
    err = capsys.readouterr().err
    assert "cannot confirm rent.amount = '2100 zł'" in err and "'2000 zł'" in err
    assert "remember it without --confirm" in err
    assert main(["remember", "--scope", "michal", "shoe", "size", "44", "--confirm"]) == 1
    assert "holds nothing" in capsys.readouterr().err
    assert commit_count(repo) == commits
    assert main(["remember", "--scope", "michal", "rent", "amount", "2000 zł",
                 "--confirm"]) == 0
    assert capsys.readouterr().out.startswith("confirmed rent.amount = 2000 zł")


def test_mcp_confirm(repo: Path, monkeypatch: pytest.MonkeyPatch,
                     capsys: pytest.CaptureFixture[str]) -> None:
    at(monkeypatch, "2026-01-10T09:00:00Z")
    cli(capsys, "remember", "--scope", "michal", "rent", "amount", "2000 zł")
    at(monkeypatch, "2027-03-01T09:00:00Z")
    assert kinds(capsys) == [("stale-fact", "michal: rent.amount")]
    [confirmed] = mcp_remember(repo, [{
        "subject": "rent", "relation": "amount", "object": "2000 zł",
        "quote": "yes, the rent is still 2000 zł", "confirm": True}])
    assert confirmed["status"] == "added"
    assert kinds(capsys) == []
    [confirmation] = [e for e in read_scope(repo, "michal") if e.source == "mcp"]
    assert confirmation.quote == "yes, the rent is still 2000 zł"


def test_quarantined_facts_the_host_holds_leave_the_review_list(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    at(monkeypatch, "2026-01-10T09:00:00Z")
    cli(capsys, "remember", "--scope", "michal", "rent", "amount", "2000 zł",
        "--valid-from", "2026-01-01")
    untrusted = ("--trust", "untrusted", "--source", "mcp")
    same = cli(capsys, "remember", "--scope", "michal", "Rent", "amount", "2000 zł",
               "--valid-from", "2026-01-01", *untrusted, "--quote", "rent 2000 zł")[1]
    other = cli(capsys, "remember", "--scope", "michal", "car", "colour", "red",
                *untrusted, "--quote", "my car is red")[1]
    # the host already holds the first over its whole interval: nothing to review
    assert kinds(capsys) == [("quarantine", "quarantine-michal: car.colour")]
    code, promoted = cli(capsys, "promote", "--scope", "michal", same["id"], "--by", APPROVER,
                         "--reason", "the lease says so")
    assert (code, promoted["status"]) == (0, "unchanged")  # the host already holds it
    assert kinds(capsys) == [("quarantine", "quarantine-michal: car.colour")]
    cli(capsys, "promote", "--scope", "michal", other["id"], "--by", APPROVER,
        "--reason", "seen it")
    assert kinds(capsys) == []
