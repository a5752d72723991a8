"""Who does a job for us where the job is kept beside the name in a staff value ("Petr
Říha – traktorista"): that value alone answers "kdo je náš TRAKTORISTA", and "kdo u nás
dělá PŘEDÁKA" narrows the firm's `employee` to the foreman; asked of everyone, every
employee answers."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-10T12:00:00Z"

WORLD = world_yaml("jobs", "A Czech orchard and its staff", NOW, world_facts("tomas", (
    ("sad", "employee", "Jana Benešová – prodavačka"),
    ("sad", "employee", "Oleksandr Bondarenko – předák"),
    ("sad", "employee", "Petr Říha (traktorista)"),
    ("sad", "spray_supplier", "AgroServis Lovosice"),
))).replace("notes: []\n", "many_valued: [employee]\nnotes: []\n")

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Kdo je náš traktorista?", ["sad.employee=Petr Říha (traktorista)"]),
    ("Kdo u nás dělá předáka?", ["sad.employee=Oleksandr Bondarenko – předák"]),
    ("Kto je u nás prodavačka?", ["sad.employee=Jana Benešová – prodavačka"]),
])
def test_the_job_in_a_staff_value_names_the_person(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "tomas", question) == expected


def test_asked_of_everyone_every_employee_answers(memory: Memory) -> None:
    assert len(answered_keys(memory, "tomas", "Kdo u nás pracuje?")) == 3


def test_a_job_no_value_holds_names_nobody(memory: Memory) -> None:
    assert answered_keys(memory, "tomas", "Kdo je náš účetní?") == []
