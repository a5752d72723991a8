"""A change question ("how did … change", "how has … changed since …") answers the values
a key held one after another: the words of a clause saying since when ("since we moved
into the flat") are its time, not what it asks; when the best key never changed (the
loan's final payment), the next best of the same subject that did (its instalment)."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"


WORLD = world_yaml("changes", "A Kraków freelancer's flat and loan", NOW, world_facts("daniel", (
    ("flat", "address", "ul. Krowoderska 15/4, Kraków"),
    ("bank_loan", "final_payment", "2029-05-15"),
)) + "".join(world_event("daniel", subject, relation, value, since) for subject, relation, value,
             since in (("czynsz", "kwota", "3 000 zł", "2023-03-01"),
                       ("czynsz", "kwota", "3 400 zł", "2025-09-01"),
                       ("bank_loan", "monthly_installment", "389 €", "2024-06-15"),
                       ("bank_loan", "monthly_installment", "412 €", "2026-07-15"))))

world_repo, memory = world_fixtures(WORLD, "daniel", NOW)


def test_a_clause_of_since_when_is_the_time_not_the_thing(memory: Memory) -> None:
    answered = answered_keys(memory, "daniel",
                             "How has our rent changed since we moved into the flat?")
    assert answered == ["czynsz.kwota=3 000 zł", "czynsz.kwota=3 400 zł"]


def test_the_next_best_key_that_changed_answers_a_change(memory: Memory) -> None:
    answered = answered_keys(memory, "daniel", "How did our loan payment change this year?")
    assert answered == ["bank_loan.monthly_installment=389 €",
                        "bank_loan.monthly_installment=412 €"]


def test_a_value_asked_without_a_change_is_the_best_key(memory: Memory) -> None:
    assert answered_keys(memory, "daniel", "When is the final loan payment?") == [
        "bank_loan.final_payment=2029-05-15"]


def test_before_and_now_asks_what_it_was_and_what_it_is(memory: Memory) -> None:
    """"… before and … now", "predtým a teraz", "Ile BYŁ …, a ile jest TERAZ": both values,
    not just today's."""
    both = ["czynsz.kwota=3 000 zł", "czynsz.kwota=3 400 zł"]
    for question in ("What was our rent before and what is it now?",
                     "Aký bol nájom predtým a aký je teraz?",
                     "Ile był czynsz, a ile jest teraz?"):
        assert sorted(answered_keys(memory, "daniel", question)) == both, question
    assert answered_keys(memory, "daniel", "What is our rent now?") == [
        "czynsz.kwota=3 400 zł"]
