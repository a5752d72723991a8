from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.facts.times import (
    TimeFormatError,
    format_instant,
    format_valid_time,
    is_utc_timestamp,
    month_of,
    parse_instant,
)


def test_a_date_is_midnight_utc() -> None:
    assert parse_instant("2026-01-10") == parse_instant("2026-01-10T00:00:00Z")


def test_offsets_are_compared_as_instants() -> None:
    assert parse_instant("2026-01-10T01:00:00+01:00") == parse_instant("2026-01-10T00:00:00Z")
    assert parse_instant("2026-01-09T23:30:00-01:00") > parse_instant("2026-01-10T00:00:00Z")


def test_nanoseconds_are_truncated_to_microseconds() -> None:
    assert format_instant(parse_instant("2026-01-10T00:00:00.123456789Z")) == (
        "2026-01-10T00:00:00.123456Z")


@pytest.mark.parametrize("text", ["2026-02-30", "2026-1-10", "yesterday", "2026-01-10T10:00",
                                  "2026-01-10T10:00:00", ""])
def test_bad_times_are_refused(text: str) -> None:
    with pytest.raises(TimeFormatError):
        parse_instant(text)


def test_recorded_at_form() -> None:
    assert is_utc_timestamp("2026-01-10T00:00:00Z")
    assert not is_utc_timestamp("2026-01-10T00:00:00+00:00")
    assert not is_utc_timestamp("2026-01-10")


def test_valid_times_render_as_dates_at_midnight() -> None:
    assert format_valid_time(parse_instant("2026-01-10")) == "2026-01-10"
    assert format_valid_time(parse_instant("2026-01-10T05:00:00Z")) == "2026-01-10T05:00:00Z"


def test_month_of() -> None:
    assert month_of(parse_instant("2026-07-31T23:59:59Z")) == "2026-07"


@given(st.integers(min_value=-(10**16), max_value=10**17))
def test_format_then_parse_round_trips(instant: int) -> None:
    assert parse_instant(format_instant(instant)) == instant


@pytest.mark.parametrize("text", ["２０２６-01-12T08:14:02Z", "2026-01-12T08:14:0２Z",
                                  "２０２６-01-12"])
def test_only_ascii_digits_are_digits(text: str) -> None:
    assert not is_utc_timestamp(text)
    with pytest.raises(TimeFormatError):
        parse_instant(text)


def test_the_fast_path_agrees_with_the_general_one() -> None:
    from memrepo.core.facts.times import _parse_general

    for text in ("2026-01-12T08:14:02Z", "1969-12-31T23:59:59Z", "2026-01-10"):
        assert parse_instant(text) == _parse_general(text)


def test_years_are_four_digits_and_stay_in_range() -> None:
    assert format_valid_time(parse_instant("0999-01-01")) == "0999-01-01"
    assert month_of(parse_instant("0999-01-01")) == "0999-01"
    with pytest.raises(TimeFormatError):
        parse_instant("9999-12-31T23:00:00-05:00")
