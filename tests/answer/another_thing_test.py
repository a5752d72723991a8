"""A question naming a thing after a preposition ("nájem ZA BYT") is not answered by a key
of another thing whose own word it never says (`salon_rent`) where the memory records the
question's thing apart (the flat, as `lucie.home_address`); the business's words ("the WORK
car") name the business's things, unless a thing of the business's holds the narrower word
("STK BUSU FIRMOWEGO" is not the family car's); a thing called by a name ("byt na
Zelené", `byt_zelena`) is not the one the question calls by another name another value
holds ("na ÚDOLNÍ": the home's address)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("another-thing", "A Brno hair salon and the family's flat", NOW,
                   world_facts("lucie", (
                       ("salon_rent", "amount", "19 500 Kč per month"),
                       ("lucie", "home_address", "Údolní 12, Brno"),
                       ("lucie", "phone", "+420 602 111 222"),
                       ("salon_car", "plate", "1BA 2345"),
                       ("car", "stk", "do 2027-09-01"),
                       ("bus_firmowy", "nr_rej", "2BB 7788"),
                       ("byt_zelena", "adresa", "Zelená 5, Brno"),
                       ("byt_zelena", "poplatek_druzstvu", "2 100 Kč"),
                   )) + world_event("lucie", "kids_haircut", "price", "250 Kč", "2025-01-01",
                                    "New prices from January: kids stays 250."))

world_repo, memory = world_fixtures(WORLD, "lucie", NOW)


@pytest.mark.parametrize("question", [
    "Kolik platíme nájem za byt?",             # the salon's rent; the flat recorded apart,
    # and a price whose quote says "kids STAYS 250" holds no flat ("stays AT" does)
    "Do kdy platí STK busu firmowego?",         # the family car's; the business's van is
    "Kolik platíme družstvu za byt na Údolní?",  # the flat on Zelená; Údolní is the home
])
def test_a_thing_recorded_apart_is_not_recorded(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "lucie", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("How much is the rent for the salon?", ["salon_rent.amount=19 500 Kč per month"]),
    ("What registration number is on the work car?", ["salon_car.plate=1BA 2345"]),
    ("Kolik platíme nájem za salon?", ["salon_rent.amount=19 500 Kč per month"]),
    ("Do kdy platí STK auta?", ["car.stk=do 2027-09-01"]),
    ("Jaké číslo rejestracyjne ma bus?", ["bus_firmowy.nr_rej=2BB 7788"]),
    ("Kolik platíme družstvu za byt na Zelené?", ["byt_zelena.poplatek_druzstvu=2 100 Kč"]),
])
def test_a_thing_said_otherwise_or_the_business_is_the_keys_own(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


def test_who_is_never_answered_by_an_address(memory: Memory) -> None:
    """"Kdo bydlí na Zelené?" asks for people: the flat's address is no answer."""
    assert answered_keys(memory, "lucie", "Kdo bydlí na Zelené?") == []
    assert answered_keys(memory, "lucie", "Jaká je adresa bytu na Zelené?") == [
        "byt_zelena.adresa=Zelená 5, Brno"]
