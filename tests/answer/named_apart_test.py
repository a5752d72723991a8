"""A person the question names is asked about, never found in another person's sentence: a
full name written with capitals ("Odkiaľ je Lucia Šimková?") names her even in a short
question, and her name in the sentence Peter's move was recorded from is no reason to answer
with his city; a Slovak or Czech possessive of a name ("ZUZKIN ortodontista", "MATEJOV
krúžok") names that person, so another child's orthodontist is no answer."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("named-apart", "A Nitra language school and its family", NOW, world_facts(
    "tomas", (
        ("lucia_simkova", "telefon", "+421 907 118 452"),
        ("matej", "ortodontista", "MUDr. Karol Benko"),
        ("zuzka", "kruzok", "šach"),
        ("zuzka", "skola", "ZŠ Tulipánová"),
    )) + world_event("tomas", "peter_balaz", "mesto", "Viedeň", "2026-02-01",
                     "Peter odchádza do Viedne, od februára preberá nemčinu Lucia Šimková."))

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Odkiaľ je Lucia Šimková?", []),
    ("Kde býva Lucia Šimková?", []),
    ("Aký telefón má Lucia Šimková?", ["lucia_simkova.telefon=+421 907 118 452"]),
    ("V akom meste žije Peter Baláž?", ["peter_balaz.mesto=Viedeň"]),
    ("Kto je Zuzkin ortodontista?", []),
    ("Kto je Matejov ortodontista?", ["matej.ortodontista=MUDr. Karol Benko"]),
    ("Aký je Zuzkin krúžok?", ["zuzka.kruzok=šach"]),
])
def test_the_person_named_is_the_one_asked_about(memory: Memory, question: str,
                                                 expected: list[str]) -> None:
    assert answered_keys(memory, "tomas", question) == expected
