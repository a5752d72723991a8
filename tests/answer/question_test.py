"""Questions as retrieval reads them: salient words, base forms, intent (core.question)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memrepo.answer import clauses, question
from memrepo.answer.question import analyse
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.core import stems
from memrepo.core.facts.times import parse_instant
from memrepo.core.stems import (
    _LIGHT_SUFFIXES,
    _MIN_STEM,
    _light_stem,
    base_forms,
    extra_forms,
    stem_column,
    stem_words,
    text_words,
)

NOW = parse_instant("2026-08-31T18:00:00Z")


def words_of(text: str) -> list[str]:
    return list(analyse(text, NOW).words)


def test_an_english_question_keeps_only_what_it_is_about() -> None:
    assert words_of("What is the minimum order at Lodz Packaging?") == [
        "minimum", "order", "lodz", "packaging"]
    assert words_of("How much do I pay for electricity?") == ["pay", "electricity"]


def test_content_words_that_generic_stop_lists_drop_are_kept() -> None:
    assert words_of("How much is my electricity bill?") == ["electricity", "bill"]
    assert words_of("What is my cat's name?") == ["cat", "name"]
    assert words_of("What did Sam research?") == ["sam", "research"]


def test_polish_and_slovak_questions_lose_their_function_words() -> None:
    assert words_of("Ile płacę za prąd w kwietniu?") == ["place", "prad"]
    assert words_of("Kde bývam?") == ["byvam"]
    assert words_of("Koľko som platila za nájom v januári?") == ["platila", "najom"]


def test_the_date_phrase_is_not_a_search_word_but_is_kept_aside() -> None:
    question = analyse("How much did I pay for electricity in April 2026?", NOW)
    assert question.words == ("pay", "electricity")
    assert [term.word for term in question.also_searched] == ["april", "2026"]
    assert question.valid is not None and question.valid.is_period


def test_a_question_of_stop_words_only_still_searches() -> None:
    assert words_of("Who is it?") == ["who", "is", "it"]


def test_inflected_forms_share_a_base_form() -> None:
    def meet(a: str, b: str) -> bool:
        return bool(set(base_forms(a)) & set(base_forms(b)))

    assert meet("czynszu", "czynsz")
    assert meet("płaciłem", "płacę")
    assert meet("prądu", "prąd")
    assert meet("bývala", "bývam")
    assert meet("platila", "platím")
    assert meet("mieszkałam", "mieszkam")
    assert meet("paid", "pays") or meet("paying", "pays")
    assert meet("agencies", "agency")
    assert not meet("dog", "cat")


def test_base_forms_are_folded_and_start_with_the_word_itself() -> None:
    forms = base_forms("Łodzi".lower())
    assert forms[0] == "lodzi"
    assert all(form.isascii() for form in forms)


def test_the_stem_column_holds_base_forms_other_than_the_word_as_often_as_it_occurs(
) -> None:
    column = stem_column("Płacę czynszu, czynszu! 1 900 zł").split()
    assert column.count("czynsz") == 2
    assert "czynszu" not in column and "900" not in column
    assert stem_column("") == ""


def test_the_stem_column_holds_a_hyphenated_compound_written_as_one_word() -> None:
    column = stem_column("A check-up, two check-ups; e-mail on 2026-03-04").split()
    assert column.count("checkup") == 2 and "email" in column
    assert "checkups" in column and not any(word.startswith("2026") for word in column)
    assert "resign" not in stem_column("I need to re-sign the lease").split()


def test_change_and_amount_intent() -> None:
    assert analyse("When did my rent change?", NOW).asks_change
    assert analyse("Kiedy zmienił się czynsz?", NOW).asks_change
    assert analyse("Kedy sa zmenila adresa?", NOW).asks_change
    assert not analyse("Where do I live?", NOW).asks_change
    assert analyse("How much rent do I pay?", NOW).asks_amount
    assert analyse("Koľko platím za nájom?", NOW).asks_amount
    assert analyse("What does a student pay for one more hour?", NOW).asks_amount
    assert analyse("What do I charge a lady for a cut now?", NOW).asks_amount
    assert not analyse("What day do we pay the rent?", NOW).asks_amount
    assert not analyse("Who do we pay for the cleaning?", NOW).asks_amount
    assert [t.amount for t in analyse("Ile kosztował prąd?", NOW).terms] == [True, False]


def test_stop_words_are_folded() -> None:
    assert all(word.isascii() and word == word.lower() for word in STOP_WORDS)


@given(st.text())
def test_any_text_is_analysed(text: str) -> None:
    question = analyse(text, NOW)
    assert all(term.word and term.bases and term.bases[0] == term.word
               for term in question.terms)


def test_names_are_the_salient_words_written_with_a_capital_after_the_first() -> None:
    assert analyse("What did Caroline and Melanie paint in May?", NOW).names == (
        "caroline", "melanie")
    assert analyse("Caroline paints what?", NOW).names == ()
    assert analyse("Co kupiła Ola w Łodzi?", NOW).names == ("ola", "lodzi")


def test_the_word_after_which_names_the_kind_of_the_answer() -> None:
    def kinds(text: str) -> list[str]:
        return [t.word for t in analyse(text, NOW).terms if t.kind]

    assert kinds("Which languages do I speak?") == ["languages"]
    assert kinds("Jakie języki znam?") == ["jezyki"]
    assert kinds("Aké jazyky ovládam?") == ["jazyky"]
    assert kinds("What colour is my car?") == []  # a property: the key's relation
    assert kinds("Which language does my wife speak?") == []  # says whose
    assert kinds("What is my dog's name?") == []
    assert kinds("Did the languages I speak change this year?") == ["languages"]
    assert kinds("Did the language of my wife change?") == []


@given(st.lists(st.text(alphabet=st.sampled_from(
    list("aZ łŁóÓ\u0301\u0308ΣσςΑ_-'1²\t\r \u00a0\u2028İ")), max_size=12), max_size=20))
def test_the_words_of_a_text_are_those_of_its_lines(lines: list[str]) -> None:
    """What the build relies on to find a long note's words once for the body and its
    passages: a text's base-form column from its stripped lines' words."""
    text = "\n".join(lines)
    kept = [line.strip() for line in lines if line.strip()]
    assert stem_words(word for line in kept for word in text_words(line)) == stem_column(text)


@given(st.text(alphabet="abcehijlmostuvwyz", max_size=12))
def test_the_light_stem_cuts_the_longest_ending_that_leaves_a_stem(word: str) -> None:
    literal = word  # the rule read literally: every ending, longest first
    if len(word) >= 4 and word.isalpha():
        for suffix in _LIGHT_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
                literal = word[:-len(suffix)]
                break
    assert _light_stem(word) == literal


def test_the_opening_word_is_marked() -> None:
    assert [t.opening for t in analyse("Wher do I live now?", NOW).terms] == [True, False]
    assert not any(t.opening for t in analyse("Do I live in Kraków?", NOW).terms)


@given(st.lists(st.sampled_from(["czynszu", "płacę", "900", "the", "rent", "łodzi", "ß",
                                 "paid", "ǆ", "x", "-checkups", "-email"]), max_size=30))
def test_the_stem_column_is_each_words_forms_as_often_as_it_occurs(words: list[str]) -> None:
    """stem_words read literally: each distinct word, in the order first seen, gives its
    forms other than itself (a marked compound: all its joined form's) once per
    occurrence."""
    literal: list[str] = []
    for word, count in Counter(words).items():
        forms = base_forms(word[1:]) if word.startswith("-") else extra_forms(word)
        literal.extend(forms * count)
    assert stem_words(words) == " ".join(literal)


def test_the_remembered_forms_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stems, "_EXTRA_WORDS", 2)
    monkeypatch.setattr(stems, "_EXTRA_TEXT", stems._ExtraText())
    first = stem_words(["czynszu", "płacę", "rent", "czynszu", "paid"])
    assert len(stems._EXTRA_TEXT) <= 2
    assert stem_words(["czynszu", "płacę", "rent", "czynszu", "paid"]) == first


@pytest.mark.parametrize(("text", "asked"), [
    ("What car do I drive and when is the oil change?",
     ["What car do I drive", "and when is the oil change?"]),
    ("What car do I drive? When is the oil change?",
     ["What car do I drive?", "When is the oil change?"]),
    ("Ile płacę czynszu i jak się nazywa mój kot?",
     ["Ile płacę czynszu", "i jak się nazywa mój kot?"]),
    ("Koľko platím za nájom a kedy prišla faktúra?",
     ["Koľko platím za nájom", "a kedy prišla faktúra?"]),
    ("Od koho máme elektřinu a od koho internet?",
     ["Od koho máme elektřinu", "a od koho internet?"]),
    ("Z kim mieszka Ola i komu płacimy czynsz?", ["Z kim mieszka Ola", "i komu płacimy czynsz?"]),
    ("Jarmilino číslo a dokedy jej mám doniesť doklady?",  # "until when" asks anew
     ["Jarmilino číslo", "a dokedy jej mám doniesť doklady?"]),
    ("What do Jon and Gina have in common?", None),  # "and" joins names, not questions
    ("What did Melanie paint and why?", None),  # no salient word of its own
    ("How much did I pay in April and who supplied it?",  # points back to no word: the
     ["How much did I pay in April", "and who supplied it?"]),  # answer's subject says
    ("Who did Evan meet in Canada, and who did he come back with?",  # … to a named one
     ["Who did Evan meet in Canada,", "and who did he come back with? (Evan Canada)"]),
    ("What car do I drive and when is its service?",  # … to the kind asked for
     ["What car do I drive", "and when is its service? (car)"]),
    ("Where does my dad live and what is his phone?",  # … to what "my" names
     ["Where does my dad live", "and what is his phone? (dad)"]),
    ("What was my rent in March 2026 and what is it now?",
     ["What was my rent in March 2026", "and what is it now? (rent)"]),
    ("When are my dentist appointment and grandma's cardiology appointment?",  # two
     ["When are my dentist appointment",  # people's things of their own
      "and grandma's cardiology appointment?"]),
    ("What is my phone and Anna's email?", ["What is my phone", "and Anna's email?"]),
    ("What are mum's and dad's phones?", None),  # one thing of two people
    ("Where's Emma and Liam's wedding?", None),  # where IS: one thing of a couple
    ("When and where is Lena's exam?",  # question words before one rest ask each of it
     ["When is Lena's exam?", "and where is Lena's exam?"]),
    ("Gdzie mamy ubezpieczone auto i do kiedy?",  # … and after it, of its time
     ["Gdzie mamy ubezpieczone auto", "i do kiedy mamy ubezpieczone auto?"]),
    ("Where does Marta live and why?", None),
    ("Who owns the parking lot and until when do we lease it?",  # a preposition between;
     ["Who owns the parking lot", "and until when do we lease it? (parking)"]),  # "it": …
    ("Where do Marta and Jan's kids go to school?", None),
    ("Was it a good month? Answer yes or no.", None),  # asks nothing more
    ("What are the plates on the van and on the Octavia?",  # a preposition repeated: the
     ["What are the plates on the van", "What are the plates on the Octavia?"]),  # same
    ("Daj mi telefon do Pawła i do Kasi",  # thing asked of another
     ["Daj mi telefon do Pawła", "Daj mi telefon do Kasi"]),
    ("Ile płacimy za prąd w domu, a ile w warsztacie?",  # the question word again, then
     ["Ile płacimy za prąd w domu,", "Ile płacimy za prąd w warsztacie?"]),  # the place
    ("How much do we pay for power at home and how much at the shop?",
     ["How much do we pay for power at home", "How much do we pay for power at the shop?"]),
    ("numer do Chemia-Polu i mail do AutoDetalu",  # … or another thing of another
     ["numer do Chemia-Polu", "i mail do AutoDetalu"]),
    ("What is the phone and email of Acme?", None),  # one thing's two
    ("adres dziadka i adres babci", ["adres dziadka", "i adres babci"]),  # the thing again
    ("What do Denisa and Petra do at the salon?", None),  # a verb's "do", not "do" (to)
    ("", None),
])
def test_a_text_is_split_into_the_questions_it_asks(text: str, asked: list[str] | None,
                                                    ) -> None:
    assert clauses.clauses(text) == (asked or [text])


def test_a_text_asks_at_most_a_few_questions_one_by_one() -> None:
    text = " and ".join(f"what is my pet number {n}" for n in range(500))
    asked = clauses.clauses(text)
    assert len(asked) == clauses.MAX_QUESTIONS
    assert " ".join(asked) == text


@pytest.mark.parametrize(("asked", "also"), [
    ("Where does my dad live?", {"father", "daddy"}),
    ("What did his father say?", {"dad"}),
    ("What do my kids like?", {"child", "children"}),
    ("Gdzie mieszka mój tata?", {"ojciec"}),
    ("Kde býva môj otec?", {"ocko"}),
])
def test_a_family_word_also_finds_its_familiar_or_formal_twin(asked: str,
                                                             also: set[str]) -> None:
    forms = {form for term in question.analyse(asked, NOW).terms for form in term.bases}
    assert also <= forms
    assert "mother" not in forms and "mom" not in forms


@pytest.mark.parametrize(("pasted", "plain"), [
    ("What is my dog\x1b[31m name?", "What is my dog name?"),  # colour
    ("\x1b[2Jvet", "vet"),  # clear screen
    ("\x1b]0;title\x07hello", "hello"),  # window title
    ("no codes here", "no codes here"),
])
def test_terminal_codes_in_a_pasted_question_are_not_words(pasted: str, plain: str) -> None:
    assert question.without_terminal_codes(pasted) == plain


def test_a_family_word_of_two_languages_finds_the_words_of_both() -> None:
    forms = {form for term in question.analyse("Jak ma na imię moja mama?", NOW).terms
             for form in term.bases}
    assert {"matka", "mother", "mum"} <= forms  # "mama" is English and Polish


@pytest.mark.parametrize("text", [
    "When did the dairy put up the price of butter?",
    "When did they put the rent up?",
    "When did the landlord raise the rent?",
    "Kiedy hurtownia podniosła ceny?",
])
def test_raising_a_price_asks_how_it_changed(text: str) -> None:
    assert analyse(text, NOW).asks_change


def test_a_long_text_pointing_back_costs_one_pass() -> None:
    """The thing guessed for a part pointing back is found without a pattern that would
    backtrack over a long run of spaces (a 200 000-character part)."""
    assert clauses.with_referent(" " * 200_000 + "and who insures it? (car)", "salon").endswith(
        "who insures salon? (car)")


def test_a_polish_pronoun_points_back_as_written() -> None:
    """"… i kto JĄ ubezpiecza?" asks of the thing the part before named; folded, "ją" is
    "ja" (I), which points nowhere."""
    assert clauses.refers_back("i kto ją ubezpiecza?")
    assert not clauses.refers_back("Gdzie ja pracuję?")
    assert clauses.with_referent("i kto ją ubezpiecza?", "Octavia") == "i kto Octavia ubezpiecza?"
