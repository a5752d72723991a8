"""Event ids as text (memrepo.core.facts.ulids) against python-ulid, an independent codec."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ulid import ULID

from memrepo.core.facts.ulids import DIGITS, ulid_millis, ulid_random, ulid_text, ulid_value

MILLIS = st.integers(0, (1 << 48) - 1)
RANDOM = st.integers(0, (1 << 80) - 1)


@given(MILLIS, RANDOM)
def test_an_id_is_written_and_read_as_python_ulid_does(millis: int, random_part: int) -> None:
    text = ulid_text(millis, random_part)
    reference = ULID.from_bytes(millis.to_bytes(6, "big") + random_part.to_bytes(10, "big"))
    assert text == str(reference)
    assert ulid_millis(text) == reference.milliseconds == ulid_millis(text.lower())
    assert ulid_random(text) == random_part and ulid_value(text) == int(reference)


@given(st.text(alphabet=DIGITS + DIGITS.lower() + "ILOU-é ", min_size=24, max_size=27))
def test_text_is_refused_exactly_where_python_ulid_refuses_it(text: str) -> None:
    try:
        expected: int | None = int(ULID.from_str(text))
    except ValueError:
        expected = None
    try:
        found: int | None = ulid_value(text)
    except ValueError:
        found = None
    assert found == expected


def test_ids_sort_as_text_in_the_order_of_their_time_then_random_part() -> None:
    made = [ulid_text(m, r) for m in (0, 1, 1 << 40) for r in (0, 1, (1 << 80) - 1)]
    assert made == sorted(made)


@pytest.mark.parametrize("text", ["8" + "0" * 25, "0" * 25, "0" * 25 + "U", "0" * 27])
def test_what_is_not_an_id_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        ulid_value(text)


def test_parts_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError):
        ulid_text(1 << 48, 0)
    with pytest.raises(ValueError):
        ulid_text(0, 1 << 80)
