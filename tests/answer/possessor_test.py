"""A relative of someone the memory holds no note of: "where does PIOTR's wife work?" when
only Piotr's employer is recorded is nobody recorded — never Piotr's own value nor the
asker's spouse; "what's KASIA's son called?" is `kasia.son`; a subject of someone's relative
(`kasia_husband`) is not Kasia herself ("syn KASI" is not her husband's son)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: possessor
about: "A Gdańsk teacher's memory of her friends and their families"
now: "{NOW}"
many_valued: [son]
notes:
  - category: entities
    name: lenka-hruba
    description: "Ewa's friend from school"
    aliases: ["Lenka"]
events:
""" + world_facts("ewa", (
    ("piotr", "employer", "Fabryka Mebli Kowal"),
    ("marta", "city", "Gdańsk"),
    ("ewa", "employer", "Szkoła nr 5"),
    ("tomek", "phone", "601 222 333"),
    ("kasia", "son", "Kuba"),
    ("kasia", "husband", "Tomasz Wrona"),
    ("kasia_husband", "employer", "PKP"),
    ("lenka", "mother", "Ludmila"),
    ("zbyszek", "wife", "Agata"),
)) + "questions: []\n"

world_repo, memory = world_fixtures(WORLD, "ewa", NOW)


@pytest.mark.parametrize("question", [
    "where does Piotr's wife work?",
    "gdzie pracuje żona Piotra?",
    "where does Marta's husband live?",
    "gdzie mieszka mąż Marty",
    "what's Tomek's wife's phone?",
    "Tomek's son's phone number",
    "where does my husband work?",
    "where does Lenka's mother live?",
])
def test_a_relative_nobody_recorded_is_not_their_relatives_value(memory: Memory,
                                                                question: str) -> None:
    assert answered_keys(memory, "ewa", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("where does Piotr work?", ["piotr.employer=Fabryka Mebli Kowal"]),
    ("what's Kasia's son called?", ["kasia.son=Kuba"]),
    ("jak ma na imię syn Kasi?", ["kasia.son=Kuba"]),
    ("who is Kasia's husband?", ["kasia.husband=Tomasz Wrona"]),
    ("kto jest mężem Kasi", ["kasia.husband=Tomasz Wrona"]),
    ("where does Kasia's husband work?", ["kasia_husband.employer=PKP"]),
    ("gdzie pracuje mąż Kasi", ["kasia_husband.employer=PKP"]),
    ("what's Zbyszek's wife called", ["zbyszek.wife=Agata"]),
    ("Lenka's mother's name?", ["lenka.mother=Ludmila"]),
])
def test_a_relative_recorded_under_its_owner_answers(memory: Memory, question: str,
                                                     expected: list[str]) -> None:
    assert answered_keys(memory, "ewa", question) == expected


def test_a_daughter_is_no_son(memory: Memory) -> None:
    """Both are Kasia's children, but "Kasia's DAUGHTER" asks no `son`; "her KIDS" do."""
    assert answered_keys(memory, "ewa", "who is Kasia's daughter?") == []
    assert answered_keys(memory, "ewa", "Kasia's kids?") == ["kasia.son=Kuba"]
