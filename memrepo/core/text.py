"""Search normalisation (SPEC §7): case, Unicode form and diacritics, including letters
that have no decomposition (ł→l, đ→d, ø→o, ß→ss). The same function folds stored text
and queries, so both sides always agree."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from anyascii import anyascii

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
    return anyascii(run)


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


def key_slug(text: str) -> str:
    """A fact key's subject or relation as compared (SPEC §4): folded, and every run of
    anything but letters and digits one `_` ("Electricity Bill" = "electricity-bill" =
    "electricity_bill"); "" when nothing is left."""
    return _NOT_ALNUM_RUN.sub("_", fold(text)).strip("_")
