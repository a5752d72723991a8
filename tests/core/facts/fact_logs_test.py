from __future__ import annotations

import orjson
import pytest
from memrepo.hooks import fact_logs as fact_logs_hook
from memrepo.hooks import fact_times

from memrepo.core.facts import fact_logs
from memrepo.core.problems import Problem
from tests.support import CONFIG, dict_change, event, lines, retract

LOG = "memory/facts/michal/2026-05.jsonl"
E1 = event("e1", "2026-05-01T08:00:00Z")
E2 = event("e2", "2026-05-02T08:00:00Z", object="280 zł")
E3 = event("e3", "2026-05-03T10:00:00Z", object="245 zł")
OLD = {"memory/config.yaml": CONFIG, LOG: lines(E1, E2)}


def check(new: dict[str, bytes], old: dict[str, bytes] | None = None) -> list[Problem]:
    return fact_logs_hook.check(dict_change(OLD if old is None else old, new))


def with_log(data: bytes, path: str = LOG) -> dict[str, bytes]:
    return {**OLD, path: data}


def test_an_appended_valid_event_is_accepted() -> None:
    assert check(with_log(lines(E1, E2, E3))) == []


def test_a_new_log_and_a_first_commit_are_accepted() -> None:
    anna = event("a1", "2026-05-03T10:00:00Z", scope="anna")
    assert check(with_log(lines(anna), "memory/facts/anna/2026-05.jsonl")) == []
    assert check(with_log(lines(E1, E2, E3)), old={}) == []


@pytest.mark.parametrize(("data", "line"), [
    (lines(E1, {**E2, "object": "999 zł"}, E3), 2),  # edited
    (lines(E2, E1, E3), 1),  # reordered
    (lines(E1), 2),  # truncated
    (lines(E1, E3), 2),  # a line removed
])
def test_rewriting_committed_lines_is_refused_at_the_first_difference(data: bytes,
                                                                      line: int) -> None:
    [problem] = check(with_log(data))
    assert (problem.path, problem.line) == (LOG, line)
    assert "append-only" in problem.problem and "git checkout HEAD" in problem.fix


def test_deleting_or_renaming_a_log_is_refused() -> None:
    deleted = {k: v for k, v in OLD.items() if k != LOG}
    [problem] = check(deleted)
    assert problem.path == LOG and "deleted or renamed" in problem.problem
    renamed = {**deleted, "memory/facts/michal/2026-06.jsonl": OLD[LOG]}
    assert any("deleted or renamed" in p.problem for p in check(renamed))


@pytest.mark.parametrize("path", ["memory/facts/michal/2026-5.jsonl",
                                  "memory/facts/Michal/2026-05.jsonl",
                                  "memory/facts/michal/2026-05.json",
                                  "memory/facts/2026-05.jsonl"])
def test_a_file_that_is_not_a_log_path_is_refused(path: str) -> None:
    [problem] = check(with_log(lines(E3), path))
    assert problem.path == path and "<scope>/<YYYY-MM>.jsonl" in problem.problem


@pytest.mark.parametrize(("tail", "reason"), [
    (b"not json\n", "not valid JSON"),
    (orjson.dumps(E3) + b"\r\n", "CRLF"),
    (b'{"id": "e3", "note": "\xff\xfe"}\n', "UTF-8"),
    (b"[1, 2]\n", "one JSON object"),
    (orjson.dumps({**E3, "confidence": 2}) + b"\n", "confidence"),
    (orjson.dumps({**E3, "quote": ""}) + b"\n", "quote"),
    (orjson.dumps(E3), "not terminated"),
])
def test_a_bad_new_line_is_refused_with_its_line_number(tail: bytes, reason: str) -> None:
    [problem] = check(with_log(OLD[LOG] + tail))
    assert (problem.path, problem.line) == (LOG, 3)
    assert reason in problem.problem


def test_an_event_in_the_wrong_month_segment_is_refused() -> None:
    [problem] = check(with_log(lines(E1, E2, event("e9", "2026-06-01T00:00:00Z"))))
    assert problem.line == 3 and "belongs in 2026-06.jsonl" in problem.problem


def test_duplicate_ids_among_new_lines_and_against_committed_lines() -> None:
    [twice] = check(with_log(lines(E1, E2, E3, {**E3, "object": "1 zł"})))
    assert twice.line == 4 and "used twice" in twice.problem
    [again] = check(with_log(lines(E1, E2, {**E1, "object": "1 zł"})))
    assert again.line == 3 and "already exists" in again.problem


def test_a_duplicate_ulid_is_found_in_the_segment_of_its_own_month() -> None:
    april = "01KQ0000000000000000000000"  # a ULID made in April 2026
    april_log = "memory/facts/michal/2026-04.jsonl"
    old = {**OLD, april_log: lines(event(april, "2026-04-20T00:00:00Z"))}
    new = {**old, LOG: OLD[LOG] + lines(event(april, "2026-05-03T10:00:00Z"))}
    [problem] = check(new, old)
    assert "already exists" in problem.problem


def test_a_retract_target_must_exist_in_the_scope() -> None:
    assert check(with_log(OLD[LOG] + lines(retract("r1", "e1")))) == []
    assert check(with_log(OLD[LOG] + lines(E3, retract("r1", "e3")))) == []
    [missing] = check(with_log(OLD[LOG] + lines(retract("r1", "nope"))))
    assert missing.line == 3 and "does not exist in scope michal" in missing.problem
    other_scope = {**OLD, "memory/facts/anna/2026-05.jsonl": lines(
        event("a1", "2026-05-03T10:00:00Z", scope="anna"))}
    [elsewhere] = check({**other_scope, LOG: OLD[LOG] + lines(retract("r1", "a1"))},
                        other_scope)
    assert "does not exist" in elsewhere.problem


def test_a_retract_target_in_an_older_segment_is_found() -> None:
    old = {**OLD, "memory/facts/michal/2026-01.jsonl": lines(event("old1",
                                                                "2026-01-12T00:00:00Z"))}
    assert check({**old, LOG: OLD[LOG] + lines(retract("r1", "old1"))}, old) == []


def test_retracting_a_retract_is_refused() -> None:
    old = {**OLD, LOG: lines(E1, E2, retract("r1", "e1"))}
    [problem] = check({**old, LOG: old[LOG] + lines(retract("r2", "r1"))}, old)
    assert "itself a retract" in problem.problem


def times(new: dict[str, bytes], message: str = "facts") -> list[Problem]:
    return fact_times.check(dict_change(OLD, new, message, commit_time="2026-05-03T12:00:00Z",
                                        parent_time="2026-05-03T09:00:00Z"))


def test_recorded_at_within_the_commit_window_is_accepted() -> None:
    assert times(with_log(lines(E1, E2, E3))) == []
    skewed = event("e4", "2026-05-03T12:04:00Z")  # within the 300 s clock skew
    assert times(with_log(lines(E1, E2, skewed))) == []


def test_recorded_at_after_the_commit_is_refused() -> None:
    [problem] = times(with_log(lines(E1, E2, event("e4", "2026-05-03T13:00:00Z"))))
    assert problem.line == 3 and "after the commit" in problem.problem


def test_back_dated_events_need_an_imported_from_trailer() -> None:
    back = with_log(lines(E1, E2, event("e4", "2026-05-02T09:00:00Z")))
    [problem] = times(back)
    assert "before the parent commit" in problem.problem and "Imported-from:" in problem.fix
    assert times(back, "import\n\nImported-from: old-notes.txt") == []


def test_merge_subsequence() -> None:
    base = lines(E1)
    ours, theirs = base + lines(E2), base + lines(E3)
    assert fact_logs.merge_problems(LOG, ours + lines(E3), [ours, theirs]) == []
    [lost] = fact_logs.merge_problems(LOG, ours, [ours, theirs])
    assert "parent 2" in lost.problem


def test_a_moved_branch_keeps_every_line_it_had_in_order() -> None:
    """§6.7 (a rebase, revert, amend): lines may be added anywhere, never lost or moved."""
    had = lines(E1, E2)
    assert fact_logs.kept_problems(LOG, had, lines(E1, E3, E2)) == []  # rebased onto E3
    assert fact_logs.kept_problems(LOG, had, had + lines(E3)) == []
    for after, line in ((lines(E1), 2), (lines(E2, E1), 2),
                        (lines(E1, {**E2, "object": "999 zł"}), 2)):
        [lost] = fact_logs.kept_problems(LOG, had, after)
        assert lost.line == line and lost.path == LOG
        assert f"line {line} (event e{line})" in lost.problem and "append-only" in lost.problem
        assert "memrepo forget" in lost.fix and "memrepo retract" in lost.fix
    [gone] = fact_logs.kept_problems(LOG, had, None)
    assert "lose this fact log" in gone.problem and gone.line is None


def test_find_event_answers_alike_by_search_and_by_index() -> None:
    from memrepo.core.facts.fact_logs import find_event

    data = lines(*(event(f"e{n}", object=f"v{n}") for n in range(40)))
    answers = [find_event(data, f"e{n}") for n in (*range(40), 99)]  # past 8: the index
    assert [a["object"] if a else None for a in answers] == [f"v{n}" for n in range(40)] + [None]
