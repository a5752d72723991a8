"""memrepo.bench.scoring: equivalent spellings of the right answer are right; a different,
partial, padded or missing answer is wrong; "not recorded" is right only when expected."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from memrepo.bench.memory_history import QUESTIONS
from memrepo.bench.scoring import MONTHS, NOT_RECORDED, is_correct, parse_changes
from memrepo.core.text import fold

EQUIVALENT = [
    ("280 zł", "280 zł"), ("280 zł", "280 PLN"), ("280 zł", "280zl"), ("280 zł", " 280  ZŁ. "),
    ("11 200 zł", "11,200 zł"), ("11 200 zł", "11200 złotych"), ("11 200 zł", "11.200 zł"),
    ("12,50 zł", "12.5 zł"), ("49 zł", "49.00 zł"), ("55 300 km", "55300 km"),
    ("2026-07-30", "30 July 2026"), ("2026-07-30", "July 30th, 2026"),
    ("2026-07-30", "30.07.2026"), ("2026-07-30", "30 Jul 2026"),
    ("ul. Długa 5, Kraków", "ul Dluga 5 Krakow"), ("dr Tomasz Zieliński", "Dr. Tomasz Zielinski"),
    ("Škoda Fabia", "skoda fabia"), ("Nordic Parts", "Answer: Nordic Parts."),
    ("CityFit, 129 zł a month", "CityFit, 129 zł/month"),
    ("CityFit, 129 zł a month", "CityFit, 129 PLN per month"),
    (NOT_RECORDED, "Not recorded."), (NOT_RECORDED, "NOT RECORDED"),
    ("no", "No."), ("no", "no, it did not"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "Yes, on 1 March 2026 from 210 PLN to 280 PLN."),
    ("yes, on 2026-04-10 from 48 200 km to 51 900 km; on 2026-07-25 from 51 900 km to 55 300 km",
     "yes: on 2026-04-10 from 48200 km to 51900 km; and on July 25, 2026 from 51,900 km to "
     "55,300 km"),
]

DIFFERENT = [
    ("280 zł", "245 zł"), ("280 zł", "280 km"), ("280 zł", "28 zł"), ("280 zł", "2800 zł"),
    ("280 zł", "280 zł or 245 zł"), ("280 zł", "about 280 zł"), ("280 zł", "I pay 280 zł"),
    ("11 200 zł", "11 300 zł"), ("12,50 zł", "12.05 zł"),
    ("2026-07-30", "2026-07-03"), ("2026-07-30", "30 June 2026"), ("2026-07-30", "2025-07-30"),
    ("ul. Długa 5, Kraków", "ul. Długa 6, Kraków"), ("ul. Długa 5, Kraków", "Kraków"),
    ("Nordic Parts", "Acme Supplies"), ("Nordic Parts", "Nordic"),
    ("no", "yes, on 2026-03-01 from 210 zł to 280 zł"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "no"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "yes"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "yes, in March"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "yes, on 2026-03-02 from 210 zł to 280 zł"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "yes, on 2026-03-01 from 200 zł to 280 zł"),
    ("yes, on 2026-03-01 from 210 zł to 280 zł", "yes, on 2026-03-01 from 280 zł to 210 zł"),
    ("yes, on 2026-04-10 from 48 200 km to 51 900 km; on 2026-07-25 from 51 900 km to 55 300 km",
     "yes, on 2026-04-10 from 48 200 km to 51 900 km"),
    ("yes, on 2026-05-15 from ul. Piotrkowska 12, Łódź to ul. Długa 5, Kraków",
     "yes, in May 2026, to ul. Długa 5, Kraków"),
]


@pytest.mark.parametrize(("expected", "answer"), EQUIVALENT)
def test_equivalent_answers_are_right(expected: str, answer: str) -> None:
    assert is_correct(expected, answer)


@pytest.mark.parametrize(("expected", "answer"), DIFFERENT)
def test_different_answers_are_wrong(expected: str, answer: str) -> None:
    assert not is_correct(expected, answer)
    assert not is_correct(answer, expected)


@pytest.mark.parametrize("expected", ["280 zł", "no", NOT_RECORDED,
                                      "yes, on 2026-03-01 from 210 zł to 280 zł"])
@pytest.mark.parametrize("missing", [None, "", "   ", ".", "\n"])
def test_a_missing_answer_is_wrong_even_where_not_recorded_is_right(expected: str,
                                                                     missing: str | None) -> None:
    assert not is_correct(expected, missing)


@pytest.mark.parametrize("expected", ["280 zł", "no", "Nordic Parts", "2026-07-30",
                                      "yes, on 2026-03-01 from 210 zł to 280 zł"])
def test_not_recorded_is_wrong_where_a_fact_is_expected(expected: str) -> None:
    assert not is_correct(expected, NOT_RECORDED)
    assert not is_correct(expected, "Not recorded.")


def test_not_recorded_is_right_only_as_itself() -> None:
    assert is_correct(NOT_RECORDED, " Not recorded. ")
    for guess in ("unknown", "no", "42", "not recorded: probably 42", "recorded"):
        assert not is_correct(NOT_RECORDED, guess), guess


def test_many_valued_answers_are_sets() -> None:
    assert is_correct("English, German, Polish", "Polish and English, German", many=True)
    assert not is_correct("English, German, Polish", "English, Polish", many=True)
    assert not is_correct("English, Polish", "English, Polish, German", many=True)
    assert not is_correct("English, German, Polish", "Polish and English, German")
    changed = "yes, on 2026-03-01 from English, Polish to English, German, Polish"
    assert is_correct(changed, "yes, on 2026-03-01 from Polish, English to German, Polish, "
                               "English", many=True)
    assert not is_correct(changed, "yes, on 2026-03-01 from Polish to German, Polish, English",
                          many=True)


def test_change_answers_parse() -> None:
    assert parse_changes("No.") == []
    assert parse_changes("280 zł") is None
    assert parse_changes("yes") is None
    [change] = parse_changes("Yes, on 1 March 2026 from 210 zł to 280 zł") or []
    assert (change.date, change.old, change.new) == ("2026-03-01", "210 zl", "280 zl")


def test_every_benchmark_answer_scores_itself_and_no_other() -> None:
    for q in QUESTIONS:
        assert is_correct(q.expected, q.expected, q.many), q.qid
    for a, b in itertools.combinations(QUESTIONS, 2):
        if a.expected != b.expected:
            assert not is_correct(a.expected, b.expected, a.many), (a.qid, b.qid)


_VALUE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                 min_size=1, max_size=40).filter(lambda s: any(c.isalnum() for c in fold(s)))


@given(_VALUE)
def test_any_value_scores_itself_right(value: str) -> None:
    assert is_correct(value, value)


@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789 .,-", min_size=1, max_size=30)
       .filter(lambda s: any(c.isalnum() for c in s)))
@example("answer")  # the lead-in "answer is:" is dropped; the word alone is kept
def test_case_and_outer_spacing_never_matter(value: str) -> None:
    assert is_correct(value, f"  {value.upper()} ")


@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_amounts_are_right_exactly_when_equal(n: int, m: int) -> None:
    assert is_correct(f"{n} zł", f"{m} zł") == (n == m)
    assert is_correct(f"{n:,} zł".replace(",", " "), f"{m:,} PLN") == (n == m)


@given(st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)),
       st.dates(dt.date(1990, 1, 1), dt.date(2040, 12, 31)))
def test_dates_are_right_exactly_when_equal(day: dt.date, other: dt.date) -> None:
    spelled = f"{other.day} {MONTHS[other.month - 1].title()} {other.year}"
    assert is_correct(day.isoformat(), spelled) == (day == other)
    assert is_correct(day.isoformat(), other.isoformat()) == (day == other)


@given(_VALUE, _VALUE)
def test_a_value_padded_with_another_is_wrong(value: str, extra: str) -> None:
    assert not is_correct(f"{value}7", f"{value}7 or {extra}8")
    assert not is_correct(f"{value}7", None)
