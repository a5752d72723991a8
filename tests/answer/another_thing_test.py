"""A question naming a thing after a preposition ("nájem ZA BYT") is not answered by a key
of another thing whose own word it never says (`salon_rent`) where the memory records the
question's thing apart (the flat, as `lucie.home_address`); the business's words ("the WORK
car") name the business's things."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures

NOW = "2026-11-25T12:00:00Z"

WORLD = f"""\
world: another-thing
about: "A Brno hair salon and the family's flat"
now: "{NOW}"
notes: []
events:
""" + world_facts("lucie", (
    ("salon_rent", "amount", "19 500 Kč per month"),
    ("lucie", "home_address", "Údolní 12, Brno"),
    ("lucie", "phone", "+420 602 111 222"),
    ("salon_car", "plate", "1BA 2345"),
)) + "questions: []\n"

world_repo, memory = world_fixtures(WORLD, "lucie", NOW)


def test_the_rent_for_a_thing_recorded_apart_is_not_recorded(memory: Memory) -> None:
    assert answered_keys(memory, "lucie", "Kolik platíme nájem za byt?") == []


@pytest.mark.parametrize(("question", "expected"), [
    ("How much is the rent for the salon?", ["salon_rent.amount=19 500 Kč per month"]),
    ("What registration number is on the work car?", ["salon_car.plate=1BA 2345"]),
    ("Kolik platíme nájem za salon?", ["salon_rent.amount=19 500 Kč per month"]),
])
def test_a_thing_said_otherwise_or_the_business_is_the_keys_own(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected
