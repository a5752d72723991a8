"""A letter or a small number that tells one of several things alike from the others
(memrepo.answer.reading labels, memrepo.answer.scoring.another_kind): "category B" is
`course_price_b`, never `course_price_a`; "training car 2" is not `training_car_1`, and a
label no key holds is "not recorded", never the value of another of the kind."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-10-15T12:00:00Z"
WORLD = f"""\
world: labels
about: "a driving school with two training cars and two courses"
now: "{NOW}"
many_valued: []
notes: []
events:
  - {{op: assert, scope: school, subject: school, relation: course_price_a, object: "2900 zł",
     valid_from: "2025-01-01", recorded_at: "2025-01-02T10:00:00Z",
     quote: "The motorbike course is 2900 zł.", source: conversation, session: s1}}
  - {{op: assert, scope: school, subject: school, relation: course_price_b, object: "3600 zł",
     valid_from: "2025-01-01", recorded_at: "2025-01-02T10:00:00Z",
     quote: "The car course is 3600 zł.", source: conversation, session: s1}}
  - {{op: assert, scope: school, subject: training_car_1, relation: insurer, object: "Warta",
     valid_from: "2025-01-01", recorded_at: "2025-01-02T10:00:00Z",
     quote: "The Yaris is insured with Warta.", source: conversation, session: s1}}
  - {{op: assert, scope: school, subject: training_car_1, relation: model, object: "Toyota Yaris",
     valid_from: "2021-01-01", recorded_at: "2025-01-02T10:00:00Z",
     quote: "Car one is the Yaris.", source: conversation, session: s1}}
  - {{op: assert, scope: school, subject: training_car_2, relation: model, object: "Kia Rio",
     valid_from: "2018-01-01", recorded_at: "2025-01-02T10:00:00Z",
     quote: "Car two is the Rio.", source: conversation, session: s1}}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "school", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("How much is the category B course price?", ["school.course_price_b=3600 zł"]),
    ("Which model is training car 2?", ["training_car_2.model=Kia Rio"]),
    ("What model is training car 1?", ["training_car_1.model=Toyota Yaris"]),
    ("Who insures training car 1?", ["training_car_1.insurer=Warta"]),
])
def test_a_label_picks_the_one_of_its_kind(memory: Memory, question: str,
                                           expected: list[str]) -> None:
    assert answered_keys(memory, "school", question) == expected


@pytest.mark.parametrize("question", [
    "Who insures training car 2?", "How much is the category C course price?",
    "Ile kosztuje kurs na kategorię C?"])
def test_a_label_no_key_holds_is_not_recorded(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "school", question) == []


def test_without_a_label_both_alike_are_answered(memory: Memory) -> None:
    assert answered_keys(memory, "school", "Which models are our training cars?") == [
        "training_car_1.model=Toyota Yaris", "training_car_2.model=Kia Rio"]
