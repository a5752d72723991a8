"""The kind of value a question asks for (memrepo.answer.answer_kinds): a question that names
a thing by its own words but none of its relations in words the memory knows is answered by
the thing's one relation of the asked kind — never another thing's, and not when the
question names something the key does not hold. A small workshop, written for these tests
alone, asked through the Python API.
"""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from memrepo.answer.answer_kinds import (
    AMOUNT,
    DATE,
    DAYS,
    NAME,
    TIME,
    asked_kinds,
    asks_days_or_time,
    leads_with_name,
    value_kinds,
)
from tests.support import answered_keys, world_fixtures

WORLD = """\
world: answer-kinds
about: "Olek's carpentry workshop and his household"
now: "2026-10-01T12:00:00Z"
many_valued: []
notes: []
events:
  - {op: assert, scope: olek, subject: lathe_lease, relation: leasing_company,
     object: "Mazowiecki Leasing",
     valid_from: "2025-03-01", recorded_at: "2025-03-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: lathe_lease, relation: monthly_instalment,
     object: "1 150 zł",
     valid_from: "2025-03-01", recorded_at: "2025-03-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: lathe_lease, relation: ends_on, object: "28 lutego 2028",
     valid_from: "2025-03-01", recorded_at: "2025-03-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: cat, relation: name, object: "Mruczek",
     valid_from: "2021-05-01", recorded_at: "2025-04-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: cat, relation: next_checkup, object: "14 stycznia 2027",
     valid_from: "2026-01-14", recorded_at: "2026-01-15T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: timber_supplier, relation: company, object: "Tartak Borowy",
     valid_from: "2019-01-01", recorded_at: "2025-05-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: timber_supplier, relation: delivery_days,
     object: "Monday and Thursday",
     valid_from: "2019-01-01", recorded_at: "2025-05-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: timber_supplier, relation: price_per_m3, object: "1 900 zł",
     valid_from: "2026-01-01", recorded_at: "2025-12-20T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: honey, relation: price, object: "240 Kč / 500 g",
     valid_from: "2026-05-01", recorded_at: "2026-05-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: honey, relation: beekeeper, object: "Josef Hruška",
     valid_from: "2021-05-01", recorded_at: "2026-05-02T10:00:00Z", source: manual}
  - {op: assert, scope: olek, subject: van, relation: insurance,
     object: "Warta, OC, do 2027-03-31",
     valid_from: "2026-04-01", recorded_at: "2026-04-02T10:00:00Z", source: manual}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "olek", "2026-10-01T12:00:00Z")


def answered(memory: Memory, question: str) -> list[str]:
    return answered_keys(memory, "olek", question)


@pytest.mark.parametrize(("value", "kinds"), [
    ("Mazowiecki Leasing", {NAME}), ("Slovenská sporiteľňa", {NAME}), ("1 150 zł", {AMOUNT}),
    ("0,63 €", {AMOUNT}), ("12 %", {AMOUNT}), ("28 lutego 2028", {DATE}),
    ("2027-03-12", {DATE}), ("marec 2027", {DATE}), ("Monday and Thursday", {DAYS}),
    ("wtorki i piątki przed 10:00", {DAYS, TIME}), ("codziennie o 15:30", {DAYS, TIME}),
    ("16:00", {TIME}), ("drobné nedostatky: chýbajúci záznam", set()),
    ("OC/2026/448812", set()), ("red", set()),
    ("Warta, OC+AC, do 2026-03-31", {DATE}),
])
def test_a_recorded_value_is_of_plain_kinds_or_none(value: str, kinds: set[str]) -> None:
    assert value_kinds(value) == kinds


@pytest.mark.parametrize(("value", "leads"), [
    ("Warta, OC+AC, do 2026-03-31", True), ("Mleczarnia Jogo, dostawy wt i pt", True),
    ("Partizánska 7, Slovenská Ľupča", False), ("2026-03-31, Warta", False),
    ("Mazowiecki Leasing", False),
])
def test_a_name_may_lead_the_terms_of_a_value(value: str, leads: bool) -> None:
    assert leads_with_name(value) is leads


def test_the_question_word_says_the_kind_asked() -> None:
    assert asked_kinds(["who", "lent", "us"], True, False, False) == {NAME}
    assert asked_kinds(["when"], False, True, False) == {DATE, DAYS}
    assert asked_kinds(["which", "days"], False, False, False) == {DAYS}
    assert asked_kinds(["o", "ktorej", "przyjezdza"], False, False, False) == {TIME}
    assert asked_kinds(["what", "colour"], False, False, False) == set()


@pytest.mark.parametrize(("question", "expected"), [
    # the lease's one name-valued relation answers "who"
    ("Who gave us the money for the lathe?", ["lathe_lease.leasing_company=Mazowiecki Leasing"]),
    # "his" stands for the cat the question named before it
    ("When does the cat need his next one?", ["cat.next_checkup=14 stycznia 2027"]),
    # a role subject (`supplier`) named by a word of its own that is no role word
    ("Which days do they bring the timber?",
     ["timber_supplier.delivery_days=Monday and Thursday"]),
    # the insurer's name leads its terms and their end date: it answers "who"
    ("Who is the van insured with?", ["van.insurance=Warta, OC, do 2027-03-31"]),
    # "how much" of selling: the price it is sold at, though no key says "sell"
    ("Za kolik prodáváme med?", ["honey.price=240 Kč / 500 g"]),
])
def test_a_thing_named_answers_with_its_one_relation_of_the_asked_kind(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered(memory, question) == expected


@pytest.mark.parametrize("question", [
    "When does his lathe need oil?",          # "his": nobody named before it
    "Who looks after the cat?",               # the cat's own name is no answer to "who"
    "When do we pay for the lathe at the bank?",  # two date-free relations: nothing chosen
    "Who sold us the car?",                   # no car recorded: nobody's value
    "Who do we pay the lathe instalment to?",  # "who" is never answered by an amount
])
def test_no_relation_of_another_kind_or_thing_is_the_answer(memory: Memory,
                                                             question: str) -> None:
    assert answered(memory, question) == []


@pytest.mark.parametrize(("question", "asks"), [
    ("which days does the dairy deliver", True),
    ("what time is the training", True),
    ("ola's lesson time", True),            # a terse question ending in "time"
    ("how has the rent changed over time", False),
    ("how much is the lesson", False),
])
def test_the_question_word_asks_days_or_a_time(question: str, asks: bool) -> None:
    assert asks_days_or_time(question.split()) is asks
