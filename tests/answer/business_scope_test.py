"""A business's own memory asked in everyday words (memrepo.answer.identities, candidates,
reading, scoring, concepts): in the scope of a workshop, a role a note gives its owner
("Antek's apprentice") is the workshop's (`apprentice.school` is Kuba's); "who works at
the workshop" asks the staff, not whoever has a `leasing_company`; a pet's food; "the
van's MOT" of a scope that records a `van` is not the car's; a trade by its word (the
glazier); "going out with" a girlfriend; a head noun beside a name ("číslo na Kubu",
"Kuba adress") asks its kind."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-10-15T12:00:00Z"
WORLD = f"""\
world: business-scope
about: "A joinery workshop in the mountains and the family that owns it"
now: "{NOW}"
many_valued: [employee]
notes:
  - category: entities
    name: antek-gal
    description: "Owner of Stolarnia Gal: master joiner, builds stairs and kitchens"
    aliases: ["Antek", "Antoni Gal"]
  - category: entities
    name: kuba-wolny
    description: "Antek's apprentice: Kuba Wolny, 17, from the vocational school"
    aliases: ["Kuba", "Kuba Wolny", "apprentice"]
  - category: entities
    name: filemon
    description: "The workshop cat, a ginger tom who sleeps on the sawdust"
    aliases: ["Filemon", "kot", "cat"]
events:
  - {{op: assert, scope: stolarnia, subject: apprentice, relation: school,
     object: "Branżowa Szkoła nr 1", valid_from: "2025-09-01",
     recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: stolarnia, relation: employee, object: "Kuba Wolny",
     valid_from: "2025-09-01", recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: stolarnia, relation: employee, object: "Marek Hajduk",
     valid_from: "2019-01-01", recorded_at: "2019-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: cnc_machine, relation: leasing_company,
     object: "mLeasing", valid_from: "2024-03-01", recorded_at: "2024-03-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: stolarnia, subject: kot, relation: karma, object: "Whiskas Senior",
     valid_from: "2024-03-01", recorded_at: "2024-03-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: van, relation: registration, object: "KNT 1234A",
     valid_from: "2021-03-01", recorded_at: "2021-03-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: car, relation: mot_due, object: "14 March 2027",
     valid_from: "2026-03-14", recorded_at: "2026-03-14T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: szklarz, relation: telefon, object: "18 207 00 11",
     valid_from: "2022-01-01", recorded_at: "2022-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: kuba_wolny, relation: girlfriend, object: "Ola",
     valid_from: "2026-05-01", recorded_at: "2026-05-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: kuba_wolny, relation: telefon, object: "600 100 200",
     valid_from: "2025-09-01", recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: stolarnia, subject: kuba_wolny, relation: adres,
     object: "ul. Krótka 3, Nowy Targ", valid_from: "2025-09-01",
     recorded_at: "2025-09-01T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "stolarnia", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    # the owner's apprentice is the workshop's: `apprentice` is Kuba
    ("Do jakiej szkoły chodzi Kuba?", ["apprentice.school=Branżowa Szkoła nr 1"]),
    # "who works": the staff, not the lessor's company
    ("Who works at the workshop now?",
     ["stolarnia.employee=Marek Hajduk", "stolarnia.employee=Kuba Wolny"]),
    ("Kto u nas teraz pracuje?",
     ["stolarnia.employee=Marek Hajduk", "stolarnia.employee=Kuba Wolny"]),
    # a pet's food, asked as food
    ("What food does Filemon eat?", ["kot.karma=Whiskas Senior"]),
    ("What do we feed the cat?", ["kot.karma=Whiskas Senior"]),
    ("What's the glazier's phone number?", ["szklarz.telefon=18 207 00 11"]),
    ("Who is Kuba going out with?", ["kuba_wolny.girlfriend=Ola"]),
    # a head noun beside whom it names asks its kind, not everything about them
    ("Jaké je teď číslo na Kubu?", ["kuba_wolny.telefon=600 100 200"]),
    ("kuba wolny adress", ["kuba_wolny.adres=ul. Krótka 3, Nowy Targ"]),
])
def test_a_business_asked_in_everyday_words(memory: Memory, question: str,
                                            expected: list[str]) -> None:
    assert answered_keys(memory, "stolarnia", question) == expected


def test_the_vans_mot_is_not_the_cars(memory: Memory) -> None:
    assert answered_keys(memory, "stolarnia", "When's the van's MOT due?") == []
    assert answered_keys(memory, "stolarnia", "When's the car's MOT due?") == [
        "car.mot_due=14 March 2027"]
