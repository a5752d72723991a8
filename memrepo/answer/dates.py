"""The calendar of question times (memrepo.answer.when): `When`, a time a question names, and
the readers that each read a date or period at a word position ("in April 2026", "Q3",
"last summer", "two years ago", "15 maja", "2025-03-01"), with the month names
(en/pl/sk/cs), the date arithmetic and a month or day without a year read as the latest
one begun by `now`.
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
    1: "january jan styczen stycznia styczniu januar januara januari januaru leden ledna lednu "
       "styczniem januarom lednem",
    2: "february feb luty lutego lutym februar februara februari februaru unor unora unoru "
       "februarom unorem",
    3: "march mar marzec marca marcu marec marci brezen brezna breznu marcem marcom breznem",
    4: "april apr kwiecien kwietnia kwietniu aprila aprili aprilu duben dubna dubnu kwietniem "
       "aprilom dubnem",
    5: "may maj maja maju maji kveten kvetna kvetnu majem majom kvetnem",
    6: "june jun czerwiec czerwca czerwcu juna juni junu cerven cervna cervnu czerwcem junom "
       "cervnem",
    7: "july jul lipiec lipca lipcu jula juli julu cervenec cervence cervenci lipcem julom "
       "cervencem",
    8: "august aug sierpien sierpnia sierpniu augusta auguste augustu srpen srpna srpnu "
       "sierpniem augustom srpnem",
    9: "september sep sept wrzesien wrzesnia wrzesniu septembra septembri septembru zari "
       "wrzesniem septembrom zarim",
    10: "october oct pazdziernik pazdziernika pazdzierniku oktober oktobra oktobri oktobru "
        "rijen rijna rijnu pazdziernikiem oktobrom rijnem",
    11: "november nov listopad listopada listopadzie novembra novembri novembru listopadu "
        "listopadem novembrom",
    12: "december dec grudzien grudnia grudniu decembra decembri decembru prosinec prosince "
        "prosinci grudniem decembrom prosincem",
}
MONTHS: dict[str, int] = {form: number for number, forms in _MONTH_FORMS.items()
                          for form in forms.split()}
_AMBIGUOUS_MONTHS = frozenset({"may", "mar", "jan", "jun", "jul", "dec", "sep", "oct", "nov",
                               "aug", "feb", "apr", "maj", "maja", "luty", "sept"})
"""Month words that are also ordinary words or names: a month only beside a date cue."""

_CUES = words_of("""in on since from of during until till by before after between and to
early late mid start beginning end w we od do przed po podczas miedzy poczatku koncu polowie
v vo pred po pocas medzi az zaciatku konci polovici""")
_START = frozenset({"start", "beginning", "early", "poczatku", "poczatek", "zaciatku",
                    "zaciatok", "zaciatkom", "zacatku", "zacatek", "zacatkem", "pocatku"})
_MIDDLE = frozenset({"mid", "middle", "polowie", "polovici"})
_END = frozenset({"end", "late", "koncu", "koniec", "konci", "koncem", "koncom", "konec",
                  "konce"})
_YEAR_WORDS = frozenset({"year", "roku", "rok", "r", "roka", "roce"})
_SLAVIC_AND = frozenset({"a", "i", "aj"})
""""And" in Polish, Slovak and Czech: a date cue only between two years (in English "a"
is no "and": "a 2026 model")."""
_NOW = words_of("""now today currently presently teraz obecnie aktualnie dzis dzisiaj
dnes teraz momentalne aktualne sucasnosti""")
_YESTERDAY = frozenset({"yesterday", "wczoraj", "vcera"})
_LAST = words_of("""last previous past zeszlym ubieglym zeszly ubiegly poprzednim minuly
minulom minuleho minulej minulu predchadzajuci zeszlego ubieglego poprzedniego minuleho
minulého loni""")
_THIS = frozenset({"this", "tym", "tego", "tento", "tomto", "tohto", "current",
                   "biezacym"})
_UNIT_YEAR = frozenset({"year", "years", "rok", "roku", "lata", "lat", "rokmi", "rokom",
                        "roky", "rokov", "rokiem", "roka", "rokem", "roce"})
_YEARS_BACK = {**dict.fromkeys(("loni", "vloni", "vlani", "lani"), 1),
               **dict.fromkeys(("predloni", "predvlani", "predlani"), 2),
               **dict.fromkeys(("letos", "tohoroku", "letosni", "letosny", "letosnom"), 0)}
"""One word for a whole year back from this one: "loni" (last year), "předloni", "letos"."""
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
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_QUARTER = re.compile(r"q([1-4])")
YEAR = re.compile(r"(19|20)\d\d")
"""A year as a question writes it (1900–2099)."""
_DAY_NUMBER = re.compile(r"([1-9]|[12]\d|3[01])(st|nd|rd|th)?")


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


def _relative(words: list[str], i: int, today: date, now: Instant,
              ) -> tuple[int, int, When] | None:
    word = words[i]
    if word in _NOW:
        return i, i + 1, When(now, None, (i, i + 1))
    if word in _YESTERDAY:
        day = today - timedelta(days=1)
        return i, i + 1, When(_instant(day), _instant(today), (i, i + 1))
    if word in _YEARS_BACK:
        return i, i + 1, _year_when(today.year - _YEARS_BACK[word], i, i + 1)
    nxt = words[i + 1] if i + 1 < len(words) else ""
    last, this = word in _LAST, word in _THIS
    the_year = word == "the" and nxt == "year" and _edge_before(words, i) is not None
    if not (last or this or the_year):
        return None
    if nxt in _UNIT_YEAR:
        year = today.year - 1 if last else today.year
        edge = _edge_before(words, i)
        if edge is not None:  # "at the start of this year", "koncem minulého roku"
            return _year_edge(year, edge, i + 2)
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


def _edge_before(words: list[str], i: int) -> tuple[str, int] | None:
    """The start or end word right before position `i` ("EARLY this year", "the START OF
    the year", "na POCZĄTKU tego roku") and where it stands."""
    j = i - 1
    if j >= 0 and words[j] == "of":
        j -= 1
    if j >= 0 and words[j] in _START | _END:
        return words[j], j
    return None


def _year_edge(year: int, edge: tuple[str, int], end: int) -> tuple[int, int, When]:
    """The first or last quarter of `year`: "at the start of the year", "late last year"."""
    word, first = edge
    start = date(year, 1, 1) if word in _START else date(year, 10, 1)
    return first, end, When(_instant(start), _instant(_add_months(start, 3)), (first, end))


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
    if i + 2 < len(words) and YEAR.fullmatch(words[i]) and len(words[i + 1]) == 2 \
            and len(words[i + 2]) == 2 and words[i + 1].isdigit() and words[i + 2].isdigit():
        day = safe_date(int(words[i]), int(words[i + 1]), int(words[i + 2]))
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
            and not YEAR.fullmatch(words[i + 1]):
        month, end = MONTHS[words[i]], i + 2
        day_of_month = int(_DAY_NUMBER.fullmatch(words[i + 1]).group(1))  # type: ignore[union-attr]
    else:
        return None
    year, end = _year_after(words, end)
    if year is None:
        year = today.year
        candidate = safe_date(year, month, day_of_month)
        if candidate is not None and candidate > today:
            year -= 1
    day = safe_date(year, month, day_of_month)
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


def _school_year(words: list[str], i: int, today: date, now: Instant,
                 ) -> tuple[int, int, When] | None:
    """"the 2025/26 school year", "w roku szkolnym 2024/2025", "školský rok 2025/26": from
    September of its first year to September of the next, with the words naming it."""
    if not YEAR.fullmatch(words[i]) or i + 1 >= len(words):
        return None
    year, then = int(words[i]), words[i + 1]
    if len(then) not in (2, 4) or not then.isdecimal() or int(then) not in (
            year + 1, (year + 1) % 100):  # the length first: "2025/999…9" is no number
        return None
    first, end = i, i + 2
    while first > 0 and words[first - 1] in _SCHOOL_YEAR_WORDS:
        first -= 1
    while end < len(words) and words[end] in _SCHOOL_YEAR_WORDS:
        end += 1
    start = date(year, 9, 1)
    return first, end, When(_instant(start), _instant(_add_months(start, 12)), (first, end))


_SCHOOL_YEAR_WORDS = frozenset(words_of("""school academic year rok roku szkolny szkolnym
szkolnego skolsky skolskom skolskeho skolni skolnim skolniho roce"""))


def _year(words: list[str], i: int, today: date, now: Instant,
          ) -> tuple[int, int, When] | None:
    if not YEAR.fullmatch(words[i]):
        return None
    before = words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    if not (before in _CUES or before in _YEAR_WORDS or after in _YEAR_WORDS or (
            before == "for" and not after) or (  # "… on record FOR 2020?", not "for 2000 zł"
            before in _SLAVIC_AND and i > 1 and YEAR.fullmatch(words[i - 2]))):
        return None  # "między 2025 A 2026": the second year of a pair
    first = i - 1 if before in _YEAR_WORDS else i
    end = i + 2 if after in {"r", "roku", "rok"} else i + 1
    if first > 1 and words[first - 1] == "of":  # "at the start of 2026"
        first -= 1
    edge = words[first - 1] if first > 0 else ""
    if edge in _START | _END:  # "na początku 2026", "koncem roku 2025": its first or last
        return _year_edge(int(words[i]), (edge, first - 1), end)  # quarter
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
    3: "spring wiosna wiosny wiosne wiosna wiosna wiosną jar jari jaro jare",
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
        if before in _LAST:  # "last summer" said in November: the one just over
            ended = _add_months(date(year, month, 1), 3) <= today
            year, first = (year if ended else year - 1), i - 1
        end = i + 1
    start = date(year, month, 1)
    return first, end, When(_instant(start), _instant(_add_months(start, 3)), (first, end))


def _year_after(words: list[str], i: int) -> tuple[int | None, int]:
    if i < len(words) and YEAR.fullmatch(words[i]):
        end = i + 2 if i + 1 < len(words) and words[i + 1] in {"r", "roku"} else i + 1
        return int(words[i]), end
    return None, i


_Reader = Callable[[list[str], int, date, Instant], "tuple[int, int, When] | None"]
READERS: tuple[_Reader, ...] = (_relative, _ago, _iso_day, _day_month, _month, _quarter,
                                 _half, _season, _school_year, _year)
ABSOLUTE_READERS: tuple[_Reader, ...] = (_iso_day, _day_month, _month, _quarter, _season,
                                         _school_year, _year)
"""`READERS` reads a date or period at a word position, first match wins;
`ABSOLUTE_READERS`, those that name a date of the calendar (not one relative to now)."""


# --- calendar -------------------------------------------------------------------------------

def date_of(instant: Instant) -> date:
    """The UTC day of an instant."""
    return (_EPOCH + timedelta(microseconds=instant)).date()


def _instant(day: date) -> Instant:
    moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(microseconds=1)


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    for last_day in (day.day, 30, 29, 28):
        candidate = safe_date(year, month, min(day.day, last_day))
        if candidate is not None:
            return candidate
    raise AssertionError("unreachable")


def safe_date(year: int, month: int, day: int) -> date | None:
    """The day, or None when the calendar has no such day (31 April)."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _day_when(day: date, first: int, last: int) -> When:
    return When(_instant(day), _instant(day + timedelta(days=1)), (first, last))


def _year_when(year: int, first: int, last: int) -> When:
    return When(_instant(date(year, 1, 1)), _instant(date(year + 1, 1, 1)), (first, last))
