"""Base forms both the indexer and the question analysis use (memrepo.core.stems)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core import stems
from memrepo.core.stems import (
    ANALYSIS,
    NUMBER_WORD,
    _stemmers,
    base_forms,
    extra_forms,
    stem_column,
    stem_words,
)


@pytest.mark.parametrize(("asked", "stored"), [
    ("płaciliśmy", "płaciłem"),      # Polish "we paid" / "I paid"
    ("zapłaciliście", "zapłaciłem"),  # "you (plural) paid"
    ("płaciłeś", "płaciła"),          # "you paid" / "she paid"
    ("mieszkaliśmy", "mieszkałem"),   # "we lived" / "I lived"
    ("bývali", "bývam"),              # Slovak
    ("czynszu", "czynsz"),
    ("Beacie", "Beata"),              # the Polish dative of a name in -ta
    ("Wandzie", "Wanda"),             # … and in -da
])
def test_the_persons_of_a_verb_and_its_cases_share_a_base_form(asked: str, stored: str) -> None:
    assert set(base_forms(asked)[1:]) & set(base_forms(stored))


def test_the_analysis_fingerprint_is_the_same_in_every_process() -> None:
    # part of the cache's schema fingerprint: a set's order must never leak into it
    assert ANALYSIS.split()[3:] == sorted(ANALYSIS.split()[3:])


@pytest.mark.parametrize("number", ["0", "7", "42", "007", "2026", "123456789",
                                    "18446744073709551615"])
def test_a_number_has_no_other_base_form_than_itself(number: str) -> None:
    """`extra_forms` skips the stemmers for a number: what they give for one."""
    assert extra_forms(number) == ()
    assert base_forms.__wrapped__(number) == (number,)
    assert all(stemmer.stemWord(number) == number for stemmer in _stemmers())


@pytest.mark.parametrize("words", [["hand", "5"], ["płaciłem", "za", "prąd", "2026"],
                                   ["-checkup", "check", "up"], ["99"], []])
def test_a_few_words_are_stemmed_as_when_counted_first(
        words: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`stem_words` joins a short text's words without counting them: the same column."""
    few = stem_words(words)
    monkeypatch.setattr(stems, "_FEW_WORDS", 0)
    assert few == stem_words(words)
    assert stem_words(["99", "99"]) == ""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["hand", "5", "17", "007", "-", "_", " ", "x9", "9x", "é",
                                 "e\u0301", "\u0661", "Ł", "re", "check", "up", "covid",
                                 "\n", ".", "2026", "٣", "²"]), max_size=8).map("".join))
def test_a_number_word_stands_for_every_number_in_base_forms(text: str) -> None:
    """`NUMBER_WORD`: the base forms of a text are those of the text
    with each word of ASCII digits written as 0 (a cache of them serves many values)."""
    assert stem_column(NUMBER_WORD.sub("0", text)) == stem_column(text)
