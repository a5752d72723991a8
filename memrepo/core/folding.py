"""Search normalisation (SPEC §7): case, Unicode form and diacritics, including letters
that have no decomposition (ł→l, đ→d, ø→o, ß→ss). The same function folds stored text
and queries, so both sides always agree."""

from __future__ import annotations

import re
import unicodedata

from anyascii import anyascii

_WORD = re.compile(r"\w+", re.UNICODE)


def fold(text: str) -> str:
    """Fold text for matching: NFC, transliterate to ASCII, lower-case."""
    return anyascii(unicodedata.normalize("NFC", text)).casefold()


def words(text: str) -> list[str]:
    """The folded words of a text, in order."""
    return _WORD.findall(fold(text))


def fts_query(text: str) -> str:
    """A safe FTS5 MATCH expression for user text: each folded word quoted, all required.

    User text never reaches FTS5 syntax directly (`foo-bar` would be a syntax error);
    an empty string means there is nothing to search for.
    """
    return " ".join(f'"{word}"' for word in words(text))
