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
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from memrepo.core.facts.times import Instant
from memrepo.core.text import words_of

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DAY = 86_400_000_000

_MONTH_FORMS: dict[int, str] = {
    1: "january jan styczen stycznia styczniu januar januara januari januaru leden ledna lednu",
    2: "february feb luty lutego lutym februar februara februari februaru unor unora unoru",
    3: "march mar marzec marca marcu marec marci brezen brezna breznu",
    4: "april apr kwiecien kwietnia kwietniu aprila aprili aprilu duben dubna dubnu",
    5: "may maj maja maju maji kveten kvetna kvetnu",
    6: "june jun czerwiec czerwca czerwcu juna juni junu cerven cervna cervnu",
    7: "july jul lipiec lipca lipcu jula juli julu cervenec cervence cervenci",
    8: "august aug sierpien sierpnia sierpniu augusta auguste augustu srpen srpna srpnu",
    9: "september sep sept wrzesien wrzesnia wrzesniu septembra septembri septembru zari",
    10: "october oct pazdziernik pazdziernika pazdzierniku oktober oktobra oktobri oktobru "
        "rijen rijna rijnu",
    11: "november nov listopad listopada listopadzie novembra novembri novembru listopadu",
    12: "december dec grudzien grudnia grudniu decembra decembri decembru prosinec prosince "
        "prosinci",
}
MONTHS: dict[str, int] = {form: number for number, forms in _MONTH_FORMS.items()
                          for form in forms.split()}
_AMBIGUOUS_MONTHS = frozenset({"may", "mar", "jan", "jun", "jul", "dec", "sep", "oct", "nov",
                               "aug", "feb", "apr", "maj", "maja", "luty", "sept"})
"""Month words that are also ordinary words or names: a month only beside a date cue."""

_CUES = words_of("""in on since from of during until till by before after between and to
early late mid start beginning end w we od do przed po podczas miedzy poczatku koncu polowie
v vo pred po pocas medzi az zaciatku konci polovici""")
_SINCE = frozenset({"since", "from", "od", "odkedy"})
_UNTIL = frozenset({"to", "until", "till", "do", "az"})
_BETWEEN = frozenset({"between", "miedzy", "medzi"})
_START = frozenset({"start", "beginning", "early", "poczatku", "poczatek", "zaciatku",
                    "zaciatok"})
_MIDDLE = frozenset({"mid", "middle", "polowie", "polovici"})
_END = frozenset({"end", "late", "koncu", "koniec", "konci"})
_YEAR_WORDS = frozenset({"year", "roku", "rok", "r", "roka"})
_NOW = words_of("""now today currently presently teraz obecnie aktualnie dzis dzisiaj
dnes teraz momentalne aktualne sucasnosti""")
_YESTERDAY = frozenset({"yesterday", "wczoraj", "vcera"})
_LAST = words_of("""last previous past zeszlym ubieglym zeszly ubiegly poprzednim minuly
minulom minuleho minulej minulu predchadzajuci zeszlego ubieglego poprzedniego minuleho
minulého loni""")
_THIS = frozenset({"this", "tym", "tego", "tento", "tomto", "tohto", "current",
                   "biezacym"})
_UNIT_YEAR = frozenset({"year", "years", "rok", "roku", "lata", "lat", "rokmi", "rokom",
                        "roky", "rokov", "rokiem", "roka", "rokem"})
_UNIT_MONTH = frozenset({"month", "months", "miesiac", "miesiace", "miesiecy", "miesiacu",
                         "mesiac", "mesiace", "mesiacov", "mesiacmi", "mesiacom", "mesiaci"})
_UNIT_WEEK = frozenset({"week", "weeks", "tydzien", "tygodnie", "tygodni", "tygodniu",
                        "tyzden", "tyzdne", "tyzdnov", "tyzdnami", "tyzdnom"})
_UNIT_DAY = frozenset({"day", "days", "dzien", "dni", "dzień", "den", "dna", "dnami",
                       "dnom"})
_AGO_AFTER = frozenset({"ago", "temu"})
_AGO_BEFORE = frozenset({"pred", "przed"})
_NUMBERS: dict[str, int] = {
    word: number for number, words in {
        1: "a an one jeden jedna jedno jednym jednom",
        2: "two dwa dwie dva dve dvoma",
        3: "three trzy tri troma",
        4: "four cztery styri",
        5: "five piec pat",
        6: "six szesc sest",
        7: "seven siedem sedem",
        8: "eight osiem osem",
        9: "nine dziewiec devat",
        10: "ten dziesiec desat",
    }.items() for word in words.split()}
_KNOWN_CUES = words_of("""knew known say said says expect expected think thought memory
recorded according records noted stored knowledge wiedziala wiedzial wiedzialo wiedziales
wiedzialas pamiec mowila mowilo stanu wiedzy zapisane zapisano notatek vedela vedel vedelo
pamat hovorila hovorilo stavu vedeli zaznamov zaznamu vedomosti vedeli vedels vedelas""")
"""A date within four words of these is the system time asked about ("as the memory knew
it on 5 June", "według stanu na 8 stycznia", "podľa stavu k 1. 6. 2026", "in May, what did
the memory expect…"), not the valid time: the date right after a cue first, else one
right before it."""
_KNOWN_REACH = 4
_APPROXIMATE = words_of("around about circa approximately roughly okolo zhruba priblizne")
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_QUARTER = re.compile(r"q([1-4])")
_YEAR = re.compile(r"(19|20)\d\d")
_DAY_NUMBER = re.compile(r"([1-9]|[12]\d|3[01])(st|nd|rd|th)?")


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
    today = _date_of(now)

    def dotted(match: re.Match[str]) -> str:
        day, month, year = (int(part) for part in match.groups())
        return _iso_or(match, _safe_date(year, month, day))

    def dotted_no_year(match: re.Match[str]) -> str:
        day, month = int(match.group(1)), int(match.group(2))
        found = _safe_date(today.year, month, day)
        if found is not None and found > today:
            found = _safe_date(today.year - 1, month, day)
        return _iso_or(match, found)

    def slashed(match: re.Match[str]) -> str:
        first, second, year = (int(part) for part in match.groups())
        found = _safe_date(year, second, first) or _safe_date(year, first, second)
        return _iso_or(match, found)

    text = _DOTTED_DAY.sub(dotted, text)
    text = _SLASHED_DAY.sub(slashed, text)
    return _DOTTED_DAY_NO_YEAR.sub(dotted_no_year, text)


def _iso_or(match: re.Match[str], day: date | None) -> str:
    return match.group(0) if day is None else day.isoformat()


@dataclass(frozen=True, slots=True)
class When:
    """A valid (or system) time named by a question: an instant when `end` is None, else
    the interval [start, end)."""

    start: Instant
    end: Instant | None
    words: tuple[int, int]  # [first, last) word positions that said it

    @property
    def is_period(self) -> bool:
        return self.end is not None and self.end - self.start > _DAY


@dataclass(frozen=True, slots=True)
class Times:
    valid: When | None  # the valid time asked about (None: now)
    known: When | None  # the system time asked about (None: now)
    used: frozenset[int]  # word positions that were part of a date (not search words)


def find_times(words: list[str], now: Instant) -> Times:
    """The valid time and system time a question names. `words` are the question's
    folded words in order."""
    today = _date_of(now)
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
            used.update(i for i in range(len(words)) if _known_cue(words, i))
        elif valid is None:
            valid = when
    if valid is None and known is not None:  # "what did the memory say in May?"
        valid = known
    return Times(valid, known, frozenset(used))


def _known_span(words: list[str], spans: list[tuple[int, int, When]]) -> int | None:
    """Which date span is the system time: the first with a cue word in the four words
    before it ("knew it ON 2026-05-01"), else the first with one in the four after it."""
    for after in (False, True):
        for number, (first, last, _) in enumerate(spans):
            reach = (range(last, min(len(words), last + _KNOWN_REACH)) if after
                     else range(max(0, first - _KNOWN_REACH), first))
            if any(_known_cue(words, i) for i in reach):
                return number
    return None


def _known_cue(words: list[str], i: int) -> bool:
    """A cue word, or "had" said of the memory ("according to what YOU HAD on 1 May")."""
    return words[i] in _KNOWN_CUES or (words[i] in _HAD and i > 0 and words[i - 1] == "you")


_HAD = frozenset(("had", "have", "mial", "miales", "mala", "mal", "mel"))

_ABSOLUTE_READERS: tuple[_Reader, ...] = ()  # set below, after the readers


def dates_in(words: list[str]) -> list[When]:
    """The absolute dates and months of stored text (those that name their year, and ISO
    days), for matching a question's period with what a note is about. Relative words
    ("yesterday", "in May") are left alone: stored text has no "now" to read them by."""
    found: list[When] = []
    i = 0
    while i < len(words):
        for reader in _ABSOLUTE_READERS:
            span = reader(words, i, _NO_DAY, 0)
            if span is not None and _names_year(words, span):
                found.append(span[2])
                i = span[1]
                break
        else:
            i += 1
    return found


def _names_year(words: list[str], span: tuple[int, int, When]) -> bool:
    return any(_YEAR.fullmatch(word) for word in words[span[0]:span[1]])


# --- one date expression ------------------------------------------------------------------

def _span_at(words: list[str], i: int, today: date, now: Instant,
             ) -> tuple[int, int, When] | None:
    for reader in _READERS:
        found = reader(words, i, today, now)
        if found is not None:
            return found
    return None


def _relative(words: list[str], i: int, today: date, now: Instant,
              ) -> tuple[int, int, When] | None:
    word = words[i]
    if word in _NOW:
        return i, i + 1, When(now, None, (i, i + 1))
    if word in _YESTERDAY:
        day = today - timedelta(days=1)
        return i, i + 1, When(_instant(day), _instant(today), (i, i + 1))
    if word == "vlani":
        return i, i + 1, _year_when(today.year - 1, i, i + 1)
    nxt = words[i + 1] if i + 1 < len(words) else ""
    last, this = word in _LAST, word in _THIS
    if not (last or this):
        return None
    if nxt in _UNIT_YEAR:
        year = today.year - 1 if last else today.year
        return i, i + 2, _year_when(year, i, i + 2)
    if nxt in _UNIT_MONTH:
        first = today.replace(day=1)
        start = _add_months(first, -1) if last else first
        return i, i + 2, When(_instant(start), _instant(_add_months(start, 1)), (i, i + 2))
    if nxt in _UNIT_WEEK:
        monday = today - timedelta(days=today.weekday())
        start = monday - timedelta(days=7) if last else monday
        return i, i + 2, When(_instant(start), _instant(start + timedelta(days=7)), (i, i + 2))
    return None


def _ago(words: list[str], i: int, today: date, now: Instant,
         ) -> tuple[int, int, When] | None:
    """"two years ago", "3 months ago", "rok temu", "dwa lata temu", "pred dvoma rokmi"."""
    first = i
    before = words[i] in _AGO_BEFORE
    if before:
        i += 1
    count, i = _count_at(words, i)
    if i >= len(words):
        return None
    unit = words[i]
    if count is None:  # "rok temu", "pred rokom": the unit alone means one
        count = 1
    delta = _unit_delta(unit)
    if delta is None:
        return None
    end = i + 1
    if not before:
        if end >= len(words) or words[end] not in _AGO_AFTER:
            return None
        end += 1
    day = _shift(today, delta, count)
    return first, end, When(_instant(day), None, (first, end))


def _count_at(words: list[str], i: int) -> tuple[int | None, int]:
    word = words[i] if i < len(words) else ""
    if word.isdigit() and len(word) <= 3:
        return int(word), i + 1
    if word in _NUMBERS:
        return _NUMBERS[word], i + 1
    return None, i


def _unit_delta(unit: str) -> str | None:
    for name, units in (("year", _UNIT_YEAR), ("month", _UNIT_MONTH), ("week", _UNIT_WEEK),
                        ("day", _UNIT_DAY)):
        if unit in units:
            return name
    return None


def _shift(today: date, unit: str, count: int) -> date:
    if unit == "year":
        return _add_months(today, -12 * count)
    if unit == "month":
        return _add_months(today, -count)
    return today - timedelta(days=count * (7 if unit == "week" else 1))


def _iso_day(words: list[str], i: int, today: date, now: Instant,
             ) -> tuple[int, int, When] | None:
    # folding keeps "2026-05-20" as three words: 2026, 05, 20
    if i + 2 < len(words) and _YEAR.fullmatch(words[i]) and len(words[i + 1]) == 2 \
            and len(words[i + 2]) == 2 and words[i + 1].isdigit() and words[i + 2].isdigit():
        day = _safe_date(int(words[i]), int(words[i + 1]), int(words[i + 2]))
        if day is not None:
            return i, i + 3, _day_when(day, i, i + 3)
    return None


def _day_month(words: list[str], i: int, today: date, now: Instant,
               ) -> tuple[int, int, When] | None:
    """"5 June [2026]", "June 5[, 2026]", "5. júna"."""
    number = _DAY_NUMBER.fullmatch(words[i])
    if number and i + 1 < len(words) and words[i + 1] in MONTHS:
        month, end = MONTHS[words[i + 1]], i + 2
        day_of_month = int(number.group(1))
    elif words[i] in MONTHS and i + 1 < len(words) and _DAY_NUMBER.fullmatch(words[i + 1]) \
            and not _YEAR.fullmatch(words[i + 1]):
        month, end = MONTHS[words[i]], i + 2
        day_of_month = int(_DAY_NUMBER.fullmatch(words[i + 1]).group(1))  # type: ignore[union-attr]
    else:
        return None
    year, end = _year_after(words, end)
    if year is None:
        year = today.year
        candidate = _safe_date(year, month, day_of_month)
        if candidate is not None and candidate > today:
            year -= 1
    day = _safe_date(year, month, day_of_month)
    if day is None:
        return None
    return i, end, _day_when(day, i, end)


def _month(words: list[str], i: int, today: date, now: Instant,
           ) -> tuple[int, int, When] | None:
    word = words[i]
    if word not in MONTHS:
        return None
    year, end = _year_after(words, i + 1)
    cue = i > 0 and words[i - 1] in _CUES
    if word in _AMBIGUOUS_MONTHS and year is None and not cue:
        return None
    month = MONTHS[word]
    if year is None and words[end:end + 2] and words[end] in _LAST | _THIS and (
            words[end + 1:end + 2] and words[end + 1] in _UNIT_YEAR):
        year = today.year - 1 if words[end] in _LAST else today.year  # "w lutym ubiegłego
        end += 2  # roku", "in March last year"
    if year is None:
        year = today.year if month <= today.month else today.year - 1
    start = date(year, month, 1)
    first = i
    position = words[i - 1] if i > 0 else ""
    if i > 1 and position == "of" and words[i - 2] in _START | _MIDDLE | _END:
        position, first = words[i - 2], i - 2
    elif position in _START | _MIDDLE | _END:
        first = i - 1
    else:
        position = ""
    if position in _START:
        return first, end, When(_instant(start), None, (first, end))
    if position in _MIDDLE:
        return first, end, When(_instant(start.replace(day=15)), None, (first, end))
    if position in _END:
        last = _add_months(start, 1) - timedelta(days=1)
        return first, end, When(_instant(last), None, (first, end))
    return first, end, When(_instant(start), _instant(_add_months(start, 1)), (first, end))


_ORDINALS = {word: number for number, forms in {
    1: "first 1st pierwszy pierwszym pierwszego prvy prvom prveho prvni prvnim",
    2: "second 2nd drugi drugim drugiego druhy druhom druheho druhem",
    3: "third 3rd trzeci trzecim trzeciego treti tretom tretieho tretim",
    4: "fourth 4th czwarty czwartym czwartego stvrty stvrtom stvrteho ctvrty ctvrtem"}.items()
    for word in forms.split()}
_QUARTER_WORDS = frozenset(words_of("""quarter kwartal kwartale kwartalu stvrtrok stvrtroku
kvartal kvartali ctvrtleti"""))


def _quarter(words: list[str], i: int, today: date, now: Instant,
             ) -> tuple[int, int, When] | None:
    """"Q1 2026", "the first quarter of 2026", "w pierwszym kwartale 2026"."""
    match = _QUARTER.fullmatch(words[i])
    after = i + 1
    if match:
        number = int(match.group(1))
    elif words[i] in _ORDINALS and words[i + 1:i + 2] and words[i + 1] in _QUARTER_WORDS:
        number, after = _ORDINALS[words[i]], i + 2
        after += 1 if words[after:after + 1] == ["of"] else 0
    else:
        return None
    year, end = _year_after(words, after)
    if year is None:
        return None
    start = date(year, 3 * number - 2, 1)
    return i, end, When(_instant(start), _instant(_add_months(start, 3)), (i, end))


def _year(words: list[str], i: int, today: date, now: Instant,
          ) -> tuple[int, int, When] | None:
    if not _YEAR.fullmatch(words[i]):
        return None
    before = words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    if not (before in _CUES or before in _YEAR_WORDS or after in _YEAR_WORDS):
        return None
    first = i - 1 if before in _YEAR_WORDS else i
    end = i + 2 if after in {"r", "roku", "rok"} else i + 1
    return first, end, _year_when(int(words[i]), first, end)


def _half(words: list[str], i: int, today: date, now: Instant,
          ) -> tuple[int, int, When] | None:
    """"the first half of the year", "second half of 2025"."""
    if words[i] not in ("first", "second") or words[i + 1:i + 3] != ["half", "of"]:
        return None
    end = i + 3
    if end < len(words) and words[end] in ("the", "this"):
        end += 1
    year, after = _year_after(words, end)
    if year is None and end < len(words) and words[end] == "year":
        year, after = today.year, end + 1
    if year is None:
        return None
    start = date(year, 1 if words[i] == "first" else 7, 1)
    return i, after, When(_instant(start), _instant(_add_months(start, 6)), (i, after))


_SEASONS = {word: month for month, forms in {
    3: "spring wiosna wiosny wiosne wiosna jar jari jaro",
    6: "summer lato latem lecie lata leto lete",
    9: "autumn fall jesien jesienia jesienia jesieni jesen jeseni",
    12: "winter zima zimy zime zimie zimou zimu"}.items() for word in forms.split()}
"""Seasons and the month each begins (northern meteorological seasons: three months)."""


def _season(words: list[str], i: int, today: date, now: Instant,
            ) -> tuple[int, int, When] | None:
    """"in autumn 2025", "spring 2026", "last summer", "zimą 2024": three months; without
    a year, the latest such season that has begun by today."""
    month = _SEASONS.get(words[i])
    if month is None:
        return None
    after = i + 2 if words[i + 1:i + 2] == ["of"] else i + 1  # "the spring of 2025"
    year, end = _year_after(words, after)
    first = i
    if year is None:
        before = words[i - 1] if i > 0 else ""
        if before not in _LAST | _THIS and before not in _CUES:
            return None
        year = today.year if date(today.year, month, 1) <= today else today.year - 1
        if before in _LAST:
            year, first = year - 1, i - 1
        end = i + 1
    start = date(year, month, 1)
    return first, end, When(_instant(start), _instant(_add_months(start, 3)), (first, end))


def _year_after(words: list[str], i: int) -> tuple[int | None, int]:
    if i < len(words) and _YEAR.fullmatch(words[i]):
        end = i + 2 if i + 1 < len(words) and words[i + 1] in {"r", "roku"} else i + 1
        return int(words[i]), end
    return None, i


_Reader = Callable[[list[str], int, date, Instant], "tuple[int, int, When] | None"]
_READERS: tuple[_Reader, ...] = (_relative, _ago, _iso_day, _day_month, _month, _quarter,
                                 _half, _season, _year)
_ABSOLUTE_READERS = (_iso_day, _day_month, _month, _quarter, _season, _year)
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


# --- calendar -------------------------------------------------------------------------------

def _date_of(instant: Instant) -> date:
    return (_EPOCH + timedelta(microseconds=instant)).date()


def _instant(day: date) -> Instant:
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(microseconds=1)


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    for last_day in (day.day, 30, 29, 28):
        candidate = _safe_date(year, month, min(day.day, last_day))
        if candidate is not None:
            return candidate
    raise AssertionError("unreachable")


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day_when(day: date, first: int, last: int) -> When:
    return When(_instant(day), _instant(day + timedelta(days=1)), (first, last))


def _year_when(year: int, first: int, last: int) -> When:
    return When(_instant(date(year, 1, 1)), _instant(date(year + 1, 1, 1)), (first, last))
