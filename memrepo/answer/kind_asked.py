"""Keys whose values are of a kind the question never asks for (SPEC §7): "who" is no
amount or date, "where" neither, "when" no amount or name, "how much" no name, date or
day; a date moved is no amount; a key holding only dates answers no question that asks no
time when another key answers alike. Used by `memrepo.answer.keys` on the keys that
answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from memrepo.answer.answer_kinds import (
    AMOUNT,
    CODE,
    DATE,
    DAYS,
    NAME,
    TIME,
    asks_days_or_time,
    leads_with_name,
    names_money,
    names_someone,
    value_kinds,
)
from memrepo.answer.dates import MONTHS
from memrepo.answer.identities import words
from memrepo.answer.periods import of_another_period, period_asked
from memrepo.answer.question import what_is_paid
from memrepo.answer.reading import AMOUNT as AMOUNT_WORDS
from memrepo.answer.reading import (
    AMOUNT_CUE,
    PASSIVE,
    WHEN_CUE,
    WHERE_CUE,
    WHO_CUE,
    Reading,
)
from memrepo.answer.scoring import AMOUNT_CONCEPTS, COVERAGE, KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import values_of_subjects
from memrepo.core.text import words_of


def not_of_another_kind(conn: Connection, scope: str, read: Reading,
                         scored: list[KeyMatch]) -> list[KeyMatch]:
    """`scored` without the keys `of_another_kind` names."""
    wrong = of_another_kind(conn, scope, read, scored)
    return [m for m in scored if (m.key.subject_key, m.key.relation_key) not in wrong]


def of_another_kind(conn: Connection, scope: str, read: Reading,
                    scored: Sequence[KeyMatch]) -> set[tuple[str, str]]:
    """The keys (subject, relation) among `scored` whose every value is of a kind the
    question word never asks for:
    "who" is no amount, date or day ("od koho máme pronajaté parkoviště": the landlord, not
    the rent; "kto zabiera igły": not "co drugi czwartek", unless it names someone — though
    "who do I call when it breaks" may be answered with a number),
    "where" no amount, date, day or time ("where's Emma's wedding": its venue, not its date;
    "gdzie przyjmuje": not the asker's office hours), "when" no
    amount or name ("kedy má Klára termín u zubára": not her orthodontist), "how much" no
    name, date or day ("how much goes to the bank for the sauna": the instalment, not the
    lender; "how much does Staś pay per lesson": not "sobota 10:00"; "how many" may count
    names; "ile płacimy za kredyt": not the day it ends), unless it asks an age ("ile lat
    ma Kuba")."""
    days_asked = WHEN_CUE in read.cues or asks_days_or_time(read.folded)
    never = (({AMOUNT, DATE} if WHO_CUE in read.cues or (
                WHERE_CUE in read.cues and WHEN_CUE not in read.cues)
              else set())
             | ({DAYS, TIME} if (WHO_CUE in read.cues or WHERE_CUE in read.cues)
                and not days_asked else set())
             | ({AMOUNT, NAME} if days_asked else set())
             | (({DATE} | ({NAME, DAYS, TIME} if _asks_how_much(read) else set()))
                if AMOUNT_CUE in read.cues and not _asks_age(read) else set()))
    if never and WHO_CUE not in read.cues:
        never |= {CODE}  # "a ile teraz (Przystań)": no phone number is how much, when, where
    if AMOUNT_CUE not in read.cues and _moves_a_time(read.folded):
        never |= {AMOUNT}  # "Ola's lesson got MOVED": its day, not its fee
    picked = _thing_picked(read)
    how_much = AMOUNT_CUE in read.cues and _asks_how_much(read) and not _asks_age(read)
    money = how_much and any(read.concepts.get(i, frozenset()) & AMOUNT_CONCEPTS
                             for i in read.salient)
    period = period_asked(read) if AMOUNT_CUE in read.cues else None
    percent = any(word.startswith(_PERCENT) for word in read.folded)
    if (not never and picked is None and not how_much and period is None
            and not percent) or not scored:
        return set()
    values = values_of_subjects(conn, scope, {m.key.subject_key for m in scored})
    def wrong(match: KeyMatch) -> bool:
        if days_asked and _begun_by_it(read, match):
            return False  # "when did we TIE THE KNOT": the day the spouse became one
        held = values.get((match.key.subject_key, match.key.relation_key), [])
        kinds = [value_kinds(value) for value in held]
        if WHO_CUE in read.cues and held and _an_address(match.key.relation_key, held):
            return True  # "kto teraz mieszka na Morskiej": its tenants, not its address
        if picked is not None and held and all(k == {AMOUNT} for k in kinds) and not (
                {f"#{picked}", f"~{picked}"} & match.by_relation) and not any(
                leads_with_name(value) for value in held):  # "CityFit, 129 zł a month"
            return True  # "JAKIM VANEM jeździmy": the van, not what the old one sold for;
            # "aká je ZÁLOHA" is its amount
        if period is not None and of_another_period(match.key.relation_key, period):
            return True  # "how much is the Omega PER HOUR": not `omega.price_per_day`
        if percent and held and not any(_a_percentage(value) for value in held):
            return True  # "jaki PROCENT od transakcji ma Dominik": not his contract's kind
        if how_much and held and not any(_says_an_amount(value, money) for value in held):
            return True  # "how much do we pay for the piano lessons": not "volejbal"; "how
            # much did I pay for the lens": not the lens "Sony FE 90mm f/2.8"
        if AMOUNT_CUE in read.cues and any(names_money(value) for value in held):
            return False  # "kolik platíme za leasing Kuboty": "ČSOB Leasing, 18 400 Kč
            # měsíčně do března 2030" says how much, though it holds a date
        return bool(kinds) and all(k and k <= never for k in kinds) and (
            NAME in never or not any(leads_with_name(value) or names_someone(value)
                                     for value in held))
    return {(m.key.subject_key, m.key.relation_key) for m in scored if wrong(m)}


_PERCENT = ("percent", "procent")
"""How a word asking for a percentage opens ("what PERCENTAGE", "jaki PROCENT", "koľko
PERCENT", "kolik PROCENT")."""


def _a_percentage(value: str) -> bool:
    return "%" in value or any(word.startswith(_PERCENT) for word in words(value))


def _begun_by_it(read: Reading, match: KeyMatch) -> bool:
    """Whether the key's relation matched a word naming the event that began it (getting
    married: `husband`; selling: `sold_to`), whose day is when the key came to hold."""
    return any(read.concepts.get(int(w[1:]), frozenset()) & _BEGINNINGS
               for w in match.by_relation if w[1:].isdigit())


_BEGINNINGS = frozenset(("marriage", "sale"))
"""Concepts of an event that makes a relation hold from its day on."""


def _says_an_amount(value: str, money: bool) -> bool:
    """Whether a value may say how much: a number ("3 months" of warning), or that none is
    paid; asked what is paid, money or a bare number — not a model's digits ("Sony FE 90mm
    f/2.8 Macro" is no price of the lens)."""
    if _NOTHING_PAID.intersection(words(value)):
        return True
    if money:
        return AMOUNT in value_kinds(value) or names_money(value) or (
            _BARE_NUMBER.fullmatch(value.strip()) is not None)
    return any(ch.isdigit() for ch in value)


_BARE_NUMBER = re.compile(r"[~≈]?\s*\d[\d\s.,]*")


_NOTHING_PAID = frozenset(words_of("""free gratis nothing none zero zdarma darmo bezplatne
bezplatnie bezplatny nic nula zadarmo"""))
"""Words of a value saying nothing is paid ("za darmo" by its "darmo": "za" alone is "for")."""


def _an_address(relation_key: str, held: Sequence[str]) -> bool:
    """Whether a key is an address ("ul. Morska 214/7"): a relation saying so, every value
    with a number — what no "who" asks for."""
    return bool(_ADDRESS.intersection(words(relation_key))) and all(
        any(ch.isdigit() for ch in value) for value in held)


_ADDRESS = frozenset(words_of("address adres adresa adresse addr"))


def _thing_picked(read: Reading) -> int | None:
    """The position of the word a question asks which one of ("WHICH VAN", "JAKIM
    VANEM"), said first in it, when it asks no amount ("how much", "ile")."""
    if AMOUNT_CUE in read.cues or AMOUNT_WORDS.intersection(read.folded):
        return None
    return next((i + 1 for i, word in enumerate(read.folded[:2])
                 if word in _WHICH and i + 1 in read.salient), None)


_WHICH = frozenset(words_of("""which jaki jakim jaka jaką jakie jakiego ktory ktora ktore
ktorym ktorego aky aka ake akym akeho jaky jake jakym jakeho"""))
"""Words asking which one of a kind, first in a question."""


def _asks_how_much(read: Reading) -> bool:
    """"how MUCH", "WHAT does it cost" — not "how many" or "ile", which may count names."""
    return "much" in read.folded or what_is_paid(read.folded)


def _moves_a_time(folded: Sequence[str]) -> bool:
    """Whether the question asks of a date or an appointment moved ("got MOVED", "was it
    MOVED", "PRZESUNIĘTY", "rescheduled") — not of people who moved house ("since we
    moved in")."""
    return any(w.startswith(_RESCHEDULED) or (w == "moved" and i and folded[i - 1] in (
        *PASSIVE, "it")) for i, w in enumerate(folded))


_RESCHEDULED = ("reschedul", "przesun", "przesuw", "przeloz", "presun", "preloz", "posun")
"""Stems of moving a date or an appointment: what moves is no amount."""


def no_date_unasked(conn: Connection, scope: str, read: Reading,
                     scored: list[KeyMatch]) -> list[KeyMatch]:
    """Of keys that answer alike, without those holding only dates when the question asks
    no time ("akú splátku úveru": the instalment, not the day of the final payment) —
    unless the question's words choose them ("grandma's cardiology APPOINTMENT")."""
    if len(scored) < 2 or WHEN_CUE in read.cues or read.asks_change or any(
            "date" in read.concepts.get(i, ()) for i in read.salient):
        return scored
    values = values_of_subjects(conn, scope, {m.key.subject_key for m in scored})
    dated = [m for m in scored if all(_only_a_date(v) for v in values.get(
        (m.key.subject_key, m.key.relation_key), [""]))]
    kept = [m for m in scored if m not in dated]
    best = max((m.coverage for m in kept), default=2.0)
    return [*kept, *(m for m in dated if m.coverage > best + 1e-9)] if kept else scored


def _only_a_date(value: str) -> bool:
    """"2029-05-15", "12 marca 2027, 16:00" — not "PZU, OC+AC, do 2027-03-31"."""
    return value_kinds(value) == {DATE} and all(
        w.isdigit() or w in MONTHS for w in words(value))


def _asks_age(read: Reading) -> bool:
    return any("birth" in read.concepts.get(i, ()) for i in read.salient)


def same_thing_of_the_kind(conn: Connection, scope: str, read: Reading,
                            wrong: Sequence[KeyMatch], matched: Sequence[KeyMatch],
                            ) -> list[KeyMatch]:
    """When every key that answers holds a kind of value the question word never asks
    for, the keys of the same subjects that hold enough of the question and whose values
    are of another kind: the word only that wrong key held ("bank" in `van_loan.lender`)
    was the thing's, not the relation's."""
    subjects = {m.key.subject_key for m in wrong}
    kept = [m for m in matched if m.key.subject_key in subjects and m not in wrong
            and m.coverage >= COVERAGE - 1e-9]
    return [replace(m, answers=True) for m in not_of_another_kind(conn, scope, read, kept)]


