"""The kind of value a question asks for, read from its question word, and the kind of a
recorded value: the last resort for a question that names a thing by its own words but
none of its relations in words the memory knows ("Who lent us the money for the OVEN?":
of `oven_loan`'s values only the bank's is a name; "When does the DOG need his next
jab?": only `next_vaccination` holds a date).

A relation answers this way only when it is the one relation of the named thing whose
every recorded value is of the asked kind, so the answer is always the named thing's own
fact — never another subject's — and it says which question word chose it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import TypeVar

from memrepo.answer.dates import MONTHS
from memrepo.core.text import words, words_of

_Key = TypeVar("_Key")

NAME, DATE, DAYS, AMOUNT, TIME, CODE = ("a name", "a date", "days of the week", "an amount",
                                        "a time of day", "a number that counts nothing")

WEEKDAYS = frozenset(words_of("""
monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays
thursdays fridays saturdays sundays weekday weekdays daily everyday
poniedzialek wtorek sroda czwartek piatek sobota niedziela poniedzialki wtorki srody
czwartki piatki soboty niedziele poniedzialku wtorku srody czwartku piatku sobote niedziele
codziennie pn wt sr czw pt sob ndz
pondelok utorok streda stvrtok piatok sobota nedela pondelky utorky stredy stvrtky piatky
nedele denne kazdy
pondeli utery ctvrtek patek nedele kazdy denne"""))
_CURRENCY = re.compile(r"[€$£%]|\b(?:eur|euro|eura|zl|zł|pln|kc|kč|czk|usd|gbp|huf|ft)\b",
                       re.IGNORECASE)
_NUMERIC_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"
                           r"|\b\d{1,2}\. ?\d{1,2}\. ?\d{4}\b")  # "3. 12. 2026"
_DAY_SPAN = re.compile(r"\b(?:po|pon|pn|ut|út|wt|st|śr|sr|št|čt|ct|czw|pá|pa|pi|pt|so|sob|ne|ndz|"
                       r"mon|tue|wed|thu|fri|sat|sun)\b ?[–—-] ?\b(?:po|pon|pn|ut|út|wt|st|śr|sr|"
                       r"št|čt|ct|czw|pá|pa|pi|pt|so|sob|ne|ndz|mon|tue|wed|thu|fri|sat|sun)\b",
                       re.IGNORECASE)
"""Abbreviated days of the week as a span ("čt–so", "Po-Pt", "Mon–Fri"): alone, "po" or "ne"
is a preposition or "no"."""
_DAY_QUESTION = frozenset(words_of("days day dni dny dnie dniach"))
_CLOCK = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d\b"
                    r"|\b(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)? ?(?:am|pm)\b", re.IGNORECASE)
"""A time of day: "9:40", "19.00", "4pm", "10.30 am"."""
_EVERY = frozenset(words_of("weekday weekdays daily everyday codziennie kazdy denne"))
"""Words of WEEKDAYS that name no day: "19 zł dziennie", "12 € každý mesiac" is an amount."""
_TIME_QUESTIONS = (("what", "time"), ("which", "time"), ("o", "ktorej"), ("o", "kolkej"),
                   ("o", "kolke"), ("v", "kolik"), ("w", "jakich", "godzinach"),
                   ("what", "hours"), ("which", "hours"), ("o", "jakiej", "godzinie"),
                   ("how", "early"), ("how", "late"))
"""Question words asking for a time of day, folded ("o której", "o koľkej", "v kolik")."""


_CODE = re.compile(r"\+?\(?\d[\d \-/().]{7,}\d")
"""A value of digits only that counts nothing: a phone number ("+48 58 551 40 20", "0113 274
8821"), an account or a tax number."""


def leads_with_name(value: str) -> bool:
    """Whether a name leads the value before a comma and terms follow ("Warta, OC+AC, do
    2026-03-31": the insurer, then its cover and end date) — a value that answers "who"
    though its kind is a date."""
    head, comma, _ = value.partition(",")
    return bool(comma) and NAME in value_kinds(head)


def names_someone(value: str) -> bool:
    """Whether a value of days or times holds a name after its first word ("Fridays 4pm
    with STEVE"): it may answer "who"; "co drugi czwartek", "Mondays and Fridays" do not."""
    return value_kinds(value) <= {DAYS, TIME} and any(
        word[:1].isupper() and not any(w in WEEKDAYS or w in MONTHS for w in words(word))
        for word in value.split()[1:])


def names_money(value: str) -> bool:
    """Whether a value holds an amount of money, whatever else it says ("ČSOB Leasing,
    18 400 Kč měsíčně do března 2030" is a date by `value_kinds` too)."""
    return _CURRENCY.search(value) is not None and any(ch.isdigit() for ch in value)


def value_kinds(value: str) -> frozenset[str]:
    """What a recorded value plainly is: a date; days of the week and a time of day (either
    or both: "Tuesdays before 10:00"); an amount of money; a number that counts nothing (a
    phone, an account); or a name (capitalised words without digits). Empty when it is
    none of these."""
    folded = words(value)
    if not folded:
        return frozenset()
    if _NUMERIC_DATE.search(value) or (any(w in MONTHS and len(w) > 3 for w in folded)
                                        and any(w.isdigit() for w in folded)):
        return frozenset({DATE})
    money = _CURRENCY.search(value) is not None
    days = WEEKDAYS - _EVERY if money else WEEKDAYS
    found = {DAYS} if any(w in days for w in folded) or _DAY_SPAN.search(value) else set()
    if _CLOCK.search(value):
        found.add(TIME)
    if found:  # "Fridays 4pm with Steve, £38 a lesson": when, and how much
        return frozenset(found | ({AMOUNT} if money else set()))
    if not money and _CODE.fullmatch(value.strip()) and sum(map(str.isdigit, value)) >= 9:
        return frozenset({CODE})
    if any(ch.isdigit() for ch in value):
        return frozenset({AMOUNT} if money else ())
    if any(w in MONTHS and len(w) > 3 for w in folded):
        return frozenset()  # "September", "early March": a time, though no date
    if len(folded) <= 6 and any(ch.isupper() for ch in value):  # "Allianz", "mBank"
        return frozenset({NAME})
    return frozenset()


def asked_kinds(folded: Sequence[str], who: bool, when: bool, amount: bool) -> frozenset[str]:
    """The kinds of value the question word asks for: "who" and "which company" a name,
    "when" a date or days, "how much" an amount, "which days" days, "what time" a time of
    day."""
    kinds = set()
    if who:
        kinds.add(NAME)
    if when:
        kinds |= {DATE, DAYS}
    if amount:
        kinds.add(AMOUNT)
    if _DAY_QUESTION.intersection(folded):
        kinds.add(DAYS)
    if any(a in _WHICH and b in FIRMS for a, b in itertools.pairwise(folded)):
        kinds.add(NAME)  # "WHICH COMPANY sells us our power", "jaka firma"
    if any(_holds_phrase(folded, phrase) for phrase in _TIME_QUESTIONS):
        kinds.add(TIME)
    return frozenset(kinds)


def says_days(word: str) -> bool:
    """Whether a folded word is "days" in one of the languages ("which DAYS", "w jakie DNI")."""
    return word in _DAY_QUESTION


def asks_days_or_time(folded: Sequence[str]) -> bool:
    """Whether the question word itself asks for days or a time of day ("WHICH DAYS does
    the dairy deliver", "what time", "o której", a terse "lesson time?"), not a word such
    as "day rate"."""
    pairs = itertools.pairwise(folded)
    return any(a in _WHICH and b in _DAY_QUESTION for a, b in pairs) or any(
        _holds_phrase(folded, phrase) for phrase in _TIME_QUESTIONS) or (
        len(folded) > 1 and folded[-1] in _TIME_LAST  # "Ola's lesson TIME?", not "how has
        and folded[-2] not in _NOT_OF_A_CLOCK)  # the rent changed OVER TIME"


_TIME_LAST = frozenset(words_of("time times godzina hodina"))
_NOT_OF_A_CLOCK = frozenset(words_of("""over this that same any some first last every each
next the a in at on for long whole all"""))


_WHICH = frozenset(words_of("""what which jakie jakich ktore ktorych jake ake ktere jaka
ktora aka jaka"""))
FIRMS = frozenset(words_of("""company companies firm firms firma firmy firme spolocnost
spolecnost spolocnosti spolecnosti provider operator"""))

def _holds_phrase(folded: Sequence[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(folded[i:i + size]) == phrase for i in range(len(folded) - size + 1))


def the_one_of_kind(values: Mapping[_Key, Sequence[str]], kinds: frozenset[str],
                    ) -> tuple[_Key, str] | None:
    """The one key (of `values`: key → every value it held) whose every value is of an
    asked kind, with that kind; None when no key or several are."""
    fitting = []
    for key, held in values.items():
        common = frozenset(kinds).intersection(*(value_kinds(value) for value in held))
        if common:
            fitting.append((key, sorted(common)[0]))
    return fitting[0] if len(fitting) == 1 else None
