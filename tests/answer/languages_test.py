"""Languages are words of the concept table in English, Polish, Slovak and Czech: "the English
course" and "kurs angielskiego" are `kurz_anglictina_b1`; one language asked, a key of
another is no answer ("the POLISH course" is not the English course's price, "the English
teacher" not the German teacher); the word after "besides" is what the answer leaves out
("What languages do I speak besides Czech?")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("languages", "A Nitra language school", NOW, world_facts("tomas", (
    ("kurz_anglictina_b1", "cena_za_semester", "219 €"),
    ("lingvo_nitra", "german_teacher", "Lucia Šimková"),
    ("tomas", "cizi_jazyk", "němčina, angličtina"),
    ("tomas", "email", "tomas@lingvonitra.sk"),
)))

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("How much is the English course B1?", ["kurz_anglictina_b1.cena_za_semester=219 €"]),
    ("Ile kosztuje kurs angielskiego B1?", ["kurz_anglictina_b1.cena_za_semester=219 €"]),
    ("How much is the Polish course?", []),
    ("Koľko stojí kurz poľštiny?", []),
    ("Who is the German teacher?", ["lingvo_nitra.german_teacher=Lucia Šimková"]),
    ("Who is the English teacher?", []),
])
def test_a_language_is_one_word_in_every_language(memory: Memory, question: str,
                                                  expected: list[str]) -> None:
    assert answered_keys(memory, "tomas", question) == expected


def test_the_language_after_besides_is_left_out(memory: Memory) -> None:
    assert answered_keys(memory, "tomas", "What languages do I speak besides Czech?") == [
        "tomas.cizi_jazyk=němčina, angličtina"]


@pytest.mark.parametrize("question", ["Aké mám e-mailové adresy?", "Jaké mám e-mailové adresy?"])
def test_plural_addresses_of_a_kind(memory: Memory, question: str) -> None:
    """"e-mailové ADRESY" are e-mail addresses, not where someone lives."""
    assert answered_keys(memory, "tomas", question) == ["tomas.email=tomas@lingvonitra.sk"]
