"""Search normalisation (SPEC §7): case, Unicode form and diacritics, including letters
that have no decomposition (ł→l, đ→d, ø→o, ß→ss). The same function folds stored text
and queries, so both sides always agree."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_WORD = re.compile(r"\w+", re.UNICODE)
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def fold(text: str) -> str:
    """Fold text for matching: NFC, transliterate to ASCII, lower-case.

    anyascii maps each code point on its own and leaves ASCII alone, so only the runs of
    non-ASCII characters are handed to it (a long body with one 'ł' costs one lookup)."""
    if text.isascii():
        return text.lower()  # = casefold() for ASCII
    nfc = unicodedata.normalize("NFC", text)
    return _NON_ASCII_RUN.sub(_transliterated, nfc).lower()


def _transliterated(match: re.Match[str]) -> str:
    return _transliterate(match.group())


@lru_cache(maxsize=1 << 16)
def _transliterate(run: str) -> str:
    from anyascii import anyascii  # here: its import pulls in tempfile and shutil, which a
    # query's first steps (the cache's staleness scan) must not wait for

    return anyascii(run)


def words_of(text: str) -> frozenset[str]:
    """The words of a list written as text, separated by white space."""
    return frozenset(text.split())


def words(text: str) -> list[str]:
    """The folded words of a text, in order."""
    return _WORD.findall(fold(text))


def fts_query(text: str) -> str:
    """A safe FTS5 MATCH expression for user text: each folded word quoted, all required.

    User text never reaches FTS5 syntax directly (`foo-bar` would be a syntax error);
    an empty string means there is nothing to search for.
    """
    return " ".join(f'"{word}"' for word in words(text))


def slug(text: str) -> str:
    """Folded text as a slug: runs of anything but a-z and 0-9 become one dash ("" when
    nothing is left)."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")


_NOT_ALNUM_RUN = re.compile(r"[^a-z0-9]+")


@lru_cache(maxsize=1 << 16)
def key_slug(text: str) -> str:
    """A fact key's subject or relation as compared (SPEC §4): folded, and every run of
    anything but letters and digits one `_` ("Electricity Bill" = "electricity-bill" =
    "electricity_bill"); "" when nothing is left. Remembered: a full build slugs every
    event's subject and relation, few of them distinct."""
    return _NOT_ALNUM_RUN.sub("_", fold(text)).strip("_")


PASSAGE_LINES = 6
"""Non-empty lines of a note's body per passage. Measured on LoCoMo in an earlier round:
passages of 3–8 lines, overlapping or not, were equal within noise;
non-overlapping ones index each line once more instead of three times."""
PASSAGE_SPAN = 4096
"""The most passages of one note (the last holds whatever lies beyond): the cache numbers
a note's passages notes.rowid * PASSAGE_SPAN + n, one rowid range per note."""


def passages(body: str, lines: int = PASSAGE_LINES) -> list[str]:
    """A long body cut into passages of `lines` non-empty lines; none for a body of one
    passage or less (the note itself is its passage)."""
    return ["\n".join(group) for group in passage_lines(body, lines)]


def passage_lines(body: str, lines: int = PASSAGE_LINES) -> list[list[str]]:
    """The lines (stripped, non-empty) of each of `passages(body, lines)`: every non-empty
    line of the body, in order."""
    kept = [line.strip() for line in body.split("\n") if line.strip()]
    if len(kept) <= lines:
        return []
    starts = range(0, len(kept), lines)[:PASSAGE_SPAN]
    return [kept[start:start + lines] if n < PASSAGE_SPAN - 1 else kept[start:]
            for n, start in enumerate(starts)]
