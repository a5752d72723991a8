"""A rate asked per one period is not a rate per another ("how much is the Omega PER HOUR"
is not `omega.price_per_day`, "ile za cały DZIEŃ" not `kayak.price_per_hour`), and what the
person adds after the question mark says why they ask, not what ("When's Zuzia's
birthday? need to order the TORT", "Oleh's number? the SHOWER in cabin 5 is leaking"): it
counts only where a key holds it. A word written in capitals is a name as spelled ("deski
SUP" is no "suv"), and a rating is no rate."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("rates", "A lakeside campsite renting boats and kayaks", NOW, "".join((
    world_event("kemping", "omega", "price_per_day", "230 zł", "2026-05-01"),
    world_event("kemping", "kajak", "price_per_day", "70 zł", "2026-05-01",
                "Kajak 70 zł za dzień, 20 zł za godzinę."),
    world_event("kemping", "kajak", "price_per_hour", "20 zł", "2026-05-01",
                "Kajak 70 zł za dzień, 20 zł za godzinę."),
    world_event("kemping", "zuzia", "birthday", "2005-06-11", "2005-06-11"),
    world_event("kemping", "oleh", "phone", "+48 732 118 504", "2024-04-01"),
    world_event("kemping", "oleh", "role", "handyman", "2024-04-01"),
    world_event("kemping", "camper_pitch", "price_per_night", "80 zł", "2026-05-01",
                "Camper 80 zł."),
    world_event("kemping", "booking_com", "commission", "15%", "2024-01-01",
                "Booking takes 15% commission."),
    world_event("kemping", "firma", "nip", "584-271-39-08", "2020-01-01"),
)))

world_repo, memory = world_fixtures(WORLD, "kemping", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("How much is the Omega per hour? guy wants it just for 2h", []),
    ("Omega hourly rate?", []),
    ("How much is the Omega per day?", ["omega.price_per_day=230 zł"]),
    ("Ile kosztuje kajak na cały dzień?", ["kajak.price_per_day=70 zł"]),
    ("How much is a kajak per hour?", ["kajak.price_per_hour=20 zł"]),
])
def test_a_rate_is_answered_only_per_the_period_asked(memory: Memory, question: str,
                                                      expected: list[str]) -> None:
    assert answered_keys(memory, "kemping", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("When's Zuzia's birthday? need to order the tort", ["zuzia.birthday=2005-06-11"]),
    ("What's Oleh's phone? the shower in cabin 5 is leaking",
     ["oleh.phone=+48 732 118 504"]),
])
def test_what_is_said_after_the_question_is_why_it_is_asked(memory: Memory, question: str,
                                                            expected: list[str]) -> None:
    assert answered_keys(memory, "kemping", question) == expected


@pytest.mark.parametrize("question", [
    "Ile kosztuje wypożyczenie deski SUP?",  # "SUP" as written: no "suv", no camper
    "What's our rating on Booking right now?",  # a rating is no rate: not the commission
])
def test_nothing_recorded_is_not_another_keys_value(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "kemping", question) == []


def test_capitals_are_respelled_only_by_letters_swapped(memory: Memory) -> None:
    """"NPI" typed for NIP is the tax number; "SUP" (above) is never "suv"."""
    assert answered_keys(memory, "kemping", "Jaki jest nasz NPI?") == [
        "firma.nip=584-271-39-08"]
