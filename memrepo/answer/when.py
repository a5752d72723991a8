"""Dates and periods in a question (SPEC §7): "in April 2026", "in 2025", "last year",
"since March", "w kwietniu 2025", "v roku 2024", "now", "yesterday", "two years ago".

A small grammar over folded words instead of dateparser: dateparser costs ≈100 ms to
import and ≈200 ms for its first search in a fresh process (the CLI budget is 0.2 s for
the whole command), it reads "May I ask…" as a date and Slovak "sa" as a day, it misses
"v apríli", and it returns a day where a question names a month ("in April" must become the
interval [April 1, May 1)). Everything here is pure and sub-millisecond.

A day, month, quarter or year becomes an interval [start, end); "now", "N years ago",
"at the start of May" become an instant. "since X" runs from X to now; "between X and Y"
and "from X to Y" from the start of X to the end of Y. A month or day without a year is
the latest one that has begun by `now`.

Dates written with numbers ("15.02.2026", "15.02.", "02/15/2026") lose their separators
when a text becomes words, and without them "15.02.2026" cannot be told from an amount
("2.400 zł", "1.5 GB", "v1.2.3"): `numeric_dates_as_iso` rewrites them in the text first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from memrepo.answer.dates import (
    ABSOLUTE_READERS,
    MONTHS,
    READERS,
    YEAR,
    When,
    date_of,
    safe_date,
)
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.core.facts.times import Instant
from memrepo.core.stems import WORD
from memrepo.core.text import words_of

_SINCE = frozenset({"since", "from", "od", "odkedy"})
_UNTIL = frozenset({"to", "until", "till", "do", "az"})
_BETWEEN = frozenset({"between", "miedzy", "medzi"})
_BEFORE = frozenset({"before", "przed", "pred", "predtym"})
_KNOWN_CUES = words_of("""knew known say said says expect expected think thought memory
recorded according records noted notes stood stored knowledge wiedziala wiedzial wiedzialo
wiedziales wiedzialas pamiec mowila mowilo stanu wiedzy zapisane zapisano notatek vedela
vedel vedelo pamat hovorila hovorilo stavu vedeli zaznamov zaznamu vedomosti vedeli vedels
vedelas pamieci zapisach zapisow zaznamoch zaznamech asked zapytal zapytala spytal spytala
zeptal zeptala file written zapiskach zapiskow zapiski zaznamenane zaznamenana zaznamenany
zaznamenano zapisane zapsane zapsano poznamkach poznamky poznamok notatkach notatki
zapisany zapisana zapisanu zapisaneho zapisanej zapisanych zapisanego zapisanym zapsany
zapsana zapsanou zapsaneho notebook notebooks listed wiedzialem wiedzialam wiedzielismy
wiedzieliscie miales mialas mieliscie pamet pameti pamati""")
"""A date within four words of these is the system time asked about ("as the memory knew
it on 5 June", "według stanu na 8 stycznia", "podľa stavu k 1. 6. 2026", "in May, what did
the memory expect…"), not the valid time: the date right after a cue first, else one
right before it."""
_KNOWN_REACH = 4
_ON_RECORD = frozenset(words_of("record records recorded memory notes noted"))
"""Words saying a question with two dates asks what the memory held at one of them."""
_FRAMES = frozenset(words_of("""according going wedlug podla podle stan stanu stavu na k"""))
"""Words that frame a cue ("ACCORDING to what we knew", "WEDŁUG notatek", "NA STAN wiedzy
z", "PODĽA toho, čo si vedel"): part of the clause of the system time when a cue follows
them, at most function words apart."""
_APPROXIMATE = words_of("around about circa approximately roughly okolo zhruba priblizne")


_DOTTED_DAY = re.compile(
    r"(?<![\w.,/-])(\d{1,2})\. ?(\d{1,2})\. ?((?:19|20)\d\d)(?![\w/-]|[.,]\d)")
"""D.M.YYYY, DD.MM.YYYY, "1. 6. 2026" (Polish, Slovak, Czech, German: day first)."""
_DOTTED_DAY_NO_YEAR = re.compile(r"(?<![\w.,/-])(\d{1,2})\.(\d\d)\.(?![\w/-]|[.,]\d)")
"""DD.MM. without a year: the month in two digits and the closing dot ("15.02."), so that
an amount ("2.40", "1.5.") never reads as a day."""
_SLASHED_DAY = re.compile(
    r"(?<![\w.,/-])(\d{1,2})/(\d{1,2})/((?:19|20)\d\d)(?![\w/-]|[.,]\d)")
"""D/M/YYYY or M/D/YYYY: the reading that is a date; both are ("03/04/2026"): day first."""


def numeric_dates_as_iso(text: str, now: Instant) -> str:
    """`text` with its numeric dates written as ISO days ("15.02.2026" → "2026-02-15"),
    which the word grammar reads; a day without a year is the latest one begun by `now`.
    Anything that is not a valid date (an amount, a version) is left as written."""
    today = date_of(now)

    def dotted(match: re.Match[str]) -> str:
        day, month, year = (int(part) for part in match.groups())
        return _iso_or(match, safe_date(year, month, day))

    def dotted_no_year(match: re.Match[str]) -> str:
        day, month = int(match.group(1)), int(match.group(2))
        found = safe_date(today.year, month, day)
        if found is not None and found > today:
            found = safe_date(today.year - 1, month, day)
        return _iso_or(match, found)

    def slashed(match: re.Match[str]) -> str:
        first, second, year = (int(part) for part in match.groups())
        found = safe_date(year, second, first) or safe_date(year, first, second)
        return _iso_or(match, found)

    text = _DOTTED_DAY.sub(dotted, text)
    text = _SLASHED_DAY.sub(slashed, text)
    return _DOTTED_DAY_NO_YEAR.sub(dotted_no_year, text)


def _iso_or(match: re.Match[str], day: date | None) -> str:
    return match.group(0) if day is None else day.isoformat()


@dataclass(frozen=True, slots=True)
class Times:
    valid: When | None  # the valid time asked about (None: now)
    known: When | None  # the system time asked about (None: now)
    used: frozenset[int]  # word positions that were part of a date (not search words)


def month_names_as_names(text: str, folded: Sequence[str]) -> list[str]:
    """The `folded` words of `text`, a Polish, Slovak or Czech month word written with a
    capital letter inside the sentence left out: those languages write months in lower
    case, so it is a name ("the KVETNÁ contract" is no "května", May)."""
    written = WORD.findall(unicodedata.normalize("NFC", text))
    if len(written) != len(folded):
        return list(folded)
    return ["" if i and word[:1].isupper() and folded[i] in _SLAVIC_MONTHS else folded[i]
            for i, word in enumerate(written)]


_SLAVIC_MONTHS = frozenset(MONTHS) - frozenset(words_of(
    """january jan february feb march mar april apr may june jun july jul august aug
    september sep sept october oct november nov december dec"""))


def find_times(words: list[str], now: Instant) -> Times:
    """The valid time and system time a question names. `words` are the question's
    folded words in order."""
    today = date_of(now)
    spans: list[tuple[int, int, When]] = []
    i = 0
    while i < len(words):
        found = _span_at(words, i, today, now)
        if found is None:
            i += 1
            continue
        spans.append(found)
        i = found[1]
    spans = _combine(words, spans, now)
    valid: When | None = None
    known: When | None = None
    used: set[int] = set()
    cued = _known_span(words, spans)
    for number, (first, last, when) in enumerate(spans):
        used.update(range(first, last))
        if first > 0 and words[first - 1] in _APPROXIMATE:  # "around July"
            used.add(first - 1)
        if number == cued:
            known = When(when.start, None, when.words)
            # "as the memory knew it", "did the memory expect": about time, not the topic
            used.update(_known_clause(words))
        elif valid is None:
            valid = when
    if valid is None and known is not None:  # "what did the memory say in May?"
        valid = known
    return Times(valid, known, frozenset(used))


def _known_span(words: list[str], spans: list[tuple[int, int, When]]) -> int | None:
    """Which date span is the system time: of two, the one after "as of" when the question
    says it asks what was on record ("AS OF 1 October 2025, which van did we have ON RECORD
    for 2020?"); else the first with a cue word in the four words before it ("knew it ON
    2026-05-01"), else the first with one in the four after it."""
    if len(spans) > 1 and _ON_RECORD.intersection(words):
        for number, (first, _, _) in enumerate(spans):
            if words[max(0, first - 2):first] == ["as", "of"]:
                return number
    for after in (False, True):
        for number, (first, last, _) in enumerate(spans):
            reach = (range(last, min(len(words), last + _KNOWN_REACH)) if after
                     else range(max(0, first - _KNOWN_REACH), first))
            if any(_known_cue(words, i) for i in reach):
                return number
    if len(spans) == 1 and (_MEMORY_CUES.intersection(words) or _had_down(words) or any(
            _you_had(words, i) for i in range(len(words)))):
        return 0  # "what did the MEMORY say Booking's commission was on 5 July?", "what
        # did we HAVE DOWN for his slot on 4 October?", "as of 1 May, what number did YOU
        # HAVE for Lucia?"
    return None


def _known_clause(words: list[str]) -> set[int]:
    """The positions of the words saying the question asks what the memory held: its cues
    and the words framing them ("WEDŁUG STANU wiedzy", "na STAN wiedzy")."""
    cues = {i for i in range(len(words)) if _known_cue(words, i)}
    return cues | {i for i, word in enumerate(words) if word in _FRAMES
                   and _cue_follows(words, i, cues)}


def _cue_follows(words: list[str], i: int, cues: set[int]) -> bool:
    for j in range(i + 1, min(len(words), i + 1 + _KNOWN_REACH)):
        if j in cues:
            return True
        if words[j] not in STOP_WORDS and words[j] not in _FRAMES:
            return False
    return False


_MEMORY_CUES = frozenset(words_of("""memory knew known pamiec pamieci pamat wiedzielismy
wiedziala wiedzial wiedzy vedeli vedela vedel vedomosti recorded zaznamenane zapisane
zapsane file written notes zapiskach poznamkach notebook notatkach notatek notatki
wiedzialem wiedzialam wiedziales wiedzialas miales mialas zapisany zapisana zapsano
zapsany zapsana zaznamoch zaznamech"""))
"""Words that say the question asks what the memory held, wherever they stand beside its
only date."""


def _known_cue(words: list[str], i: int) -> bool:
    """A cue word, "had" said of the memory ("according to what YOU HAD on 1 May"), or "did
    you know" ("on 1 March did YOU KNOW the kiln's model": then, not now)."""
    return words[i] in _KNOWN_CUES or _you_had(words, i) or (  # "čo si MAL 1. júna"
        words[i] == "know" and words[i - 2:i] == ["did", "you"])  # not "do you know …"


def _you_had(words: list[str], i: int) -> bool:
    """"had" said of the memory: "what did YOU HAVE for Lucia", "čo si MAL"."""
    return words[i] in _HAD and i > 0 and words[i - 1] in ("you", "si", "jsi")


_HAD = frozenset(("had", "have", "mial", "miales", "mala", "mal", "mel"))


def _had_down(words: list[str]) -> bool:
    """"had … down (as)": what was noted ("what did we HAVE DOWN for …", "who did we have
    down as our supplier")."""
    return any(w == "down" and words[i - 1] in (*_HAD, "put", "written", "wrote")
               for i, w in enumerate(words) if i)


def dates_in(words: list[str]) -> list[When]:
    """The absolute dates and months of stored text (those that name their year, and ISO
    days), for matching a question's period with what a note is about. Relative words
    ("yesterday", "in May") are left alone: stored text has no "now" to read them by."""
    found: list[When] = []
    i = 0
    while i < len(words):
        for reader in ABSOLUTE_READERS:
            span = reader(words, i, _NO_DAY, 0)
            if span is not None and _names_year(words, span):
                found.append(span[2])
                i = span[1]
                break
        else:
            i += 1
    return found


def _names_year(words: list[str], span: tuple[int, int, When]) -> bool:
    return any(YEAR.fullmatch(word) for word in words[span[0]:span[1]])


# --- one date expression ------------------------------------------------------------------

def _span_at(words: list[str], i: int, today: date, now: Instant,
             ) -> tuple[int, int, When] | None:
    for reader in READERS:
        found = reader(words, i, today, now)
        if found is not None:
            return found
    return None
_NO_DAY = date(9999, 12, 31)


# --- combining expressions ------------------------------------------------------------------

def _combine(words: list[str], spans: list[tuple[int, int, When]], now: Instant,
             ) -> list[tuple[int, int, When]]:
    """"since X" → [X, now]; "between X and Y" / "from X to Y" → [X, end of Y]."""
    out: list[tuple[int, int, When]] = []
    k = 0
    while k < len(spans):
        first, last, when = spans[k]
        first = _after_start_words(words, first)  # "since THE START OF 2025"
        before = words[first - 1] if first > 0 else ""
        if k + 1 < len(spans) and (before in _BETWEEN or before in _SINCE):
            nfirst, nlast, nwhen = spans[k + 1]
            gap = words[last:nfirst]
            end = nwhen.end if nwhen.end is not None else nwhen.start
            if len(gap) == 1 and gap[0] in _UNTIL | {"and", "i", "a"} and end >= when.start:
                out.append((first - 1, nlast, When(when.start, end, (first - 1, nlast))))
                k += 2
                continue
        if before in _SINCE:
            out.append((first - 1, last, When(when.start, max(now, when.start),
                                              (first - 1, last))))
        elif before in _BEFORE or words[max(0, first - 2):first] == ["prior", "to"]:
            # "before September": what held just before it began
            lead = first - 1 if before in _BEFORE else first - 2
            out.append((lead, last, When(when.start - 1, None, (lead, last))))
        else:
            out.append((first, last, when))
        k += 1
    return out


def _after_start_words(words: list[str], first: int) -> int:
    """Where a period begins with the words saying its start ("since THE BEGINNING OF
    2025", "od POCZĄTKU 2025", "od ZAČIATKU ROKA 2025"), when a since-word comes before
    them; else `first`."""
    lead = first
    while lead > 0 and first - lead < _START_REACH and words[lead - 1] in _START_WORDS:
        lead -= 1
    return lead if lead < first and lead > 0 and words[lead - 1] in _SINCE else first


_START_WORDS = frozenset(words_of("""the start beginning of early poczatku poczatek
zaciatku zaciatok zacatku roku roka"""))
_START_REACH = 4
