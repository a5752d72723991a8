"""The segment name rule (SPEC §4): `YYYY-MM.jsonl`, then `YYYY-MM.2.jsonl`, `.3`, …"""

from __future__ import annotations

import pytest

from memrepo.core.facts.segment_names import (
    Segment,
    append_target,
    is_log_path,
    newest_of_month,
    newest_paths,
    opening_problem,
    parse_log_path,
    parse_segment_name,
    segment_name,
    sorted_segments,
)


@pytest.mark.parametrize(("name", "number"), [
    ("2026-05.jsonl", 1), ("2026-05.2.jsonl", 2), ("2026-05.9.jsonl", 9),
    ("2026-05.10.jsonl", 10), ("0999-12.123456.jsonl", 123456),
])
def test_a_segment_name_is_a_month_and_a_number(name: str, number: int) -> None:
    segment = parse_segment_name("michal", name)
    assert segment is not None and segment.number == number
    assert segment.name == name and segment_name(segment.month, number) == name


@pytest.mark.parametrize("name", [
    "2026-05.1.jsonl",  # the first segment has no number
    "2026-05.0.jsonl", "2026-05.02.jsonl", "2026-05.-2.jsonl", "2026-05..jsonl",
    "2026-05.2.json", "2026-13.jsonl", "2026-5.jsonl", "2026-05.a.jsonl",
    "2026-05.2.3.jsonl", "2026-05.jsonl.2", "2026-05.1234567.jsonl", "x2026-05.jsonl",
])
def test_other_names_are_not_segments(name: str) -> None:
    assert parse_segment_name("michal", name) is None
    assert not is_log_path(f"memory/facts/michal/{name}")


@pytest.mark.parametrize("path", [
    "memory/facts/Michal/2026-05.jsonl", "memory/facts/2026-05.jsonl",
    "memory/facts/michal/sub/2026-05.jsonl", "memory/notes/michal/2026-05.jsonl",
    "memory/facts/-x/2026-05.2.jsonl",
])
def test_a_log_path_names_a_scope_folder_and_a_segment(path: str) -> None:
    assert parse_log_path(path) is None


def test_a_log_path_parses_to_its_scope_month_and_number() -> None:
    assert parse_log_path("memory/facts/anna-k/2026-05.3.jsonl") == Segment("anna-k",
                                                                             "2026-05", 3)
    assert Segment("anna-k", "2026-05", 3).path == "memory/facts/anna-k/2026-05.3.jsonl"


def test_segments_sort_by_month_then_number_never_by_text() -> None:
    paths = [f"memory/facts/m/{n}" for n in ("2026-05.10.jsonl", "2026-05.jsonl",
                                              "2026-04.2.jsonl", "2026-05.2.jsonl",
                                              "README.md", "2026-04.jsonl")]
    assert [s.name for s in sorted_segments(paths)] == [
        "2026-04.jsonl", "2026-04.2.jsonl", "2026-05.jsonl", "2026-05.2.jsonl",
        "2026-05.10.jsonl"]
    assert sorted(newest_paths(paths)) == ["memory/facts/m/2026-04.2.jsonl",
                                           "memory/facts/m/2026-05.10.jsonl"]
    segments = sorted_segments(paths)
    assert newest_of_month(segments, "m", "2026-05") == Segment("m", "2026-05", 10)
    assert newest_of_month(segments, "m", "2026-06") is None


def test_previous_and_next() -> None:
    first = Segment("m", "2026-05")
    assert first.previous() is None and first.next() == Segment("m", "2026-05", 2)
    assert Segment("m", "2026-05", 3).previous() == Segment("m", "2026-05", 2)


@pytest.mark.parametrize(("size", "line", "number"), [
    (0, 5000, 1),  # an empty segment takes any line, even one over the cap
    (900, 100, 1),  # exactly the cap: still fits
    (901, 100, 2),  # would pass the cap
    (5000, 10, 2),  # a segment over the cap (written before it existed) is closed
])
def test_a_line_goes_to_the_newest_segment_unless_it_would_pass_the_cap(
        size: int, line: int, number: int) -> None:
    assert append_target(Segment("m", "2026-05"), size, line, 1000).number == number


def test_opening_a_segment_needs_its_predecessor_to_have_reached_the_cap() -> None:
    second, third = Segment("m", "2026-05", 2), Segment("m", "2026-05", 3)
    assert opening_problem(Segment("m", "2026-05"), None, 10, 1000) is None
    assert opening_problem(second, 901, 100, 1000) is None
    assert opening_problem(second, 5000, 1, 1000) is None
    assert "without 2026-05.jsonl" in (opening_problem(second, None, 100, 1000) or "")
    assert "without 2026-05.2.jsonl" in (opening_problem(third, None, 100, 1000) or "")
    early = opening_problem(second, 900, 100, 1000) or ""
    assert "before 2026-05.jsonl reached segment_max_bytes (1000 bytes" in early
    assert opening_problem(second, 0, 5000, 1000) is not None  # an empty one takes it
