"""Text that reaches a terminal or a model: never a raw control sequence, never a huge echo
(SPEC §11).

One rule for which characters are unsafe — C0 and C1 controls, DEL, and the bidirectional
overrides and isolates that reorder what a reader sees (U+202E turns `exe.txt` into
`txt.exe`) — shared by every reader and writer, which refuse them in stored values
(`unsafe_character`), and by every printer, which escapes what is already stored
(`shown`). Invisible characters that hide text from a reader but not from a model (Unicode
tag characters outside an emoji flag, "ASCII smuggling"; zero-width space, word joiners,
byte order mark) are escaped by every printer too, and refused in what a write stores from
now on (`invisible_character`); lines stored before stay readable. Tab and newline are
layout, not control: they are allowed where a value may span lines (a quote, an object, a
reason, a note body) and escaped in one-line output.
"""

from __future__ import annotations

import re
from functools import cache

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_INVISIBLE = ("\u00ad\u034f\u115f\u1160\u180e\u200b\u2060-\u2064\u202a-\u202e\u2066-\u2069"
              "\u3164\ufeff\uffa0\ufff9-\ufffb\U000e0000-\U000e007f")
"""Characters that hide text or show none: tag characters, zero-width space, word joiners
and invisible operators, byte order mark, soft hyphen, combining grapheme joiner,
Mongolian vowel separator, interlinear annotation marks, the Hangul fillers (letters a
font draws as nothing), and the bidirectional embeddings, overrides and isolates (U+202E
turns `exe.txt` into `txt.exe`; refused in note bodies too, where tab and newline are
text)."""
_BREAKS = "\t\n\u2028\u2029"
_FLAG = ("\U0001f3f4(?:\U000e0067\U000e0062(?:\U000e0065\U000e006e\U000e0067|"
         "\U000e0073\U000e0063\U000e0074|\U000e0077\U000e006c\U000e0073))\U000e007f")
"""The three emoji tag sequences Unicode recommends (the flags of England, Scotland and
Wales, tags "gbeng", "gbsct", "gbwls"): their tag characters are an emoji, not hidden
text. Any other run of tag characters can spell a message."""
_SELECTOR_RUN = "[\ufe00-\ufe0f\U000e0100-\U000e01ef]{2,}"
"""Variation selectors one after another: one after a character picks its look (an emoji's
colour form, a CJK variant); a run of them can encode bytes that nobody sees."""
_PRINTABLE_HIDDEN = re.compile(
    "[\u034f\ufe00-\ufe0f\U000e0100-\U000e01ef\u115f\u1160\u3164\uffa0]")
"""What `str.isprintable` passes that may hide text: the combining grapheme joiner,
variation selectors, Hangul fillers."""
_UNSAFE_IN_TEXT = f"[{_CONTROLS}]"
_UNSAFE_IN_LINE = f"[{_CONTROLS}{_BREAKS}]"
_HIDDEN = f"({_FLAG})|[{_INVISIBLE}]|{_SELECTOR_RUN}"
_SHOWN_IN_TEXT = f"({_FLAG})|[{_CONTROLS}{_INVISIBLE}]|{_SELECTOR_RUN}"
_SHOWN_IN_LINE = f"({_FLAG})|[{_CONTROLS}{_INVISIBLE}{_BREAKS}]|{_SELECTOR_RUN}"
_SURROGATE = "[\ud800-\udfff]"
ECHO_LIMIT = 200
"""Characters of a value echoed in a refusal: enough to recognise it, never a flood."""


@cache
def _rare(pattern: str) -> re.Pattern[str]:
    """A pattern of the rare path (text that `str.isprintable` or `_PRINTABLE_HIDDEN` does
    not pass), compiled when first needed: their large character classes cost every command
    ≈5 ms of start-up when compiled at import."""
    return re.compile(pattern)


def unsafe_character(text: str, *, multiline: bool = False) -> str | None:
    """The first character of `text` that must not be stored (tab and newline are allowed
    when `multiline`), or None."""
    if text.isprintable():
        return None  # the common case, in C: no control, format or separator character
    found = _rare(_UNSAFE_IN_TEXT if multiline else _UNSAFE_IN_LINE).search(text)
    return None if found is None else found.group()


def describe_character(char: str) -> str:
    """`U+001B` — how a refusal names a character without printing it."""
    return f"U+{ord(char):04X}"


def shown(text: str, limit: int | None = ECHO_LIMIT, *, lines: bool = False) -> str:
    """`text` safe to print: unsafe characters (and lone surrogates) escaped as `\\u001b`
    (valid inside JSON strings too), tab and newline escaped unless `lines`; cut after
    `limit` characters with the full length said."""
    if limit is not None and len(text) > limit:
        text = f"{text[:limit]}… ({len(text)} characters)"
    if text.isprintable() and not _PRINTABLE_HIDDEN.search(text):
        return text
    text = _rare(_SHOWN_IN_TEXT if lines else _SHOWN_IN_LINE).sub(_escaped, text)
    return _rare(_SURROGATE).sub(_escaped, text)


INVISIBLE_FIX = "remove it: it hides text from whoever reads it, but not from a model"
"""The fix for an invisible character, wherever one is refused."""


def plainly_visible(text: str) -> bool:
    """No character of `text` may hide text (each judged alone, so texts joined by a space
    are plainly visible exactly when each one is): `invisible_character` finds nothing.
    Tab and newline hide nothing: a note's text, which holds them on every line, is read
    without them in C rather than by the invisible characters' pattern."""
    if not text.isprintable() and not \
            text.replace("\n", "").replace("\t", "").isprintable():
        return False
    return not _PRINTABLE_HIDDEN.search(text)


def invisible_character(text: str) -> str | None:
    """The first invisible character of `text` (outside an emoji tag sequence), or None:
    refused in what a write stores now. Values stored before it was refused stay readable
    (they are shown escaped, like everything `shown` escapes)."""
    if plainly_visible(text):
        return None
    return next((found.group()[0] for found in _rare(_HIDDEN).finditer(text)
                 if found.group(1) is None), None)


def _escaped(match: re.Match[str]) -> str:
    if match.re.groups and match.group(1) is not None:
        return match.group()  # an emoji tag sequence stays as it is
    return "".join(map(escaped_character, match.group()))


def escaped_character(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    high, low = divmod(code - 0x10000, 0x400)  # JSON's form: a surrogate pair
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"
