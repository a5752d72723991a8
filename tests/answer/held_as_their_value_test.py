"""A person whose fact is recorded only as another subject's value: "Od kiedy Oleh u nas
pracuje?" when the firm's `employee` holds "Oleh Bondarenko" is answered by that key, with
the value naming him alone (not every employee's, nor a relative's of the same surname),
and for someone who has left, by the value that ended. A relation the firm's key is not
(his salary) stays not recorded."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

_ENDED = ("  - {op: end, scope: kemping, subject: kemping, relation: employee, "
          "object: \"Bartosz Wójcik\", valid_to: \"2026-07-19\", "
          "recorded_at: \"2026-07-20T09:00:00Z\", reason: \"Bartek quit\", "
          "source: conversation}\n")

_NOTES = """many_valued: [employee]
notes:
  - category: entities
    name: mruczek
    description: "Mruczek: our cat, taken in from the allotments"
    aliases: ["Mruczek"]
    body: |
      # Mruczek
      The cat.
"""

WORLD = world_yaml("staff", "A Masurian campsite and the people working there", NOW, "".join((
    world_event("kemping", "kemping", "employee", "Oleh Bondarenko", "2024-04-01",
                "Oleh Bondarenko – konserwator, with us since 1 April 2024."),
    world_event("kemping", "kemping", "employee", "Danuta Kaczmarek", "2023-05-01",
                "Pani Danuta cleans the cabins since May 2023."),
    world_event("kemping", "kemping", "employee", "Bartosz Wójcik", "2024-06-01",
                "Bartek Wójcik runs the kayak rental since June 2024."),
    world_event("kemping", "kemping", "employee", "Anna Wójcik", "2025-05-01",
                "Anna Wójcik, Bartek's cousin, at the shop since May 2025."),
    world_event("kemping", "oleh_bondarenko", "phone", "+48 732 118 504", "2024-04-01"),
    world_event("kemping", "peter_novak", "phone", "+421 905 333 444", "2020-01-01",
                "Peter, môj brat: 0905 333 444"),
    world_event("kemping", "kemping", "employee", "Marek Novák", "2021-02-01"),
    world_event("kemping", "bartosz_wojcik", "phone", "+48 693 550 128", "2024-06-01",
                "Bartek – 693 550 128."),
    world_event("kemping", "kemping", "wifi_network", "Sosnowa_Guest_5G", "2026-05-01"),
    world_event("kemping", "family", "pet", "Mruczek (kot)", "2024-08-10",
                "Przygarnęliśmy kota z działek, Mruczek."),
    world_event("kemping", "mruczek", "castration", "2024-11-20", "2024-11-20"),
))).replace("questions: []", _ENDED + "questions: []").replace("notes: []", _NOTES)

world_repo, memory = world_fixtures(WORLD, "kemping", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Od kiedy Oleh u nas pracuje?", ["kemping.employee=Oleh Bondarenko"]),
    ("Since when has Danuta Kaczmarek worked for us?", ["kemping.employee=Danuta Kaczmarek"]),
    ("Do kiedy Bartek u nas pracował?", ["kemping.employee=Bartosz Wójcik"]),  # ended; not
    # his cousin Anna Wójcik, who works here still
    ("Where does Oleh work?", ["kemping.employee=Oleh Bondarenko"]),  # the firm is his work
    ("Od kiedy mamy Mruczka?", ["family.pet=Mruczek (kot)"]),  # the name as asked
])
def test_the_value_naming_the_person_answers(memory: Memory, question: str,
                                             expected: list[str]) -> None:
    assert answered_keys(memory, "kemping", question) == expected


def test_the_ended_value_says_until_when(memory: Memory) -> None:
    fact, = memory.recall("kemping", "Until when did Bartek work for us?").facts
    assert (fact.object, fact.valid_to) == ("Bartosz Wójcik", "2026-07-19")


@pytest.mark.parametrize("question", [
    "What's Oleh's salary?",  # not the firm's employee key: no relation of it is asked
    "Ile zarabia Bartek?",
    "Na jakiej umowie jest zatrudniony Oleh?",  # the contract, a word the key is not
    "Where does Bartek work?",  # he left: not the firm he worked for
    "What's Danuta Nowak's job?",  # not Danuta Kaczmarek
    "Kiedy Mruczek ma szczepienie?",  # a vaccination: not when he came
    "Od kedy u nás robí Peter Novák?",  # not Marek Novák, whose surname he shares
])
def test_a_relation_the_key_is_not_stays_not_recorded(memory: Memory, question: str) -> None:
    assert memory.recall("kemping", question).status == "not_recorded"
