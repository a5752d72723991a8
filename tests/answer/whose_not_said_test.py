"""A relation that several subjects have, asked without saying whose, is nobody's answer:
"what's the phone number?" with Piotr's and Anna's phones recorded (and no note saying
who either is) answers neither, and says which keys fit. Saying whose — by name, role or a
word of the thing — answers that one; a relation only one subject has still answers."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("unsaid", "A household whose subjects have no notes", NOW, "".join((
    world_event("home", "piotr", "phone", "+48 600 111 222", "2024-01-01"),
    world_event("home", "anna", "phone", "+48 600 333 444", "2024-01-01"),
    world_event("home", "dentist", "phone", "+48 22 555 66 77", "2024-01-01"),
    world_event("home", "car", "model", "Toyota Corolla", "2023-05-01"),
    world_event("home", "van", "model", "Ford Transit", "2022-03-01"),
    world_event("home", "router", "wifi_name", "Kowalscy-5G", "2024-02-01"),
)))

world_repo, memory = world_fixtures(WORLD, "home", NOW)


@pytest.mark.parametrize("question", [
    "what's the phone number?", "what's our phone?", "jaki jest numer telefonu?",
    "what model is it?",
])
def test_a_relation_of_several_subjects_asked_of_none_is_not_answered(
        memory: Memory, question: str) -> None:
    result = memory.recall("home", question)
    assert result.facts == []
    assert result.status == "not_recorded"


@pytest.mark.parametrize(("question", "expected"), [
    ("what is Anna's phone?", ["anna.phone=+48 600 333 444"]),
    ("phone number of the dentist?", ["dentist.phone=+48 22 555 66 77"]),
    ("what model is the car?", ["car.model=Toyota Corolla"]),
    ("what's the wifi name?", ["router.wifi_name=Kowalscy-5G"]),
])
def test_saying_whose_or_a_relation_only_one_has_answers(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "home", question) == expected
