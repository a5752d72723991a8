"""`memrepo recall | history | search | cache` through the real CLI: output, JSON shapes,
exit codes (the process boundary in a few; the answers mostly in this process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.facts.new_event import FactInput
from tests.support import (
    append_events,
    assert_event,
    commit_everything,
    init_repo,
    make_repo,
    memrepo_at,
    memrepo_here,
    memrepo_json,
    note,
    plain_env,
    write,
)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = init_repo(tmp_path_factory.mktemp("cli") / "repo")
    write(root, "memory/entities/lodz-packaging.md", note(
        "entities", "lodz-packaging", "Ordering profile: minimum quantities, lead times",
        "Cartons from Łódź.\n", aliases=["Łódź Packaging"]))
    append_events(root, "memory/facts/michal/2026-01.jsonl", [
        assert_event("f1", "2026-01-05T00:00:00Z", "lodz-packaging", "lead_time", "3 weeks",
                     "2026-01-01", quote="Lead time is 3 weeks", source="email"),
    ])
    commit_everything(root, "fixture")
    return root


def test_recall_plain_line(repo: Path) -> None:
    done = memrepo_at(repo, "recall", "--scope", "michal", "--subject", "lodz-packaging",
                   "--relation", "lead_time")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "lodz-packaging.lead_time = 3 weeks  (valid from 2026-01-01; recorded "
        "2026-01-05T00:00:00Z; confidence 1; source email)")


def test_recall_not_recorded_exits_zero_with_suggestions(repo: Path) -> None:
    done = memrepo_at(repo, "recall", "--scope", "michal", "--subject", "lodz-pakaging")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == "not recorded"
    assert "did you mean: lodz-packaging" in done.stdout


def test_recall_in_a_scope_without_facts_says_which_scopes_hold_them(repo: Path) -> None:
    done = memrepo_here(repo, "recall", "--scope", "michel", "What is my dog's name?")
    assert done.returncode == 0 and done.stdout.strip() == "not recorded"
    assert done.stderr.splitlines() == [
        "memrepo recall: scope 'michel' holds no facts (scopes that do: michal)",
        "  To fix: give --scope one of those, or remember a fact in this one first"]
    held = memrepo_here(repo, "recall", "--scope", "michal", "What is the lead time in Oslo?")
    assert held.stdout.splitlines() == ["not recorded", "nothing is recorded about 'oslo'"]
    assert held.stderr == ""
    for args in (("history", "--scope", "michel", "lodz-packaging", "lead_time"),
                 ("context", "--scope", "michel", "What is my dog's name?")):
        done = memrepo_here(repo, *args)
        assert done.returncode == 0 and done.stderr.startswith(
            f"memrepo {args[0]}: scope 'michel' holds no facts (scopes that do: michal)\n")


def test_no_scope_that_holds_facts_is_said_to_hold_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the dozen scopes offered, and in a quarantine, a scope with facts is quiet."""
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput(scope, "car", "model", "Yaris")
                          for scope in "abcdefghijklmn"])
    memory.remember(scope="ola", subject="pet", relation="name", object="Rex",
                    trust="untrusted", quote="my pet is Rex", source="chat")
    for scope in ("n", "quarantine-ola"):
        done = memrepo_here(root, "recall", "--scope", scope, "What is my shoe size?")
        assert done.stdout.strip() == "not recorded" and done.stderr == "", scope


def test_recall_of_a_misspelled_question_says_which_spelling_it_used(repo: Path) -> None:
    done = memrepo_here(repo, "recall", "--scope", "michal", "Lead time at Lodz Pakaging?")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].startswith("lodz-packaging.lead_time = 3 weeks")
    assert "searched 'packaging' for 'pakaging'" in done.stdout


def test_recall_json_shape(repo: Path) -> None:
    result = memrepo_json(repo, "recall", "--scope", "michal", "Łódź Packaging", here=True)
    assert set(result) >= {"status", "facts", "suggestions", "notes"}
    fact = result["facts"][0]
    for field in ("id", "scope", "subject", "relation", "object", "valid_from", "valid_to",
                  "recorded_at", "confidence", "source", "quote"):
        assert field in fact
    assert fact["quote"] == "Lead time is 3 weeks"


@pytest.mark.parametrize("day", ["15.02.2026", "15.2.2026", "02/15/2026", "15/02/2026"])
def test_recall_reads_a_day_written_with_numbers(repo: Path, day: str) -> None:
    result = memrepo_json(repo, "recall", "--scope", "michal",
                          f"Lead time at Łódź Packaging on {day}?", here=True)
    assert result["asked"]["valid_from"] == "2026-02-15", result["asked"]
    assert [f["object"] for f in result["facts"]] == ["3 weeks"], result


@pytest.mark.parametrize("day", ["15.02.2026", "15.2.2026", "02/15/2026", "15/02/2026"])
def test_recall_finds_the_key_of_a_question_with_a_day_written_with_numbers(
        repo: Path, day: str) -> None:
    result = memrepo_json(repo, "recall", "--scope", "michal",
                          f"What was the lead time on {day}?", here=True)
    assert [f["object"] for f in result["facts"]] == ["3 weeks"], result


def test_history_json_and_plain(repo: Path) -> None:
    events = memrepo_json(repo, "history", "--scope", "michal", "lodz-packaging",
                          "lead_time", here=True)["events"]
    assert [(e["id"], e["held"]) for e in events] == [("f1", [["2026-01-01", None]])]
    done = memrepo_here(repo, "history", "--scope", "michal", "nothing", "here")
    assert done.returncode == 0 and done.stdout.strip() == "not recorded"


def test_search_json_shape(repo: Path) -> None:
    result = memrepo_json(repo, "search", "Lodz", here=True)
    assert result["status"] == "found"
    kinds = {hit["kind"] for hit in result["results"]}
    assert kinds == {"note", "fact"}
    note_hit = next(h for h in result["results"] if h["kind"] == "note")
    assert {"kind", "category", "name", "path", "snippet"} <= set(note_hit)
    fact_hit = next(h for h in result["results"] if h["kind"] == "fact")
    assert fact_hit["category"] == "facts" and fact_hit["object"] == "3 weeks"


def test_search_plain_and_not_recorded(repo: Path) -> None:
    done = memrepo_here(repo, "search", "foo-bar")
    assert done.returncode == 0 and done.stdout.startswith("not recorded")
    done = memrepo_here(repo, "search", "cartons", "--category", "entities")
    assert done.stdout.startswith("[entities] lodz-packaging")


@pytest.mark.parametrize("args", [
    ("recall", "--scope", "michal", "--subject", "x", "--as-of", "soon"),
    ("recall", "--scope", "michal", "--relation", "x"),
    ("search", "x", "--category", "nope"),
    ("search", "  "),  # an empty question is refused by search as by recall
    ("recall", "--scope", "michal", ""),
])
def test_bad_input_exits_one_without_traceback(repo: Path, args: tuple[str, ...]) -> None:
    done = memrepo_here(repo, *args)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "To fix:" in done.stderr


def test_usage_error_exits_two_saying_what_is_wrong_and_how_to_fix_it(repo: Path) -> None:
    done = memrepo_at(repo, "recall")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "memrepo recall: the following arguments are required: --scope",
        "  To fix: see `memrepo recall --help` for what it takes"]
    mistyped = memrepo_at(repo, "context", "--scope", "michal", "What car?", "--jsn")
    assert mistyped.returncode == 2
    assert mistyped.stderr.splitlines() == [
        "memrepo context: unrecognized arguments: --jsn",
        "  To fix: see `memrepo context --help` for what it takes"]


def test_cache_commands(repo: Path) -> None:
    assert memrepo_at(repo, "cache", "rebuild").stdout.startswith("cache rebuilt: 1 notes")
    quiet = memrepo_at(repo, "cache", "sync", "--quiet")
    assert quiet.returncode == 0 and quiet.stdout == ""
    state = json.loads(memrepo_at(repo, "cache", "status", "--json").stdout)
    assert state["current"] and state["notes"] == 1 and state["events"] == 1
    for args in (("cache", "--help"), ("recall", "--help"), ("history", "--help"),
                 ("search", "--help")):
        assert memrepo_at(repo, *args).returncode == 0


def test_a_reader_that_stops_early_ends_the_command_quietly(repo: Path) -> None:
    """`memrepo search … | head -1`: the pipe's reader goes away; the command stops as git
    does (the shell's 141), with no "unexpected error" and no crash log."""
    reader, writer = os.pipe()
    os.close(reader)  # nobody will read: the first write breaks the pipe
    try:
        done = subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(repo), "search",
                               "Łódź"], stdout=writer, stderr=subprocess.PIPE, text=True,
                              env=plain_env(MEMREPO_NOW="2026-11-30"), check=False)
    finally:
        os.close(writer)
    assert done.returncode == 141 and done.stderr == ""
