"""Which commit may open a segment of a month and which may append to one (SPEC §4)."""

from __future__ import annotations

from memrepo.hooks import fact_logs as fact_logs_hook

from memrepo.core.problems import Problem
from memrepo.core.record_base import replace
from tests.support import CONFIG, dict_change, event, lines

CAP = 1024
SMALL_CAP = CONFIG + f"segment_max_bytes: {CAP}\n".encode()
FIRST, SECOND, THIRD = (f"memory/facts/michal/2026-05{n}.jsonl" for n in ("", ".2", ".3"))
EVENTS = [event(f"e{n}", f"2026-05-03T0{n}:00:00Z", object=f"{n} zł") for n in range(1, 10)]
FULL = lines(*EVENTS[:3])  # three lines of ≈ 330 bytes: the next one passes the cap
NEXT = lines(EVENTS[3])


def check(old: dict[str, bytes], new: dict[str, bytes], merge: bool = False,
          ) -> list[Problem]:
    config = {"memory/config.yaml": SMALL_CAP}
    change = dict_change({**config, **old}, {**config, **new})
    return fact_logs_hook.check(replace(change, merge=merge))


def test_the_sizes_the_tests_rely_on() -> None:
    assert len(FULL) <= CAP < len(FULL) + len(NEXT)
    assert len(lines(*EVENTS[:2])) + len(NEXT) <= CAP


def test_a_full_segment_is_followed_by_the_next_one() -> None:
    assert check({FIRST: FULL}, {FIRST: FULL, SECOND: NEXT}) == []


def test_a_segment_opened_early_is_refused() -> None:
    early = lines(*EVENTS[:2])
    [problem] = check({FIRST: early}, {FIRST: early, SECOND: NEXT})
    assert problem.path == SECOND and "before 2026-05.jsonl reached" in problem.problem
    assert FIRST in problem.fix


def test_a_gap_in_the_numbers_is_refused() -> None:
    [problem] = check({FIRST: FULL}, {FIRST: FULL, THIRD: NEXT})
    assert problem.path == THIRD and "without 2026-05.2.jsonl" in problem.problem
    [problem] = check({}, {SECOND: NEXT}) or [Problem("", "")]
    assert "without 2026-05.jsonl" in problem.problem


def test_a_closed_segment_takes_no_more_appends() -> None:
    old = {FIRST: FULL, SECOND: NEXT}
    [problem] = check(old, {FIRST: FULL + lines(EVENTS[4]), SECOND: NEXT})
    assert problem.path == FIRST and "is closed (2026-05.2.jsonl follows it)" in problem.problem
    assert check(old, {FIRST: FULL, SECOND: NEXT + lines(EVENTS[4])}) == []


def test_a_merge_may_still_add_lines_to_a_closed_segment() -> None:
    old = {FIRST: FULL, SECOND: NEXT}
    assert check(old, {FIRST: FULL + lines(EVENTS[4]), SECOND: NEXT}, merge=True) == []


def test_one_commit_may_fill_a_segment_and_open_the_next() -> None:
    two = lines(*EVENTS[:2])
    assert check({FIRST: two}, {FIRST: FULL, SECOND: NEXT}) == []  # a batch write


def test_segments_added_with_their_predecessor_are_judged_for_gaps_only() -> None:
    """`memrepo check --all`, a first commit or an import: the cap of the commits that
    opened them is unknown (it may have been smaller then)."""
    small = lines(EVENTS[0])
    assert check({}, {FIRST: small, SECOND: NEXT, THIRD: lines(EVENTS[4])}) == []
    [problem] = check({}, {FIRST: small, THIRD: NEXT})
    assert "without 2026-05.2.jsonl" in problem.problem


def test_a_large_segment_written_before_the_cap_keeps_taking_appends_until_closed() -> None:
    large = lines(*EVENTS[:6])
    assert len(large) > CAP
    assert check({FIRST: large}, {FIRST: large + lines(EVENTS[6])}) == []
    assert check({FIRST: large}, {FIRST: large, SECOND: lines(EVENTS[6])}) == []


def test_the_cap_is_the_configs_and_defaults_to_one_mebibyte() -> None:
    change = dict_change({"memory/config.yaml": CONFIG}, {"memory/config.yaml": CONFIG})
    assert change.config.segment_max_bytes == 1024 * 1024
    default = {"memory/config.yaml": CONFIG}
    [problem] = fact_logs_hook.check(dict_change({**default, FIRST: FULL},
                                                 {**default, FIRST: FULL, SECOND: NEXT}))
    assert "1048576 bytes" in problem.problem


def test_events_in_a_later_segment_still_belong_to_its_month() -> None:
    june = lines(event("e9", "2026-06-01T00:00:00Z"))
    [problem] = check({FIRST: FULL}, {FIRST: FULL, SECOND: june})
    assert problem.path == SECOND and "belongs in 2026-06.jsonl" in problem.problem
