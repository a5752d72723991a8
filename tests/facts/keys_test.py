"""The write gate (SPEC §4, issue 11) on every write path: a new key that looks like a
recorded key of the scope writes nothing and answers `similar_key` with the recorded
key(s) unless the caller insists; keys equal after folding are one key, written in the
form first recorded. Through the CLI, a batch file, the API, the real MCP client,
extraction and promotion, in real repositories with real commits."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from memrepo.agent.api import Memory
from memrepo.cli import main
from memrepo.facts.segments import read_scope
from tests.support import commit_count, make_repo, mcp_remember, status


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "repo", monkeypatch)
    monkeypatch.chdir(root)
    return root


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def remember(capsys: pytest.CaptureFixture[str], subject: str, relation: str, value: str,
             *extra: str) -> tuple[int, Any]:
    return cli(capsys, "remember", "--scope", "michal", subject, relation, value, *extra)


def test_a_typo_of_a_recorded_key_writes_nothing_and_names_it(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert remember(capsys, "electricity_bill", "amount", "245 zł")[0] == 0
    commits = commit_count(repo)
    code, answer = remember(capsys, "electricty_bill", "amount", "260 zł")
    assert code == 1 and answer["status"] == "similar_key" and answer["id"] is None
    [similar] = answer["similar"]
    assert (similar["subject"], similar["relation"], similar["recorded"]) == (
        "electricity_bill", "amount", True)
    assert "one typo apart" in similar["how"]
    assert commit_count(repo) == commits and status(repo) == ""
    assert main(["remember", "--scope", "michal", "electricity_bil", "amount", "260 zł"]) == 1
    err = capsys.readouterr().err
    assert "looks like electricity_bill.amount" in err
    assert "To fix: use `electricity_bill amount` if it is the same thing" in err
    assert "--new-key" in err and "Traceback" not in err


def test_new_key_insists_and_the_key_is_then_recorded(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "car", "colour", "red")
    assert remember(capsys, "car", "color", "blue")[1]["status"] == "similar_key"
    code, answer = remember(capsys, "car", "color", "blue", "--new-key")
    assert (code, answer["status"]) == (0, "added")
    assert remember(capsys, "car", "color", "green")[1]["status"] == "added"  # recorded now


@pytest.mark.parametrize(("recorded", "new"), [
    (("electricity_bill", "amount"), ("Electricity Bill", "Amount")),
    (("electricity_bill", "amount"), ("electricity-bill", "amount")),
    (("Łódź Packaging", "lead_time"), ("lodz_packaging", "lead time")),
])
def test_a_spelling_of_a_recorded_key_is_that_key_in_its_first_form(
        repo: Path, capsys: pytest.CaptureFixture[str], recorded: tuple[str, str],
        new: tuple[str, str]) -> None:
    remember(capsys, *recorded, "245 zł", "--valid-from", "2026-01-01")
    assert remember(capsys, *new, "245 zł", "--valid-from", "2026-01-01")[1]["status"] == \
        "unchanged"
    assert remember(capsys, *new, "260 zł", "--valid-from", "2026-03-01")[1]["status"] == \
        "added"
    events = read_scope(repo, "michal")
    assert {(e.subject, e.relation) for e in events} == {recorded}
    _, answer = cli(capsys, "recall", "--scope", "michal", "--subject", new[0],
                       "--relation", new[1])
    assert [(f["subject"], f["object"]) for f in answer["facts"]] == [(recorded[0], "260 zł")]


def test_a_new_relation_of_a_known_subject_keeps_the_subject_as_first_written(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "Jan Novák", "email", "jan@example.com")
    assert remember(capsys, "jan novak", "phone", "+48 600 100 200")[1]["status"] == "added"
    assert {e.subject for e in read_scope(repo, "michal")} == {"Jan Novák"}


@pytest.mark.parametrize(("recorded", "new"), [
    (("car", "model"), ("car", "make")),
    (("jan_kowalski", "email"), ("anna_kowalska", "email")),
    (("jan", "phone"), ("jana", "phone")),
    (("vat_return", "q2_2026"), ("vat_return", "q3_2026")),
    (("bill_2025", "amount"), ("bill_2026", "amount")),
    (("mother", "name"), ("brother", "name")),
    (("cat", "name"), ("car", "name")),
    (("grandma", "phone"), ("grandpa", "phone")),
    (("person", "weight"), ("person", "height")),
])
def test_legitimate_neighbours_pass_the_gate(repo: Path, capsys: pytest.CaptureFixture[str],
                                             recorded: tuple[str, str],
                                             new: tuple[str, str]) -> None:
    remember(capsys, *recorded, "x")
    code, answer = remember(capsys, *new, "y")
    assert (code, answer["status"]) == (0, "added"), answer


def test_a_subject_typo_with_a_new_relation_suggests_the_recorded_subject(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "jan_kowalski", "email", "jan@example.com")
    code, answer = remember(capsys, "jan_kowalsky", "phone", "600 100 200")
    assert code == 1
    assert answer["similar"] == [{"subject": "jan_kowalski", "relation": "phone",
                                  "recorded": False, "how": answer["similar"][0]["how"]}]


def test_forget_of_a_misspelt_key_names_the_recorded_one(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "electricity_bill", "amount", "245 zł")
    assert main(["forget", "--scope", "michal", "electricty_bill", "amount",
                 "--reason", "moved out"]) == 1
    err = capsys.readouterr().err
    assert "nothing to forget" in err and "did you mean electricity_bill amount?" in err
    code, answer = cli(capsys, "forget", "--scope", "michal", "Electricity Bill", "amount",
                       "--reason", "moved out")
    assert (code, answer["status"]) == (0, "added")
    [end] = [e for e in read_scope(repo, "michal") if e.op == "end"]
    assert (end.subject, end.relation) == ("electricity_bill", "amount")


def test_a_key_without_letters_or_digits_is_refused(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["remember", "--scope", "michal", "!!!", "amount", "1"]) == 1
    assert "has no letters or digits" in capsys.readouterr().err


# --- batch -----------------------------------------------------------------------------

def _batch(tmp_path: Path, facts: list[dict[str, Any]]) -> str:
    path = tmp_path / "facts.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in facts), encoding="utf-8")
    return str(path)


def test_a_batch_with_a_near_key_writes_nothing(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "electricity_bill", "amount", "245 zł")
    commits = commit_count(repo)
    batch = _batch(tmp_path, [
        {"subject": "rent", "relation": "amount", "object": "2000 zł"},
        {"subject": "electricty_bill", "relation": "amount", "object": "260 zł"}])
    assert main(["remember", "--scope", "michal", "--batch", batch]) == 1
    err = capsys.readouterr().err
    assert "fact #2 of the batch" in err and "electricity_bill.amount" in err
    assert commit_count(repo) == commits
    batch = _batch(tmp_path, [
        {"subject": "rent", "relation": "amount", "object": "2000 zł"},
        {"subject": "electricty_bill", "relation": "amount", "object": "260 zł",
         "new_key": True}])
    assert main(["remember", "--scope", "michal", "--batch", batch]) == 0
    assert commit_count(repo) == commits + 1


def test_a_batch_gates_its_own_earlier_facts(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = _batch(tmp_path, [
        {"subject": "water_bill", "relation": "amount", "object": "80 zł"},
        {"subject": "water_bil", "relation": "amount", "object": "90 zł"}])
    assert main(["remember", "--scope", "michal", "--batch", batch]) == 1
    assert "water_bill.amount" in capsys.readouterr().err
    spelled = _batch(tmp_path, [
        {"subject": "water_bill", "relation": "amount", "object": "80 zł",
         "valid_from": "2026-01-01"},
        {"subject": "Water Bill", "relation": "amount", "object": "90 zł",
         "valid_from": "2026-02-01"}])
    code, answer = cli(capsys, "remember", "--scope", "michal", "--batch", spelled)
    assert code == 0 and [r["status"] for r in answer["results"]] == ["added", "added"]
    assert {e.subject for e in read_scope(repo, "michal")} == {"water_bill"}


# --- API, MCP --------------------------------------------------------------------------

def test_api_answers_similar_key_and_takes_new_key(repo: Path) -> None:
    memory = Memory.open(repo)
    memory.remember(scope="michal", subject="phone", relation="number", object="600")
    gated = memory.remember(scope="michal", subject="phones", relation="number", object="700")
    assert gated.status == "similar_key" and gated.similar[0].subject == "phone"
    assert memory.remember(scope="michal", subject="phones", relation="number",
                           object="700", new_key=True).status == "added"


def test_mcp_agent_gets_similar_key_and_retries(repo: Path) -> None:
    said = "the electricity bill is 245 zł"
    first, typo, same, insisted = mcp_remember(repo, [
        {"subject": "electricity_bill", "relation": "amount", "object": "245 zł",
         "quote": said},
        {"subject": "electricty_bill", "relation": "amount", "object": "260 zł",
         "quote": "it is 260 zł now"},
        {"subject": "electricity_bill", "relation": "amount", "object": "260 zł",
         "quote": "it is 260 zł now"},
        {"subject": "electricity_bill", "relation": "amount_due", "object": "260 zł",
         "quote": "it is 260 zł now", "new_key": True},
    ])
    assert first["status"] == "added"
    assert typo["status"] == "similar_key" and typo["id"] is None
    assert typo["similar"][0]["subject"] == "electricity_bill"
    assert "new_key: true" in typo["hint"]
    assert same["status"] == "added" and insisted["status"] == "added"
    assert {e.subject for e in read_scope(repo, "michal")} == {"electricity_bill"}


# --- extraction and promotion -------------------------------------------------------------

def test_extraction_maps_a_near_key_onto_the_recorded_one(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "electricity_bill", "amount", "245 zł")
    remember(capsys, "car", "colour", "red")
    remember(capsys, "car", "color", "red", "--new-key")
    conversation = tmp_path / "talk.txt"
    conversation.write_text("user: the electricity bill is 260 zł now. My car is carmine."
                            "\n", encoding="utf-8")
    candidates = tmp_path / "candidates.json"
    candidates.write_text(json.dumps({"facts": [
        {"subject": "electricty_bill", "relation": "amount", "object": "260 zł",
         "quote": "the electricity bill is 260 zł now"},
        {"subject": "car", "relation": "colou", "object": "carmine",
         "quote": "My car is carmine"},
    ]}), encoding="utf-8")
    code, report = cli(capsys, "extract", "--scope", "michal", "--session", "s1",
                       "--candidates", str(candidates), str(conversation))
    assert code == 0
    [kept] = report["kept"]
    assert (kept["status"], kept["mapped_from"]) == ("added", "electricty_bill.amount")
    [dropped] = report["dropped"]
    assert dropped["subject"] == "car" and dropped["reason"].startswith("similar_key: ")
    assert {e.subject for e in read_scope(repo, "michal")} == {"electricity_bill", "car"}


def test_extraction_shows_the_model_the_recorded_keys(repo: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from memrepo.agent.extract import prompt_keys
    from memrepo.agent.llm import request_body

    for subject in ("rent", "electricity_bill", "car"):
        remember(capsys, subject, "amount", "1")
    keys = prompt_keys(repo, "michal", "How much is my car?")
    assert keys[0] == ("car", "amount") and len(keys) == 3
    body = request_body("m", "How much is my car?", {}, keys)
    assert "- car | amount\n" in body["messages"][1]["content"]


def test_promotion_goes_through_the_gate(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "electricity_bill", "amount", "245 zł")
    quarantined = remember(capsys, "electricty_bill", "amount", "260 zł", "--trust",
                           "untrusted", "--source", "mcp", "--quote", "260 zł")[1]
    assert quarantined["status"] == "added"  # the quarantine scope has no such key yet
    argv = ["promote", "--scope", "michal", quarantined["id"], "--by",
            "Test Person <test@example.com>", "--reason", "checked the bill"]
    assert main(argv) == 1
    assert "electricity_bill.amount" in capsys.readouterr().err
    code, answer = cli(capsys, *argv, "--new-key")
    assert (code, answer["status"]) == (0, "added")


def test_the_gate_needs_no_cache_to_start_with(repo: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    remember(capsys, "electricity_bill", "amount", "245 zł")
    for leftover in (repo / ".memrepo").glob("cache.sqlite*"):
        leftover.unlink()
    assert remember(capsys, "electricty_bill", "amount", "1")[1]["status"] == "similar_key"
    done = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True,
                          text=True, check=True)
    assert done.stdout == ""


def test_a_process_keeps_the_gates_keys_and_sees_every_key_added_since(
        repo: Path) -> None:
    """An MCP server or API user keeps one scope's keys between writes (`_KeptKeys`): keys
    written by itself, by another process and after a rebuilt cache all reach the gate."""
    import sys

    from memrepo.cache import cache_path, open_fresh
    from memrepo.facts.keys import _KEPT

    memory = Memory(repo)

    def api(subject: str, relation: str, value: str) -> str:
        return memory.remember(scope="michal", subject=subject, relation=relation,
                               object=value).status

    assert api("electricity_bill", "amount", "245 zł") == "added"
    open_fresh(repo).close()  # (with no cache yet, a write reads the keys from the logs)
    assert api("water_bill", "amount", "80 zł") == "added"
    assert (str(repo), "michal") in _KEPT
    assert api("watter_bill", "amount", "81 zł") == "similar_key"  # its own write
    other = subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(repo), "remember",
                            "--scope", "michal", "internet_provider", "name", "Orange"],
                           capture_output=True, text=True, check=False)
    assert other.returncode == 0, other.stderr
    assert api("internet_provider", "nmae", "Play") == "similar_key"  # another process's
    assert api("electricity_bill", "amount", "250 zł") == "added"  # a known key again
    assert api("electricty_bill", "amount", "1 zł") == "similar_key"
    cache_path(repo).unlink()  # the next write builds a new cache: the keys are read again
    assert api("phone_bill", "amount", "40 zł") == "added"
    assert api("phone_bil", "amount", "41 zł") == "similar_key"
    assert api("watter_bill", "amount", "81 zł") == "similar_key"
