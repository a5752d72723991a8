"""The relevance rules (core.relevance): budget, close spellings, coverage, rarest word."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import example, given
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import OSA

from memrepo.answer.question import analyse
from memrepo.answer.relevance import (
    AMOUNT,
    FEW_CANDIDATES,
    Plan,
    budgeted_forms,
    close_spelling,
    fuse_scores,
    idf,
    judge,
    nearest_within,
    osa_within,
    over_budget,
    plan,
    spelling_reach,
    word_weights,
)
from memrepo.core.facts.times import parse_instant

NOW = parse_instant("2026-08-31T18:00:00Z")
DF = {"electricity": 2, "bill": 3, "gas": 0, "cost": 1, "amount": 4, "kowalski": 1,
      "vat": 2, "draft": 1, "cat": 1, "name": 5}


def lookup(forms: Iterable[str]) -> dict[str, int]:
    return {form: DF[form] for form in forms if DF.get(form)}


def planned(text: str, respell: bool = True) -> Plan:
    vocabulary = [w for w, df in DF.items() if df]
    spell = (lambda word: close_spelling(word, vocabulary)) if respell else None
    return plan(analyse(text, NOW).terms, 10, lookup, spell)


def test_close_spellings_are_within_an_edit_or_two() -> None:
    vocabulary = ["kowalski", "electricity", "salary", "after", "employer"]
    assert close_spelling("kowalsky", vocabulary) == "kowalski"
    assert close_spelling("electrcity", vocabulary) == "electricity"
    assert close_spelling("salery", vocabulary) == "salary"
    assert close_spelling("emplyer", vocabulary) == "employer"
    assert close_spelling("water", vocabulary) is None
    assert close_spelling("dentist", vocabulary) is None


LETTERS = st.text("abcde", max_size=10)


@given(LETTERS, LETTERS, st.integers(0, 3))
def test_the_banded_distance_is_rapidfuzz_osa_within_its_reach(a: str, b: str,
                                                               reach: int) -> None:
    assert osa_within(a, b, reach) == OSA.distance(a, b, score_cutoff=reach)


@given(st.text("abcde", min_size=4, max_size=10),
       st.lists(st.text("abcde", min_size=2, max_size=12), max_size=FEW_CANDIDATES))
def test_few_candidates_are_judged_as_rapidfuzz_judges_them(word: str,
                                                            vocabulary: list[str]) -> None:
    """Without importing rapidfuzz, the same spelling (the first of the nearest)."""
    reach = spelling_reach(word)
    candidates = [t for t in vocabulary if t != word and abs(len(t) - len(word)) <= reach]
    found = process.extractOne(word, candidates, scorer=OSA.distance, score_cutoff=reach)
    expected = None if found is None else found[0]
    assert nearest_within(word, candidates, reach) == expected
    assert close_spelling(word, vocabulary) == expected


def test_many_candidates_are_judged_too() -> None:
    vocabulary = [f"k{n:03d}xyz" for n in range(FEW_CANDIDATES)] + ["kowalski", "kowalska"]
    assert close_spelling("kowalsky", vocabulary) == "kowalski"


def test_a_misspelled_word_is_searched_by_its_close_spelling() -> None:
    p = planned("When does Kowalsko send the VAT draft?")
    assert p.corrections == {"kowalsko": "kowalski"}
    assert "send" in p.unknown
    assert planned("When does Kowalsko send the VAT draft?", respell=False).corrections == {}


def test_the_rarest_forms_are_searched_first_within_the_budget() -> None:
    p = planned("electricity bill amount name cat")
    assert budgeted_forms(p.searched, p.df, budget=3) == ["cat", "electricity"]
    assert budgeted_forms(p.searched, p.df, budget=6) == ["cat", "electricity", "bill"]
    assert len(budgeted_forms(p.searched, p.df, budget=10**6)) == 5


def test_the_two_rarest_words_are_searched_unless_the_second_is_far_over_the_budget() -> None:
    p = planned("electricity bill amount name cat")
    assert budgeted_forms(p.searched, p.df, budget=1) == ["cat", "electricity"]  # 2 ≤ 2 × 1
    assert budgeted_forms(p.searched, p.df, budget=0) == ["cat"]
    assert not over_budget(["cat"], p.df, budget=1)
    lone = planned("bill amount name")
    assert budgeted_forms(lone.searched, lone.df, budget=0) == ["bill"]
    assert over_budget(["bill"], lone.df, budget=2)
    assert not over_budget([], lone.df, budget=2)


def test_a_look_alike_is_refused_by_the_rarest_word_rule() -> None:
    p = planned("How much does my gas bill cost?")
    weights = word_weights(p)
    electricity_bill = {"electricity", "bill", "amount", "cost"}
    verdict = judge(electricity_bill, p, weights, numeric=True)
    assert verdict.coverage > 0.4 and verdict.rarest_missed
    assert not verdict.answers(rarest_rule=True)


def test_a_hit_with_every_word_answers() -> None:
    p = planned("How much is my electricity bill?")
    weights = word_weights(p, amount=3)
    assert AMOUNT in weights
    verdict = judge({"electricity", "bill", "amount"}, p, weights, numeric=True)
    assert verdict.coverage == 1.0 and verdict.answers(rarest_rule=True)
    assert judge({"electricity", "bill"}, p, weights, numeric=False).coverage < 1.0


def test_a_question_of_unknown_words_covers_nothing() -> None:
    p = planned("What is my dog's name?")
    verdict = judge({"cat", "name"}, p, word_weights(p))
    assert verdict.coverage < 0.5 and verdict.rarest_missed


def test_idf_falls_with_document_frequency() -> None:
    assert idf(0, 100) > idf(1, 100) > idf(50, 100) > idf(100, 100) >= 0


def test_fusion_sums_scores_relative_to_each_lists_best() -> None:
    fused = fuse_scores([(0.5, {1: 10.0, 2: 5.0}), (0.5, {2: 4.0, 3: 2.0})])
    assert fused == {1: 0.5, 2: 0.75, 3: 0.25}
    assert fuse_scores([(1.0, {})]) == {}


@given(st.lists(st.tuples(st.floats(0, 1), st.dictionaries(st.integers(0, 20),
                                                          st.floats(0, 100))), max_size=4))
@example([(0.75, {0: 5e-324})])  # weight × score underflows to the score itself
def test_fusion_keeps_documents_and_stays_within_the_weights(
        lists: list[tuple[float, dict[int, float]]]) -> None:
    fused = fuse_scores(lists)
    assert set(fused) <= {doc for _, scores in lists for doc in scores}
    assert all(0 <= score <= sum(w for w, _ in lists) + 1e-9 for score in fused.values())
