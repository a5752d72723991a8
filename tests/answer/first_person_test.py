"""A verb in the first person names the asker though no pronoun does ("Gdzie mieszkam?",
"Koľko platím?", "Kde pracujem?", "Ile zapłaciłem?") — a noun's instrumental ending in
"-em" does not ("Kto jest LEKARZEM rodzinnym Tomka?"). A question whose function words do
not say its language is Polish, Slovak or Czech by its spelling ("ZDROWEGO TALERZA")."""

from __future__ import annotations

import pytest

from memrepo.answer.concepts import shipped
from memrepo.answer.first_person import first_person_singular, in_slavic
from memrepo.core.stems import tokens


def _first_person(text: str) -> bool:
    pairs = tokens(text)
    return first_person_singular([r for r, _ in pairs], [f for _, f in pairs], shipped())


@pytest.mark.parametrize("text", ["Gdzie mieszkam?", "Koľko platím za nájom?",
                                  "Kde pracujem?", "Ile płacę za prąd?",
                                  "Kiedy mam urlop?", "Na co jestem uczulona?",
                                  "Kiedy idę do stomatologa?", "Kedy idem k zubárovi?"])
def test_a_verb_in_the_first_person_is_the_askers(text: str) -> None:
    assert _first_person(text)


@pytest.mark.parametrize("text", ["Kto jest lekarzem rodzinnym Tomka?",
                                  "Jak się nazywa pies z mężem Kasi?",
                                  "Kiedy pies ma szczepienie na wściekliznę?",
                                  "Kedy ide Ema k zubárovi?"])
def test_a_nouns_instrumental_is_no_first_person(text: str) -> None:
    assert not _first_person(text)


@pytest.mark.parametrize(("text", "slavic"), [
    ("Podaj telefon i maila do Zdrowego Talerza", True),
    ("numer rejstracyjny auta", True),
    ("kidy urodzny ma Kuba?", True),
    ("Where does Szymon live?", False),
    ("back door code", False),
    ("the window show", False),
    ("pizza order", False),
    ("godziny otwarcia we wrześniu 2026", True),  # Polish "we" (in) before a w-word
    ("what were we doing in 2025", False),
])
def test_the_language_when_no_function_word_says_it(text: str, slavic: bool) -> None:
    assert in_slavic([word for _, word in tokens(text)]) is slavic
