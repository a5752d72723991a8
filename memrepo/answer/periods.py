"""The period a rate is asked for and the period a key's rate is given per: "how much is
the Omega PER HOUR" is not answered by `omega.price_per_day`, nor "ile za cały DZIEŃ" by
`kayak.price_per_hour` (memrepo.answer.kind_asked, memrepo.answer.by_answer_kind).

Pure.
"""

from __future__ import annotations

from memrepo.answer.identities import words
from memrepo.answer.reading import Reading
from memrepo.core.text import words_of


def period_asked(read: Reading) -> str | None:
    """The one period a "how much" asks a rate for ("per HOUR", "a NIGHT", "za godzinę",
    "na cały DZIEŃ", "MONTHLY"), or None (none, two: "hours a WEEK", or a count: "how many
    DAYS", "ANNUAL leave": no rate word before it)."""
    asked = {PERIODS[word] for i, word in enumerate(read.folded)
             if word in PERIODS and i not in read.dated
             and (word in _RATES or _RATE_BEFORE.intersection(read.folded[max(i - 2, 0):i]))}
    return asked.pop() if len(asked) == 1 else None


def of_another_period(relation_key: str, period: str) -> bool:
    """Whether a key's relation names a period, not the one asked (`price_per_day` of a
    price per hour)."""
    named = {PERIODS[word] for word in words(relation_key) if word in PERIODS}
    return bool(named) and period not in named


PERIODS = {word: period for period, said in (
    ("hour", "hour hours hourly godzina godzine godziny godzin godzinowa godzinowy hodina "
             "hodinu hodiny hodin hodinova hodinovy hod"),
    ("day", "day days daily dzien dnia dni dzienna dzienny doba dobe doby den dna dnu denne "
            "denny denni"),
    ("night", "night nights nightly noc nocy noc nocleg noclegu nocny nocna"),
    ("week", "week weeks weekly tydzien tygodnia tygodniowo tygodniowy tyzden tyzdna tyden "
             "tydne tydenni tyzdenne"),
    ("month", "month months monthly miesiac miesiaca miesiecznie miesieczny mesiac mesiaca "
              "mesacne mesacny mesic mesice mesicne mesicni"),
    ("year", "year years yearly annual annually rok roku rocznie roczny rocne rocny rocni"),
) for word in words_of(said)}
"""The words of the periods a rate is given per."""
_RATES = frozenset(words_of("""hourly daily nightly weekly monthly yearly annually godzinowy
godzinowa dzienny dzienna tygodniowo miesiecznie rocznie hodinovy hodinova denne tyzdenne
tydenni mesacne mesicne rocne rocni"""))
"""Words that say a rate per a period by themselves."""
_RATE_BEFORE = frozenset(words_of("per a an each every za na pro"))
"""Words before a period (one word between at most) that make it a rate's: "PER hour", "A
night", "ZA dobę", "NA cały dzień", "PRO hodinu"."""
