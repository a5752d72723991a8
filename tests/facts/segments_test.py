"""Reading fact log segments from the working tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.bench import worked_example
from memrepo.core.facts.times import parse_instant
from memrepo.core.problems import InputError
from memrepo.facts.segments import (
    key_events,
    month_segment,
    read_key,
    read_once,
    read_scope,
    reread,
    segment_bytes,
    segment_paths,
)


def write_example(root: Path) -> None:
    worked_example.write(root)


def test_segment_is_the_month_of_recorded_at() -> None:
    at = parse_instant("2026-03-31T23:59:59Z")
    assert month_segment("michal", at).path == "memory/facts/michal/2026-03.jsonl"
    with pytest.raises(InputError, match="slug"):
        month_segment("Michal", at)


def test_segments_are_listed_by_month_then_number_not_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "memory/facts/michal"
    folder.mkdir(parents=True)
    for name in ("2026-05.jsonl", "2026-05.10.jsonl", "2026-05.2.jsonl", "2026-04.jsonl",
                 "2026-05.1.jsonl", "notes.txt", "2026-05.02.jsonl"):
        (folder / name).write_bytes(b"")
    assert [p.rsplit("/", 1)[1] for p in segment_paths(tmp_path, "michal")] == [
        "2026-04.jsonl", "2026-05.jsonl", "2026-05.2.jsonl", "2026-05.10.jsonl"]


def test_reads_every_segment_of_a_scope(tmp_path: Path) -> None:
    write_example(tmp_path)
    events = read_scope(tmp_path, "michal")
    assert [e.op for e in events] == ["assert"] * 5 + ["end", "retract"]
    assert read_scope(tmp_path, "nobody") == []


def test_a_key_comes_with_the_retracts_of_its_events(tmp_path: Path) -> None:
    write_example(tmp_path)
    events = read_key(tmp_path, "michal", "electricity_bill", "amount")
    assert len(events) == 7
    assert key_events(events, "shoe", "size") == []


def test_inside_one_write_a_segment_is_read_once_until_the_write_changes_it(
        tmp_path: Path) -> None:
    write_example(tmp_path)
    path, other = "memory/facts/michal/2026-01.jsonl", "memory/facts/michal/2026-03.jsonl"
    with read_once(tmp_path):
        before = segment_bytes(tmp_path, path)
        assert before and len(read_key(tmp_path, "michal", "electricity_bill", "amount")) == 7
        (tmp_path / path).write_bytes(b"")
        (tmp_path / other).write_bytes(b"")
        assert segment_bytes(tmp_path, path) == before  # the bytes the write decided on
        assert len(read_key(tmp_path, "michal", "electricity_bill", "amount")) == 7
        reread(tmp_path, path)
        assert segment_bytes(tmp_path, path) == b""
        assert segment_bytes(tmp_path, other) != b""
        reread(tmp_path)
        assert segment_bytes(tmp_path, other) == b""
    (tmp_path / path).write_bytes(before)
    assert segment_bytes(tmp_path, path) == before  # outside a write: read every time


def test_a_segment_that_is_a_symbolic_link_is_refused_not_followed(tmp_path: Path) -> None:
    write_example(tmp_path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.jsonl"
    link = tmp_path / "memory/facts/michal/2026-01.jsonl"
    outside.write_bytes(link.read_bytes())
    link.unlink()
    link.symlink_to(outside)
    with pytest.raises(InputError, match="link"):
        read_key(tmp_path, "michal", "electricity_bill", "amount")


def test_a_bad_line_names_its_path_and_line(tmp_path: Path) -> None:
    write_example(tmp_path)
    path = tmp_path / "memory/facts/michal/2026-03.jsonl"
    path.write_bytes(path.read_bytes() + b'{"id": "x", "op": "assert"}\n')
    with pytest.raises(InputError) as caught:
        read_scope(tmp_path, "michal")
    assert str(caught.value).startswith("memory/facts/michal/2026-03.jsonl:2: ")


def test_a_partial_last_line_points_to_doctor(tmp_path: Path) -> None:
    write_example(tmp_path)
    path = tmp_path / "memory/facts/michal/2026-10.jsonl"
    path.write_bytes(path.read_bytes() + b'{"id": "x"')
    with pytest.raises(InputError, match=r"2026-10.jsonl:3: .*\n.*doctor --repair"):
        read_scope(tmp_path, "michal")


def test_an_empty_segment_has_no_events(tmp_path: Path) -> None:
    (tmp_path / "memory/facts/michal").mkdir(parents=True)
    (tmp_path / "memory/facts/michal/2026-01.jsonl").write_bytes(b"")
    assert read_scope(tmp_path, "michal") == []
