"""A couple asked of as one ("Emma and Liam's wedding", "Ola i Bartek"), recorded under one
of them or under both names, with no note: the name written with a capital letter finds
that subject (also in its cases: "Oli", "Bartka"), the other half is the value of its
partner key, "where" asks the venue of their wedding (never its date), and an engagement
is an event, not a fiancé."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-28T12:00:00Z"
WORLD = f"""\
world: wedding-clients
about: "A wedding photographer's clients"
now: "{NOW}"
notes:
  - category: entities
    name: tomek-wisniewski
    description: "Me: wedding photographer in Gdańsk since 2015"
    aliases: ["Tomek"]
events:
  - {{op: assert, scope: tomek, subject: emma_carter, relation: partner, object: "Liam O'Brien",
     valid_from: "2026-07-01", recorded_at: "2026-07-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: emma_carter, relation: wedding_date,
     object: "2027-05-22", valid_from: "2026-07-01", recorded_at: "2026-07-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: emma_carter, relation: venue,
     object: "Sofitel Grand Sopot", valid_from: "2026-07-01",
     recorded_at: "2026-07-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: emma_carter, relation: engagement_shoot,
     object: "2026-10-17", valid_from: "2026-07-01", recorded_at: "2026-07-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: ola_i_bartek, relation: data_slubu,
     object: "2027-06-12", valid_from: "2026-02-10", recorded_at: "2026-02-10T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: ola_i_bartek, relation: miejsce,
     object: "Dwór Oliwski", valid_from: "2026-02-10", recorded_at: "2026-02-10T10:00:00Z",
     source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "tomek", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Where's Emma and Liam's wedding?", ["emma_carter.venue=Sofitel Grand Sopot"]),
    ("Where's Emma's wedding?", ["emma_carter.venue=Sofitel Grand Sopot"]),
    ("Gdzie Ola i Bartek biorą ślub?", ["ola_i_bartek.miejsce=Dwór Oliwski"]),
    ("Kiedy wesele Oli i Bartka?", ["ola_i_bartek.data_slubu=2027-06-12"]),  # their cases
    ("Kiedy i gdzie ślub Oli i Bartka?", ["ola_i_bartek.data_slubu=2027-06-12",
                                          "ola_i_bartek.miejsce=Dwór Oliwski"]),
    ("When's Emma's engagement shoot?", ["emma_carter.engagement_shoot=2026-10-17"]),
    ("Who is Emma engaged to?", ["emma_carter.partner=Liam O'Brien"]),
])
def test_a_couple_is_asked_of_as_one(memory: Memory, question: str,
                                     expected: list[str]) -> None:
    assert answered_keys(memory, "tomek", question) == expected


@pytest.mark.parametrize("question", [
    "When's Ola and Bartek's engagement shoot?",  # Emma's shoot is no answer about them
    "Where did Emma buy the ring?",               # no event of hers: not the venue
    "What's Liam's phone?",                       # held only as a value: no keys of his
])
def test_what_the_couple_lacks_is_not_recorded(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "tomek", question) == []
