"""A kindergarten's words: who may collect a child ("kto może ODBIERAĆ Kubę": the people
allowed, a relation written `authorized_pickup` — no vehicle, though a pick-up truck is),
a word of a phrase the table knows is never respelled into another ("zajęcia DODATKOWE"
is no van), and a school year ("in the 2025/26 school year": September to September)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-28T18:00:00Z"

_CHILDREN = (
    "  - {op: end, scope: magda, subject: przedszkole, relation: liczba_dzieci, "
    "valid_to: \"2026-08-31\", recorded_at: \"2026-09-01T10:00:00Z\", source: manual}\n")

WORLD = world_yaml("kindergarten-words", "A Poznań family's kindergarten", NOW, world_facts(
    "magda", (
        ("magda", "child", "Kuba"),
        ("kuba", "authorized_pickup", "Tomasz Wiśniewski"),
        ("kuba", "szkola", "SP nr 51"),
        ("car", "model", "Toyota Corolla"),
        ("zdrowy_talerz", "phone", "+48 61 222 45 90"),
        ("zdrowy_talerz", "email", "zamowienia@zdrowytalerz.pl"),
        ("daniel_brooks", "rate", "140 zł za godzinę"),
        ("biuro_rachunkowe", "monthly_fee", "450 zł"),
    )) + world_event("magda", "przedszkole", "liczba_dzieci", "31", "2025-09-01")
    + _CHILDREN + world_event("magda", "przedszkole", "liczba_dzieci", "30", "2026-09-01"))

world_repo, memory = world_fixtures(WORLD, "magda", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Kto może odbierać Kubę ze szkoły?", ["kuba.authorized_pickup=Tomasz Wiśniewski"]),
    ("Who can pick Kuba up?", ["kuba.authorized_pickup=Tomasz Wiśniewski"]),
    ("Jaki mamy samochód?", ["car.model=Toyota Corolla"]),
    ("Na jakie zajęcia dodatkowe chodzi Kuba?", []),
    ("How many children did the kindergarten have in the 2025/26 school year?",
     ["przedszkole.liczba_dzieci=31"]),
    ("Ile dzieci było w przedszkolu w roku szkolnym 2025/26?",
     ["przedszkole.liczba_dzieci=31"]),
    ("Ile dzieci mamy teraz w przedszkolu?", ["przedszkole.liczba_dzieci=30"]),
    # no function word says Polish here ("i", "do" are English words too): its spelling
    # does, so "i" joins two relations and is not the asker; a capitalised name means no
    # concept but as written ("ZDROWEGO Talerza" is no health, "DANIEL" no "daň", tax)
    ("Podaj telefon i maila do Zdrowego Talerza",
     ["zdrowy_talerz.phone=+48 61 222 45 90", "zdrowy_talerz.email=zamowienia@zdrowytalerz.pl"]),
    ("Ile bierze Daniel?", ["daniel_brooks.rate=140 zł za godzinę"]),
])
def test_kindergarten_words(memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "magda", question) == expected
