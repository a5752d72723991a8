"""Short misspellings and names as agents write subjects (memrepo.answer.relevance,
reading, respelling, identities): a misspelt opening question word in Polish, Slovak or
Czech ("Gdize"), a misspelt small word ("teh"), a misspelt word of the concept table in a
Slavic question ("sestar"), and a fact whose subject is the first name of an entity note
("katarina" of "Katarína Hudáková", alias "sestra")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-10-15T12:00:00Z"
WORLD = f"""\
world: typos-and-names
about: "Zuzana, her sister and her brother-in-law"
now: "{NOW}"
many_valued: []
notes:
  - category: entities
    name: katarina-hudakova
    description: "Zuzana's younger sister, an engineer living in Bratislava"
    aliases: ["Katarína Hudáková", "Kaťa", "sestra"]
  - category: entities
    name: michal-wrobel
    description: "Tomasz's brother Michał, a sailor in Gdańsk"
    aliases: ["Michał Wróbel", "Michał"]
events:
  - {{op: assert, scope: zuzana, subject: katarina, relation: zamestnavatel,
     object: "Slovnaft", valid_from: "2025-09-01", recorded_at: "2025-09-10T10:00:00Z",
     quote: "Kaťa robí v Slovnafte.", source: conversation, session: s1}}
  - {{op: assert, scope: zuzana, subject: michal, relation: miasto, object: "Gdańsk",
     valid_from: "2020-01-01", recorded_at: "2025-09-10T10:00:00Z",
     quote: "Michał mieszka w Gdańsku.", source: conversation, session: s1}}
  - {{op: assert, scope: zuzana, subject: michal, relation: phone, object: "+48 600 100 200",
     valid_from: "2020-01-01", recorded_at: "2025-09-10T10:00:00Z",
     quote: "Michał's number is 600 100 200.", source: conversation, session: s1}}
  - {{op: assert, scope: zuzana, subject: zuzana, relation: employer, object: "Wróbel OSK",
     valid_from: "2015-01-01", recorded_at: "2025-09-10T10:00:00Z",
     quote: "I work at our driving school.", source: conversation, session: s1}}
  - {{op: assert, scope: zuzana, subject: car, relation: registration, object: "PO 8M345",
     valid_from: "2025-03-15", recorded_at: "2025-09-10T10:00:00Z",
     quote: "Mamy Corollę, rejestracja PO 8M345.", source: conversation, session: s1}}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "zuzana", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Gdize mieszka Michał?", ["michal.miasto=Gdańsk"]),
    ("What's teh phone of Michał?", ["michal.phone=+48 600 100 200"]),
    ("Kde pracuje sestar?", ["katarina.zamestnavatel=Slovnaft"]),
    ("Kde robí sestra teraz?", ["katarina.zamestnavatel=Slovnaft"]),
    ("Where does Kaťa work?", ["katarina.zamestnavatel=Slovnaft"]),
    # no function word says Polish; a word only the table's Polish knows ("auta") does
    ("numer rejstracyjny auta", ["car.registration=PO 8M345"]),
])
def test_misspellings_and_first_names(memory: Memory, question: str,
                                      expected: list[str]) -> None:
    assert answered_keys(memory, "zuzana", question) == expected


def test_an_english_question_is_never_respelled_into_the_tables_other_languages(
        memory: Memory) -> None:
    assert memory.recall("zuzana", "Where does Kaťa wrok?").respelled.get("wrok") in (
        None, "work")
