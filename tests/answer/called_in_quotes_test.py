"""The names a family calls its people by in what it said: "Hania – 30 kwietnia 2016."
recorded under `hanna_nowak.birthday` makes "Hania" Hanna's name, though no key or note
spells it — and only where the name opens her quotes and begins as her name does. A name
two subjects' quotes open with, a word a quote merely holds, and a name that begins
otherwise name nobody."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from memrepo.answer.called_in_quotes import called_in_quotes
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("nicknames", "A Masurian family of four and their dog", NOW, "".join((
    world_event("nowakowie", "hanna_nowak", "birthday", "2016-04-30", "2016-04-30",
                "Hania – 30 kwietnia 2016."),
    world_event("nowakowie", "hanna_nowak", "allergy", "nuts", "2018-01-01",
                "Hania – alergia na orzechy, EpiPen w plecaku."),
    world_event("nowakowie", "zuzanna_nowak", "phone", "+48 512 909 331", "2019-06-11",
                "Zuzia's phone 512 909 331."),
    world_event("nowakowie", "grot", "vet", "Marta Zawadzka", "2020-01-01",
                "Bartek says the vet for Grot is Marta Zawadzka."),
    world_event("nowakowie", "barbara_nowak", "phone", "+48 600 100 200", "2015-01-01",
                "Basia has a new phone: 600 100 200."),
    world_event("nowakowie", "piotr_nowak", "phone", "+48 600 300 400", "2015-01-01",
                "Piotrek 600 300 400, Paulina 600 300 401."),
    world_event("nowakowie", "paulina_nowak", "phone", "+48 600 300 401", "2015-01-01",
                "Piotrek 600 300 400, Paulina 600 300 401."),
    world_event("nowakowie", "ryszard_kruk", "birthday", "1946-11-19", "1946-11-19",
                "Tata – 19 listopada 1946."),
    world_event("nowakowie", "ryszard_kruk", "hobby", "beekeeping", "1995-01-01",
                "Dad's big thing is beekeeping."),
    world_event("nowakowie", "ryszard_kruk", "phone", "+48 607 339 150", "2010-01-01",
                "Tata 607 339 150, mama 607 339 151."),
    world_event("nowakowie", "teresa_kruk", "phone", "+48 607 339 151", "2010-01-01",
                "Tata 607 339 150, mama 607 339 151."),
    world_event("nowakowie", "jan_hydraulik", "phone", "+48 500 600 700", "2020-01-01",
                "Mama says the plumber is Jan, 500 600 700."),
)))

world_repo, memory = world_fixtures(WORLD, "nowakowie", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Kiedy Hania ma urodziny?", ["hanna_nowak.birthday=2016-04-30"]),
    ("Na co Hania ma alergię?", ["hanna_nowak.allergy=nuts"]),
    ("Zuzi phone number?", ["zuzanna_nowak.phone=+48 512 909 331"]),  # inflected
    ("Jaki numer ma Zuzia?", ["zuzanna_nowak.phone=+48 512 909 331"]),
    ("What's Piotrek's phone?", ["piotr_nowak.phone=+48 600 300 400"]),
])
def test_a_name_her_quotes_open_with_is_hers(memory: Memory, question: str,
                                            expected: list[str]) -> None:
    assert answered_keys(memory, "nowakowie", question) == expected


@pytest.mark.parametrize("question", [
    "What's Bartek's phone?",  # opens the dog's quote: not the dog's name
    "What's Basia's phone?",  # Barbara's quote, but "Basia" does not begin as "barbara"
])
def test_a_name_that_is_not_the_subjects_names_nobody(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "nowakowie", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("What's my dad's hobby? thinking about a present", ["ryszard_kruk.hobby=beekeeping"]),
    ("Kiedy tata ma urodziny?", ["ryszard_kruk.birthday=1946-11-19"]),
    ("What's mum's phone?", []),  # one quote of the mother's, one of the plumber's
])
def test_the_family_word_her_quotes_open_with_is_the_owners(memory: Memory, question: str,
                                                           expected: list[str]) -> None:
    """"Tata – 19 listopada 1946.", "Dad's big thing is …" under `ryszard_kruk`: the
    scope owner's father; a family word opening one quote of a subject says nothing."""
    assert answered_keys(memory, "nowakowie", question) == expected


def test_a_name_two_subjects_quotes_open_with_names_nobody() -> None:
    quoted = [("hanna_nowak", "hanna_nowak", "hania – 30 kwietnia 2016."),
              ("hanka_kral", "hanka_kral", "hania said her phone is 600 100 200")]
    assert called_in_quotes(["hania"], quoted) == {}
    assert called_in_quotes(["hania"], quoted[:1]) == {"hanna_nowak": {"hania"}}
    assert called_in_quotes(["hani"], quoted[:1]) == {"hanna_nowak": {"hania"}}  # inflected
    assert called_in_quotes(["hanka"], quoted[:1]) == {}  # a word no quote opens with
