"""Deterministic answer scoring for the memory benchmark: is an answer the expected one?

Both sides are normalised the same way before they are compared: case, Unicode form and
diacritics (memrepo.core.text.fold: "Kraków" = "Krakow", "zł" = "zl"), whitespace and
punctuation, numbers (thousands separators "11 200" = "11,200" = "11200", decimal commas,
trailing zeros), currency ("PLN" = "zł") and dates ("30 July 2026" = "July 30, 2026" =
"2026-07-30"). Nothing else is forgiven: a different value, a missing answer or an
answer that merely *contains* the value among other words is wrong.

"not recorded" is an answer like any other: right only when it is the expected answer.
Change answers ("no", or "yes, on DATE from OLD to NEW; on DATE from …") are compared
change by change; with `many=True` each value is a set ("English, Polish" =
"Polish and English").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memrepo.core.text import fold

NOT_RECORDED = "not recorded"

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH = "(" + "|".join(m[:3] + f"(?:{m[3:]})?" for m in MONTHS) + r")\.?"
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\s+(\d{{4}})\b")
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b")
_DOTTED_DATE = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_THOUSANDS = re.compile(r"(?<![\d.,-])\d{1,3}(?:[ ,.]\d{3})+(?![\d-]|[.,]\d)")
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")
_DECIMAL = re.compile(r"\b(\d+)\.(\d+)\b")
_UNIT_GAP = re.compile(r"(?<=\d)(?=[a-z])")
_CURRENCY = re.compile(r"\b(?:pln|zlotys?|zlotych|zloty)\b")
_PER_MONTH = re.compile(r"(?:\ba\s+|\bper\s+|/\s*)(month|year|week)\b")
_PUNCTUATION = re.compile(r"[\"'`“”‘’()\[\]{}!?;:,]|(?<!\d)\.|\.(?!\d)")
_ANSWER_PREFIX = re.compile(r"^\s*(?:the\s+)?answer\b\s*(?:is\b)?\s*[:\-]?\s*(?=\S)",
                            re.IGNORECASE)
"""A lead-in ("The answer is: …") before an answer; the word alone is the answer itself."""
_CHANGE = re.compile(r"^on\s+(\S+)\s+from\s+(.+?)\s+to\s+(.+)$", re.DOTALL)
_LIST_SPLIT = re.compile(r"\s*(?:,|;|&|\band\b)\s*")


@dataclass(frozen=True, slots=True)
class Change:
    date: str
    old: str
    new: str


def is_correct(expected: str, answer: str | None, many: bool = False) -> bool:
    """True when `answer` says what `expected` says; None, empty or different is wrong."""
    if answer is None or not normalise(answer):
        return False
    want, got = normalise(expected), normalise(answer)
    if want == NOT_RECORDED or got == NOT_RECORDED:
        return want == got
    expected_changes, answered_changes = parse_changes(expected), parse_changes(answer)
    if expected_changes is not None or answered_changes is not None:
        return _same_changes(expected_changes, answered_changes, many)
    return same_value(expected, answer, many)


def same_value(expected: str, answer: str, many: bool = False) -> bool:
    if many:
        return _as_set(expected) == _as_set(answer)
    return plain(expected) == plain(answer)


def normalise(text: str) -> str:
    """Folded text with dates, numbers, currency and spacing in one canonical form."""
    text = fold(_ANSWER_PREFIX.sub("", text.strip()))
    text = _dates(text)
    text = _THOUSANDS.sub(lambda m: re.sub(r"[ ,.]", "", m.group(0)), text)
    text = _DECIMAL_COMMA.sub(".", text)
    text = _DECIMAL.sub(_canonical_decimal, text)
    text = _UNIT_GAP.sub(" ", text)
    text = _CURRENCY.sub("zl", text)
    text = _PER_MONTH.sub(r" per \1", text)
    return " ".join(text.split()).strip(" .")


def plain(text: str) -> str:
    """`normalise` without punctuation: what is left to compare word by word."""
    return " ".join(_PUNCTUATION.sub(" ", normalise(text)).split())


def parse_changes(text: str) -> list[Change] | None:
    """`[]` for "no", the changes of "yes, on DATE from OLD to NEW; …", None otherwise."""
    norm = normalise(text)
    if re.fullmatch(r"no\b[\s.,]*(?:it did not|it didn ?t|change)?[\s.]*", norm):
        return []
    head = re.match(r"^yes\b[\s,:;.-]*", norm)
    if head is None:
        return None
    changes = []
    for part in re.split(r";\s*(?:and\s+)?", norm[head.end():]):
        found = _CHANGE.match(part.strip(" ."))
        if found is None:
            return None
        changes.append(Change(*(g.strip(" ,.") for g in found.groups())))
    return changes or None


def _same_changes(expected: list[Change] | None, answered: list[Change] | None,
                  many: bool) -> bool:
    if expected is None or answered is None or len(expected) != len(answered):
        return False
    return all(e.date == a.date and same_value(e.old, a.old, many)
               and same_value(e.new, a.new, many) for e, a in zip(expected, answered, strict=True))


def _as_set(text: str) -> frozenset[str]:
    return frozenset(plain(item) for item in _LIST_SPLIT.split(normalise(text)) if plain(item))


def _dates(text: str) -> str:
    text = _DAY_MONTH_YEAR.sub(lambda m: _iso(m.group(3), _month(m.group(2)), m.group(1)), text)
    text = _MONTH_DAY_YEAR.sub(lambda m: _iso(m.group(3), _month(m.group(1)), m.group(2)), text)
    text = _DOTTED_DATE.sub(lambda m: _iso(m.group(3), int(m.group(2)), m.group(1)), text)
    return _ISO_DATE.sub(lambda m: _iso(m.group(1), int(m.group(2)), m.group(3)), text)


def _month(name: str) -> int:
    return next(i for i, month in enumerate(MONTHS, 1) if month.startswith(name[:3]))


def _iso(year: str, month: int, day: str) -> str:
    return f"{year}-{month:02d}-{int(day):02d}"


def _canonical_decimal(match: re.Match[str]) -> str:
    fraction = match.group(2).rstrip("0")
    return f"{int(match.group(1))}.{fraction}" if fraction else str(int(match.group(1)))
