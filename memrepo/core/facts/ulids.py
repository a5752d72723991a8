"""§4 event ids as text: a ULID is 128 bits — a 48-bit millisecond, then an 80-bit random
part — written as 26 digits of Crockford's base32, most significant first.

The one codec of ids (the ULID spec's, as python-ulid reads and writes it: upper case
written, either case read, a first digit above 7 refused as overflowing 128 bits), kept
here rather than imported: python-ulid's import reads its own package metadata, ≈60 ms
of every write's start-up.
"""

from __future__ import annotations

DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32 alphabet: no I, L, O or U."""

LENGTH = 26
RANDOM_BITS = 80
_VALUES = {digit: value for value, digit in enumerate(DIGITS)} | {
    digit.lower(): value for value, digit in enumerate(DIGITS)}
_SHIFTS = range(5 * (LENGTH - 1), -1, -5)


def ulid_text(millis: int, random_part: int) -> str:
    """The id of millisecond `millis` (48 bits) with `random_part` (80 bits)."""
    if not (0 <= millis < 1 << 48 and 0 <= random_part < 1 << RANDOM_BITS):
        raise ValueError("a ULID holds a 48-bit millisecond and an 80-bit random part")
    value = millis << RANDOM_BITS | random_part
    return "".join([DIGITS[value >> shift & 31] for shift in _SHIFTS])


def ulid_value(text: str) -> int:
    """The 128-bit number a ULID's text spells; ValueError for text that is not a ULID."""
    if len(text) != LENGTH:
        raise ValueError("a ULID has exactly 26 characters")
    value = 0
    for digit in text:
        found = _VALUES.get(digit)
        if found is None:
            raise ValueError(f"a ULID is written only in the digits {DIGITS}")
        value = value << 5 | found
    if value >> 128:
        raise ValueError("a ULID's first digit is at most 7 (128 bits)")
    return value


def ulid_millis(text: str) -> int:
    """The millisecond a ULID was made for; ValueError for text that is not a ULID."""
    return ulid_value(text) >> RANDOM_BITS


def ulid_random(text: str) -> int:
    """The 80-bit random part of a ULID; ValueError for text that is not a ULID."""
    return ulid_value(text) & ((1 << RANDOM_BITS) - 1)
