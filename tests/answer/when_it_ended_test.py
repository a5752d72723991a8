"""When something was sold or an animal died, asked of a name the memory holds only as a
value ("when did FERDA die": `katerina.pet` = "Ferda", ended; "kiedy SPRZEDALIŚMY
Dukata": the stable's horse that ended) or of a thing whose sale was recorded ("when did I
sell the Passat": the day of `passat.sold_to`)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"


def _ended(scope: str, subject: str, relation: str, value: str, day: str, why: str) -> str:
    return (f"  - {{op: end, scope: {scope}, subject: {subject}, relation: {relation}, "
            f"object: \"{value}\", valid_to: \"{day}\", recorded_at: \"{day}T18:00:00Z\", "
            f"reason: \"{why}\", source: conversation}}\n")


WORLD = world_yaml("ended", "A family with pets and horses", NOW, "".join((
    world_event("katerina", "katerina", "pet", "Ferda", "2020-04-01"),
    world_event("katerina", "katerina", "pet", "Bára", "2019-06-01"),
    _ended("katerina", "katerina", "pet", "Ferda", "2026-03-10", "Ferda the rabbit died"),
    world_event("agnieszka", "stable", "horse", "Iskra", "2014-05-01"),
    world_event("agnieszka", "stable", "horse", "Dukat", "2016-04-01"),
    _ended("agnieszka", "stable", "horse", "Dukat", "2025-10-10", "Dukat sold"),
    world_event("marek", "passat", "registration", "NPI 90512", "2014-05-10"),
    world_event("marek", "passat", "sold_to", "Jerzy Pawlak (Orzysz)", "2025-06-20",
                "Sprzedałem wczoraj Passata panu Jerzemu Pawlakowi z Orzysza."),
))).replace("notes: []\n", "many_valued: [pet, horse]\nnotes: []\n")

world_repo, memory = world_fixtures(WORLD, "katerina", NOW)


@pytest.mark.parametrize(("scope", "question", "key", "ended"), [
    ("katerina", "When did Ferda die?", "katerina.pet=Ferda", "2026-03-10"),
    ("agnieszka", "Kiedy sprzedaliśmy Dukata?", "stable.horse=Dukat", "2025-10-10"),
])
def test_a_value_that_ended_answers_when_it_ended(memory: Memory, scope: str, question: str,
                                                   key: str, ended: str) -> None:
    [fact] = memory.recall(scope, question).facts
    assert (f"{fact.subject}.{fact.relation}={fact.object}", fact.valid_to) == (key, ended)


def test_a_sale_asked_when_is_the_day_it_was_sold(memory: Memory) -> None:
    [fact] = memory.recall("marek", "When did I sell the Passat?").facts
    assert (fact.relation, fact.valid_from) == ("sold_to", "2025-06-20")
