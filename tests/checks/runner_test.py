from __future__ import annotations

import sys

import pytest
from memrepo.hooks import approval, fact_logs

from memrepo.checks.runner import registered_checks, run_checks
from memrepo.core.problems import Problem
from tests.support import CONFIG, ROOT, dict_change, event, lines

RULE = "memory/rules/r.md"
BASE = {"memory/config.yaml": CONFIG}
BAD_LOG = {**BASE, "memory/facts/michal/2026-05.jsonl": b"not json\n"}


def names(problems: list[Problem]) -> set[str]:
    """Paths with problems; a rule's path only for its approval problem (the note checks
    have their own opinions about the bytes b"r")."""
    return {p.path for p in problems if not p.path.startswith("memory/rules/")
            or "need approval" in p.problem}


def test_stages_pick_the_checks_by_whether_they_need_the_message() -> None:
    change = dict_change(BASE, {**BAD_LOG, RULE: b"r"}, message="no approval")
    log, rule = "memory/facts/michal/2026-05.jsonl", RULE
    assert log in names(run_checks(change, "pre-commit"))
    assert rule not in names(run_checks(change, "pre-commit"))
    assert names(run_checks(change, "commit-msg")) >= {rule}
    assert log not in names(run_checks(change, "commit-msg"))
    assert names(run_checks(change, "all")) >= {log, rule}


def test_without_a_message_the_message_checks_are_skipped() -> None:
    change = dict_change(BASE, {**BASE, RULE: b"r"}, message=None)
    assert RULE not in names(run_checks(change, "all"))


def test_a_crashing_check_becomes_a_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(change: object) -> list[Problem]:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(fact_logs, "check", boom)
    monkeypatch.setenv("MEMREPO_LOG_DIR", "/nonexistent-dir")  # logging may fail quietly
    [problem] = [p for p in run_checks(dict_change(BASE, BASE), "all")
                 if "fact_logs" in p.path]
    assert "kaboom" in problem.problem and "bug in memrepo" in problem.fix


def test_the_registry_holds_every_check_module() -> None:
    files = {p.stem for p in (ROOT / "hooks").glob("*.py") if p.stem != "__init__"}
    assert {m.__name__.rpartition(".")[2] for m in registered_checks()} == files


def test_a_check_module_that_cannot_be_imported_refuses_every_commit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import memrepo.hooks

    monkeypatch.delattr(memrepo.hooks, "counts", raising=False)
    monkeypatch.setitem(sys.modules, "memrepo.hooks.counts", None)  # as if it were missing
    monkeypatch.setenv("MEMREPO_LOG_DIR", "/nonexistent-dir")
    [problem] = run_checks(dict_change(BASE, {**BASE, RULE: b"r"}, message="x"), "all")
    assert "memrepo.hooks.counts" in problem.problem and "bug in memrepo" in problem.fix


def test_a_broken_config_in_the_change_is_reported() -> None:
    change = dict_change(BASE, {"memory/config.yaml": b"approvers: 7\n"},
                         message="x\n\nApproved-by: ann@example.com")
    problems = run_checks(change, "all")
    assert any(p.path == "memory/config.yaml" and "config:" in p.problem for p in problems)


def test_approval_is_in_the_commit_msg_stage_and_fact_logs_in_pre_commit() -> None:
    assert approval.NEEDS_MESSAGE and not fact_logs.NEEDS_MESSAGE
    assert lines(event()).endswith(b"\n")
