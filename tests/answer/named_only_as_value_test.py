"""A person the memory knows only as a value (`employee` = "Lucie Hájková", an account
manager's name) owns no key: a question about them is "nothing is recorded about …", never
another person's value in the same format. Also: a role word picks the relation that holds
it as written ("my GP": `gp`, not `doctor_appointment`), and a Czech question's function
words are no content ("Jaké číslo má manžel?"). A small guesthouse, written for these tests
alone, asked through the Python API.
"""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import world_fixtures

WORLD = """\
world: named-only-as-value
about: "Hana's guesthouse and her household"
now: "2026-10-01T12:00:00Z"
many_valued: [employee]
self:
  hana: hana_kralova
notes:
  - category: entities
    name: pavel-kral
    description: "Hana's husband Pavel: a forester"
    aliases: ["Pavel", "husband", "manžel"]
  - category: entities
    name: jan-novy
    description: "Jan Nový: the guesthouse's cook"
    aliases: ["Jan", "cook", "kuchař"]
events:
  - {op: assert, scope: hana, subject: penzion, relation: employee, object: "Jan Nový",
     valid_from: "2022-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: penzion, relation: employee, object: "Lucie Hájková",
     valid_from: "2024-06-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: jan_novy, relation: salary, object: "41 000 Kč",
     valid_from: "2025-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: jan_novy, relation: dovolena, object: "1. – 12. 12. 2026",
     valid_from: "2026-09-01", recorded_at: "2026-09-02T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: hana_kralova, relation: gp, object: "MUDr. Eva Malá",
     valid_from: "2020-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: hana_kralova, relation: doctor_appointment,
     object: "3. 12. 2026 8:30", valid_from: "2026-09-01", recorded_at: "2026-09-02T10:00:00Z",
     source: manual}
  - {op: assert, scope: hana, subject: jan_novy, relation: hometown, object: "Žilina",
     valid_from: "1990-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
  - {op: assert, scope: hana, subject: pavel, relation: phone, object: "+420 605 221 904",
     valid_from: "2020-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "hana", "2026-10-01T12:00:00Z")


@pytest.mark.parametrize("question", [
    "What's Lucie's salary?",
    "Kdy má Lucie dovolenou?",
    "How much does Lucie Hájková earn?",
])
def test_a_person_held_only_as_a_value_is_answered_from_nobody_elses_keys(
        memory: Memory, question: str) -> None:
    result = memory.recall("hana", question)
    assert result.facts == []
    assert any("nothing is recorded about 'lucie" in remark for remark in result.remarks)


def test_jans_own_keys_still_answer_about_him(memory: Memory) -> None:
    assert [f.object for f in memory.recall("hana", "What's Jan's salary?").facts] == [
        "41 000 Kč"]


def test_a_role_word_picks_the_relation_that_holds_it_as_written(memory: Memory) -> None:
    assert [f.relation for f in memory.recall("hana", "Who's my GP?").facts] == ["gp"]


def test_czech_function_words_are_no_content(memory: Memory) -> None:
    assert [f.object for f in memory.recall("hana", "Jaké číslo má manžel?").facts] == [
        "+420 605 221 904"]


@pytest.mark.parametrize("question", ["Where's our cook from?", "Skąd pochodzi Jan?",
                                      "Odkiaľ je kuchař?"])
def test_where_someone_comes_from_is_their_hometown_alone(memory: Memory, question: str) -> None:
    assert [f.object for f in memory.recall("hana", question).facts] == ["Žilina"]
