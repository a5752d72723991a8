"""A note about a group ("pets", "family-cars") whose aliases are the names of recorded
subjects ("Bára", "Mikeš"; "Octavia", "Fabia") is each one's note: the cat's vet is not the
dog's, the Fabia's inspection is not the Octavia's. A person's note with two names that are
both recorded subjects ("Katka", "Katarína") stays one person."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("groups", "A Brno household with two pets and two cars", NOW, "".join((
    world_event("dvorakovi", "bara", "plemeno", "bígl", "2019-06-01"),
    world_event("dvorakovi", "bara", "veterinar", "MVDr. Hana Pokorná", "2019-06-01"),
    world_event("dvorakovi", "bara", "vaha", "16,2 kg", "2026-08-20"),
    world_event("dvorakovi", "mikes", "plemeno", "britská krátkosrstá", "2021-10-01"),
    world_event("dvorakovi", "octavia", "spz", "6B2 4817", "2020-03-15"),
    world_event("dvorakovi", "octavia", "stk_do", "2027-03-14", "2025-03-14"),
    world_event("dvorakovi", "fabia", "spz", "8BK 1290", "2025-06-10"),
    world_event("dvorakovi", "katka", "phone", "+420 604 111 222", "2024-01-01"),
    world_event("dvorakovi", "katarina", "email", "katka@example.cz", "2024-01-01"),
    world_event("dvorakovi", "marta_hudakova", "phone", "+421 905 123 456", "2020-01-01"),
    world_event("dvorakovi", "peter_hudak", "job", "inžinier v Slovnafte", "2015-01-01"),
))).replace("notes: []", """notes:
  - {category: entities, name: marta-i-peter-hudak,
     aliases: ["Marta Hudáková", "Peter Hudák", "szwagier"],
     description: "Petr's sister and her husband, in Bratislava with their daughter Lucka"}
  - {category: entities, name: pets, aliases: ["Bára", "Mikeš", "pes", "the cat"],
     description: "Our pets: Bára the beagle and Mikeš the British shorthair cat"}
  - {category: entities, name: family-cars, aliases: ["Octavia", "Fabia", "auta"],
     description: "The family's cars: a Škoda Octavia and the studio's Fabia"}
  - {category: entities, name: katarina-hudakova, aliases: ["Katarína", "Katka"],
     description: "The studio's receptionist, works mornings from Monday to Thursday"}""")

world_repo, memory = world_fixtures(WORLD, "dvorakovi", NOW)


@pytest.mark.parametrize("question", [
    "Who is Mikeš's vet?", "Kolik váží Mikeš?", "Do kdy má Fabia STK?",
    "Jaký telefon má Peter?",  # a couple's note: Marta's phone is not his
    "Jaki telefon ma szwagier?",  # the brother-in-law is Peter, of whom no phone is known
])
def test_one_of_a_group_is_never_answered_with_anothers_value(memory: Memory,
                                                               question: str) -> None:
    assert answered_keys(memory, "dvorakovi", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("What breed is Mikeš?", ["mikes.plemeno=britská krátkosrstá"]),
    ("What's the number plate on the Fabia?", ["fabia.spz=8BK 1290"]),
    ("Kdo je Bářin veterinář?", ["bara.veterinar=MVDr. Hana Pokorná"]),
    ("Kde pracuje Peter?", ["peter_hudak.job=inžinier v Slovnafte"]),
    ("Gdzie pracuje szwagier?", ["peter_hudak.job=inžinier v Slovnafte"]),
    ("Jaký telefon má Marta?", ["marta_hudakova.phone=+421 905 123 456"]),
])
def test_each_of_a_group_answers_from_its_own_keys(memory: Memory, question: str,
                                                     expected: list[str]) -> None:
    assert answered_keys(memory, "dvorakovi", question) == expected


def test_a_persons_two_names_stay_one_person(memory: Memory) -> None:
    assert answered_keys(memory, "dvorakovi", "What's Katka's email?") == [
        "katarina.email=katka@example.cz"]
