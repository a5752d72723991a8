"""A family title before a name is a title also of a subject no note calls a person
("DZIADEK Ryszard" of `ryszard_kruk`: a grandfather is one; "MAMA Teresa", as she is
called, unlike "mama Teresy", Teresa's mother), after "what's" too (its "'s"
is "is", not whose grandfather) — but not a word read in place of another ("Na czym GRAŁ
Filip", respelled "gran"), nor after a possessive ("Ryszard's grandma")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("titles", "A Masurian family and the pupils of its music lessons", NOW,
                   "".join((
    world_event("jablonscy", "ryszard_kruk", "phone", "+48 607 339 150", "2010-01-01"),
    world_event("jablonscy", "ryszard_kruk", "birthday", "1946-11-19", "1946-11-19"),
    world_event("jablonscy", "teresa_kruk", "phone", "+48 607 339 151", "2010-01-01"),
    world_event("jablonscy", "filip_dabrowski", "instrument", "gitara klasyczna",
                "2024-09-01"),
    world_event("jablonscy", "filip_dabrowski", "city", "Warszawa", "2024-09-01"),
    world_event("jablonscy", "hanna_kruk", "school", "SP w Rucianem-Nidzie, klasa 4a",
                "2026-09-01"),
    world_event("jablonscy", "hanna_kruk", "hobby", "horse riding", "2022-05-01"),
    world_event("jablonscy", "halina_kruk", "address", "ul. Warszawska 8, Pisz", "1979-06-01"),
    world_event("jablonscy", "halina_kruk", "address", "Wygryny 41", "2026-04-12"),
    world_event("jablonscy", "halina_kruk", "phone", "+48 87 423 55 71", "1990-01-01"),
    world_event("jablonscy", "halina_kruk", "phone", "+48 664 203 118", "2020-03-01"),
)))

world_repo, memory = world_fixtures(WORLD, "jablonscy", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("What's dziadek Ryszard's phone?", ["ryszard_kruk.phone=+48 607 339 150"]),
    ("Dziadek Ryszard birthday", ["ryszard_kruk.birthday=1946-11-19"]),
    ("Jaki numer ma babcia Teresa?", ["teresa_kruk.phone=+48 607 339 151"]),
    ("What's mama Teresa's phone?", ["teresa_kruk.phone=+48 607 339 151"]),
])
def test_a_title_before_a_subjects_name_is_the_persons(memory: Memory, question: str,
                                                       expected: list[str]) -> None:
    assert answered_keys(memory, "jablonscy", question) == expected


def test_a_word_read_as_a_title_names_no_one_in_full(memory: Memory) -> None:
    """"grał" (played) read as "gran" is no title: Filip's city is no answer."""
    assert "filip_dabrowski.city=Warszawa" not in answered_keys(
        memory, "jablonscy", "Na czym grał Filip Dąbrowski?")


@pytest.mark.parametrize("question", ["Which grade is Hanna in now?",
                                      "What class is Hanna in?"])
def test_the_year_at_school_is_read_from_the_schools_value(memory: Memory,
                                                           question: str) -> None:
    """"klasa 4a" in `hanna_kruk.school`: the one key of hers holding a word of the
    concept asked (a class at school), where no relation of hers is one."""
    assert answered_keys(memory, "jablonscy", question) == [
        "hanna_kruk.school=SP w Rucianem-Nidzie, klasa 4a"]


def test_a_word_of_change_that_names_what_changed_asks_only_that(memory: Memory) -> None:
    """"When did Halina MOVE": her addresses (with the day each began), not every value
    of hers that ever changed; her name alone still asks all of her."""
    moved = answered_keys(memory, "jablonscy", "When did babcia Halina move in with us?")
    assert moved and all(key.startswith("halina_kruk.address=") for key in moved), moved
    assert any(key.startswith("halina_kruk.phone=") for key in answered_keys(
        memory, "jablonscy", "Babcia Halina?"))
