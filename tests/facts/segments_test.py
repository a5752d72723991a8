"""Reading fact log segments from the working tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.bench import worked_example
from memrepo.core.problems import InputError
from memrepo.core.times import parse_instant
from memrepo.facts.segments import key_events, read_key, read_scope, segment_path


def write_example(root: Path) -> None:
    worked_example.write(root)


def test_segment_is_the_month_of_recorded_at() -> None:
    at = parse_instant("2026-03-31T23:59:59Z")
    assert segment_path("michal", at) == "memory/facts/michal/2026-03.jsonl"
    with pytest.raises(InputError, match="slug"):
        segment_path("Michal", at)


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
